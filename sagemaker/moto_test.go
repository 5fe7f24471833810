package sagemaker

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

const testRegion = "us-east-1"

// motoConfig is an SDK configuration that talks to url with moto's test credentials.
func motoConfig(url string) aws.Config {
	return aws.Config{
		Region:       testRegion,
		Credentials:  credentials.NewStaticCredentialsProvider("testing", "testing", ""),
		BaseEndpoint: aws.String(url),
	}
}

// newMoto starts a moto server for the test and returns a Control on it that polls without
// waiting.
func newMoto(t *testing.T) (*Control, string) {
	t.Helper()
	url := testenv.Moto(t)
	c := NewControl(motoConfig(url), awsconf.Retry{Base: time.Millisecond, Max: 10 * time.Millisecond})
	c.Poll = time.Millisecond
	return c, url
}

func testSpec(endpoint string) DeploySpec {
	return DeploySpec{
		Endpoint:         endpoint,
		Image:            "123456789012.dkr.ecr.us-east-1.amazonaws.com/kokoro@sha256:8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced",
		Role:             "arn:aws:iam::123456789012:role/kokoro-sagemaker",
		InstanceType:     "ml.g4dn.xlarge", // moto validates against an older list of instance types, without g5
		InstanceCount:    1,
		Env:              map[string]string{"SLOTS": "2", "MAX_QUEUE_DEPTH": "50"},
		StartupTimeoutS:  600,
		DownloadTimeoutS: 600,
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

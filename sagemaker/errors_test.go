package sagemaker

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// checkOneLine fails unless err is an *Error of kind with a one-line message containing want.
func checkOneLine(t *testing.T, err, kind error, want ...string) {
	t.Helper()
	var e *awsconf.Error
	if !errors.As(err, &e) || !errors.Is(err, kind) {
		t.Fatalf("got %T %v, want an *Error of kind %v", err, err, kind)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("message spans lines: %q", err.Error())
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("message %q does not say %q", err.Error(), w)
		}
	}
}

// moto with IAM enforcement (INITIAL_NO_AUTH_ACTION_COUNT lets the set-up calls through)
// answers a user without a permission as AWS does: AccessDenied naming the action.
func TestAccessDeniedNamesTheAction(t *testing.T) {
	t.Setenv("INITIAL_NO_AUTH_ACTION_COUNT", "3")
	url := testenv.Moto(t)
	ctx := ctxT(t)
	admin := iam.NewFromConfig(motoConfig(url))
	if _, err := admin.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("bench")}); err != nil {
		t.Fatal(err)
	}
	key, err := admin.CreateAccessKey(ctx, &iam.CreateAccessKeyInput{UserName: aws.String("bench")})
	if err != nil {
		t.Fatal(err)
	}
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sagemaker:ListEndpoints","Resource":"*"}]}`
	if _, err := admin.PutUserPolicy(ctx, &iam.PutUserPolicyInput{UserName: aws.String("bench"), PolicyName: aws.String("p"), PolicyDocument: aws.String(policy)}); err != nil {
		t.Fatal(err)
	}
	cfg := motoConfig(url)
	cfg.Credentials = credentials.NewStaticCredentialsProvider(aws.ToString(key.AccessKey.AccessKeyId), aws.ToString(key.AccessKey.SecretAccessKey), "")
	c := NewControl(cfg, awsconf.Retry{MaxAttempts: 1})

	_, err = c.Describe(ctx, "tts")
	checkOneLine(t, err, awsconf.ErrAccessDenied, "sagemaker:DescribeEndpoint")
	_, err = c.ScalableTarget(ctx, "tts", DefaultVariant)
	checkOneLine(t, err, awsconf.ErrAccessDenied, "application-autoscaling:DescribeScalableTargets")

	cfg.Credentials = credentials.NewStaticCredentialsProvider("AKIANOTAKEY", "nope", "")
	_, err = NewControl(cfg, awsconf.Retry{MaxAttempts: 1}).Describe(ctx, "tts")
	checkOneLine(t, err, awsconf.ErrAccessDenied, "rejected")
}

func TestNoCredentials(t *testing.T) {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "",
		"AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "", "AWS_CONTAINER_CREDENTIALS_FULL_URI": "",
		"AWS_WEB_IDENTITY_TOKEN_FILE": "",
	} {
		t.Setenv(k, v)
	}
	ctx := ctxT(t)
	cfg, err := awsconf.LoadConfig(ctx, awsconf.Options{Region: testRegion, EndpointURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	checkOneLine(t, awsconf.CheckCredentials(ctx, cfg), awsconf.ErrNoCredentials, "AWS_PROFILE")
	_, err = NewControl(cfg, awsconf.Retry{MaxAttempts: 1}).Describe(ctx, "tts")
	checkOneLine(t, err, awsconf.ErrNoCredentials, "AWS_PROFILE")
}

func TestNotFoundNamesTheRegion(t *testing.T) {
	t.Parallel()
	c, url := newMoto(t)
	ctx := ctxT(t)
	if _, err := c.Deploy(ctx, testSpec("tts-here"), DeployOptions{}); err != nil {
		t.Fatal(err)
	}
	// The endpoint is in us-east-1; a user whose region is eu-west-1 does not find it.
	cfg := motoConfig(url)
	cfg.Region = "eu-west-1"
	_, err := NewControl(cfg, awsconf.Retry{}).Describe(ctx, "tts-here")
	checkOneLine(t, err, awsconf.ErrNotFound, "tts-here", "eu-west-1", "--region")
	_, err = c.Capacity(ctx, "tts-here", "Blue")
	checkOneLine(t, err, awsconf.ErrNotFound, `no variant "Blue"`, "AllTraffic")
}

func TestNotInService(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ status, want string }{
		{StatusUpdating, "wait until"},
		{StatusCreating, "wait until"},
		{StatusFailed, "image pull failed"},
	} {
		t.Run(tc.status, func(t *testing.T) {
			fake := &fakeSageMaker{DescribeEndpointFunc: func(context.Context, *sm.DescribeEndpointInput, ...func(*sm.Options)) (*sm.DescribeEndpointOutput, error) {
				return &sm.DescribeEndpointOutput{
					EndpointName: aws.String("tts"), EndpointStatus: smtypes.EndpointStatus(tc.status), FailureReason: aws.String("image pull\nfailed"),
					ProductionVariants: []smtypes.ProductionVariantSummary{{VariantName: aws.String(DefaultVariant)}},
				}, nil
			}}
			c := &Control{SageMaker: fake, Region: testRegion}
			_, err := c.RequireInService(context.Background(), "tts", DefaultVariant)
			checkOneLine(t, err, awsconf.ErrNotInService, "tts is "+tc.status, tc.want)
		})
	}
}

func TestQuotaExceeded(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	fake := &fakeSageMaker{SageMakerAPI: c.SageMaker}
	fake.CreateEndpointFunc = func(context.Context, *sm.CreateEndpointInput, ...func(*sm.Options)) (*sm.CreateEndpointOutput, error) {
		return nil, &smithy.OperationError{ServiceID: "SageMaker", OperationName: "CreateEndpoint", Err: &smithy.GenericAPIError{
			Code: "ResourceLimitExceeded", Message: "The account-level service limit 'ml.g5.xlarge for endpoint usage' is 0 Instances, with current utilization of 0 Instances and a request delta of 1 Instances.",
		}}
	}
	c.SageMaker = fake
	_, err := c.Deploy(ctxT(t), testSpec("tts-quota"), DeployOptions{})
	checkOneLine(t, err, awsconf.ErrQuota, "sagemaker:CreateEndpoint", "ml.g5.xlarge for endpoint usage", "Service Quotas")
}

// throttlingServer answers SageMaker's JSON protocol: ThrottlingException for the first
// `throttle` requests, then a DescribeEndpoint response.
func throttlingServer(t *testing.T, throttle int32) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		if n.Add(1) <= throttle {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]string{"__type": "ThrottlingException", "message": "Rate exceeded"})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"EndpointName": "tts", "EndpointStatus": "InService", "EndpointConfigName": "c",
			"ProductionVariants": []map[string]any{{"VariantName": DefaultVariant, "CurrentInstanceCount": 2, "DesiredInstanceCount": 2}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestThrottlingRetriesBounded(t *testing.T) {
	t.Parallel()
	r := awsconf.Retry{MaxAttempts: 4, Base: time.Millisecond, Max: 4 * time.Millisecond}

	srv, n := throttlingServer(t, 2)
	c := NewControl(motoConfig(srv.URL), r)
	got, err := c.Capacity(ctxT(t), "tts", DefaultVariant)
	if err != nil || got != 2 || n.Load() != 3 {
		t.Fatalf("after two throttles: capacity %d, %v, %d requests; want 2 after 3 requests", got, err, n.Load())
	}

	srv, n = throttlingServer(t, 1000)
	c = NewControl(motoConfig(srv.URL), r)
	_, err = c.Capacity(ctxT(t), "tts", DefaultVariant)
	checkOneLine(t, err, awsconf.ErrThrottled, "sagemaker:DescribeEndpoint", "retry")
	if n.Load() != 4 {
		t.Fatalf("%d requests, want exactly MaxAttempts = 4", n.Load())
	}
}

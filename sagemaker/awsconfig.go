package sagemaker

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Options selects the AWS account, region and credentials. Empty fields fall back to the SDK's
// standard chain (AWS_REGION / AWS_PROFILE, the shared config and credentials files, the
// container or instance role).
type Options struct {
	Region  string // e.g. us-east-1
	Profile string // a named profile of the shared config files
	// EndpointURL sends every client to one address instead of AWS's regional endpoints: a
	// moto server or the local emulator on loopback. Empty: AWS itself.
	EndpointURL string
}

// LoadConfig resolves the SDK configuration once for every client a command builds. A missing
// region is an error here rather than at the first call, where the SDK's message is obscure.
func LoadConfig(ctx context.Context, o Options) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if o.Region != "" {
		opts = append(opts, config.WithRegion(o.Region))
	}
	if o.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(o.Profile))
	}
	if o.EndpointURL != "" {
		opts = append(opts, config.WithBaseEndpoint(o.EndpointURL))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("load aws configuration: %w", err)
	}
	if cfg.Region == "" {
		return aws.Config{}, fmt.Errorf("no aws region: pass --region or set AWS_REGION")
	}
	return cfg, nil
}

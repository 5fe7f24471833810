package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// sageMakerFlags select the endpoint the sagemaker-* transports measure.
type sageMakerFlags struct {
	endpoint, variant, container string
	region, profile, endpointURL string
	instanceType, imageDigest    string
}

func addSageMakerFlags(fl *pflag.FlagSet, f *sageMakerFlags) {
	fl.StringVar(&f.endpoint, "endpoint-name", "", "sagemaker-*: the endpoint to measure")
	fl.StringVar(&f.variant, "variant", "", "sagemaker-*: production variant every request targets (TargetVariant)")
	fl.StringVar(&f.container, "target-container", "", "sagemaker-stream: TargetContainerHostname of a multi-container endpoint")
	fl.StringVar(&f.region, "region", "", "sagemaker-*: AWS region (default: the SDK's chain, AWS_REGION, the profile)")
	fl.StringVar(&f.profile, "profile", "", "sagemaker-*: named profile of the shared AWS config files")
	fl.StringVar(&f.endpointURL, "aws-endpoint-url", "", "sagemaker-*: the runtime API's address instead of AWS's: kokoro emulate, or a VPC endpoint")
	fl.StringVar(&f.instanceType, "instance-type", "", "sagemaker-*: the endpoint's instance type, for the artifact's fingerprint (e.g. ml.g5.xlarge)")
	fl.StringVar(&f.imageDigest, "image-digest", "", "sagemaker-*: the container image digest, for the artifact's fingerprint (sha256:…)")
}

func isSageMakerTransport(name string) bool { return strings.HasPrefix(name, "sagemaker-") }

// open loads the AWS configuration, builds the runtime clients and says what the artifact
// measured. Nothing here calls AWS: the preflight does, before the ladder.
func (f sageMakerFlags) open(ctx context.Context, name string, maxConns int) (*transport.SageMaker, artifact.Target, func(), error) {
	if f.endpoint == "" {
		return nil, artifact.Target{}, nil, fmt.Errorf("transport %s needs --endpoint-name", name)
	}
	cfg, err := sagemaker.LoadConfig(ctx, sagemaker.Options{Region: f.region, Profile: f.profile})
	if err != nil {
		return nil, artifact.Target{}, nil, err
	}
	o := sagemaker.RuntimeOptions{
		Endpoint:    sagemaker.Endpoint{Name: f.endpoint, Variant: f.variant, TargetContainer: f.container},
		EndpointURL: f.endpointURL,
		MaxConns:    maxConns,
	}
	target := artifact.Target{
		Kind: artifact.TargetSageMaker, Endpoint: f.endpoint, Variant: f.variant, Region: cfg.Region,
		InstanceType: f.instanceType, ImageDigest: f.imageDigest, BaseURL: f.endpointURL,
	}
	sm := &transport.SageMaker{}
	closeFn := func() {}
	switch name {
	case artifact.TransportSageMakerStream:
		c, err := sagemaker.NewStreamClient(cfg, o)
		if err != nil {
			return nil, target, nil, err
		}
		sm.InvokeStream = c.InvokeStream
	case artifact.TransportSageMakerBidi:
		c, err := sagemaker.NewBidiClient(cfg, o)
		if err != nil {
			return nil, target, nil, err
		}
		sm.OpenBidi = func(ctx context.Context) (transport.BidiSession, error) {
			s, err := c.Open(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		}
		closeFn = c.CloseIdleConnections
	}
	return sm, target, closeFn, nil
}

// describe names the target for the dry run and the progress line.
func (f sageMakerFlags) describe() string {
	s := "SageMaker endpoint " + f.endpoint
	if f.variant != "" {
		s += " variant " + f.variant
	}
	if f.endpointURL != "" {
		s += " at " + f.endpointURL
	}
	return s
}

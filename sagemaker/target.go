package sagemaker

import (
	"context"
	"strings"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Status reads the endpoint's status and per-variant instance counts (one DescribeEndpoint).
func (c *Control) Status(ctx context.Context, endpoint string) (*EndpointInfo, error) {
	return c.endpointStatus(ctx, endpoint)
}

// EndpointTarget describes what a measurement against the endpoint measures, for the
// artifact's fingerprint: instance type, image digest and container environment of the
// variant. transport and model name the artifact; the digest is the one SageMaker resolved
// at deployment, else the image reference's own when it is pinned by digest.
func (c *Control) EndpointTarget(ctx context.Context, endpoint, variant, transport, model string) (artifact.Target, error) {
	info, err := c.Describe(ctx, endpoint)
	if err != nil {
		return artifact.Target{}, err
	}
	v, ok := info.Variant(variant)
	if !ok {
		return artifact.Target{}, noVariant(info, variant)
	}
	digest := ""
	for _, ref := range []string{v.ResolvedImage, v.Image} {
		if i := strings.LastIndex(ref, "@sha256:"); i >= 0 {
			digest = ref[i+1:]
			break
		}
	}
	return artifact.Target{
		Kind: artifact.TargetSageMaker, Transport: transport, Model: model,
		Endpoint: endpoint, Variant: variant, Region: c.Region,
		InstanceType: v.InstanceType, ImageDigest: digest, ContainerEnv: v.Env,
	}, nil
}

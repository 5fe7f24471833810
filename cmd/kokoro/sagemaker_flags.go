package main

import (
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// addSageMakerFlags registers the flags that select the endpoint the sagemaker-* transports
// measure.
func addSageMakerFlags(fl *pflag.FlagSet, f *workflow.SageMaker) {
	fl.StringVar(&f.Endpoint, "endpoint-name", f.Endpoint, "sagemaker-*: the endpoint to measure")
	fl.StringVar(&f.Variant, "variant", f.Variant, "sagemaker-*: production variant every request targets (TargetVariant)")
	addRuntimeFlags(fl, &f.Runtime)
	addAWSFlags(fl, &f.AWS, "sagemaker-*: ")
	fl.BoolVar(&f.Freeze, "freeze", f.Freeze, "sagemaker-*: suspend autoscaling and pin one instance for the ladder (restored on exit, or by kokoro thaw), watch the capacity, read CloudWatch's concurrency per rung and the fingerprint from the endpoint; --freeze=false measures through the runtime API alone (kokoro emulate without a control plane)")
	bindScoped(fl, &f.StateDir, "state-dir", "sagemaker-*: ")
	fl.StringVar(&f.InstanceType, "instance-type", f.InstanceType, "sagemaker-*: the endpoint's instance type for the artifact's fingerprint, when the endpoint is not read (--freeze=false)")
	fl.StringVar(&f.ImageDigest, "image-digest", f.ImageDigest, "sagemaker-*: the container image digest for the fingerprint (sha256:…), when the endpoint does not report one")
}

// addProbeTargetFlags adds the flags a probe needs beyond the command's own: where the runtime
// API is and which container of a multi-container endpoint to reach.
func addProbeTargetFlags(fl *pflag.FlagSet, p *workflow.ProbeTarget) {
	fl.StringVar(&p.URL, "url", "", "base URL for the http and ws transports")
	addRuntimeFlags(fl, &p.Runtime)
}

package main

import (
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/workflow"
)

// addAWSFlags registers --region, --profile, --aws-endpoint-url and --aws-timeout. scope
// starts their help where only some of the command's modes call AWS ("sagemaker-*: ").
func addAWSFlags(fl *pflag.FlagSet, a *workflow.AWS, scope string) {
	fl.StringVar(&a.Region, "region", "", scope+"AWS region (default: AWS_REGION or the profile's)")
	fl.StringVar(&a.Profile, "profile", "", scope+"named profile of the AWS config files (default: AWS_PROFILE)")
	fl.StringVar(&a.EndpointURL, "aws-endpoint-url", "", scope+"send every AWS call to this address (a moto server or the local emulator) instead of AWS")
	def := awsconf.DefaultAnswerTimeout
	if v, err := time.ParseDuration(os.Getenv("KOKORO_AWS_TIMEOUT")); err == nil && v > 0 {
		def = v
	}
	fl.DurationVar(&a.Timeout, "aws-timeout", def, scope+"longest wait for an AWS call's answer (and 1.5× that for the bench's preflight); an address that is silent longer fails with a line naming it (env KOKORO_AWS_TIMEOUT)")
}

// addRuntimeFlags registers where the SageMaker runtime API is and which container a request
// reaches.
func addRuntimeFlags(fl *pflag.FlagSet, r *workflow.Runtime) {
	fl.StringVar(&r.URL, "runtime-endpoint-url", "", "sagemaker-*: the runtime API's address when it differs from --aws-endpoint-url (kokoro emulate, a VPC endpoint)")
	fl.StringVar(&r.Container, "target-container", "", "sagemaker-stream: TargetContainerHostname of a multi-container endpoint")
}

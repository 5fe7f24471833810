package main

import (
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// addAWSFlags registers --region, --profile, --aws-endpoint-url and --aws-timeout. scope
// starts their help where only some of the command's modes call AWS ("sagemaker-*: ").
func addAWSFlags(fl *pflag.FlagSet, a *workflow.AWS, scope string) {
	fl.StringVar(&a.Region, "region", "", scope+"AWS region (default: AWS_REGION or the profile's)")
	fl.StringVar(&a.Profile, "profile", "", scope+"named profile of the AWS config files (default: AWS_PROFILE)")
	fl.StringVar(&a.EndpointURL, "aws-endpoint-url", "", scope+"send every AWS call to this address (a moto server or the local emulator) instead of AWS")
	s := workflow.LookupSetting("aws-timeout")
	def := s.Default.(time.Duration)
	if v, err := time.ParseDuration(os.Getenv(s.Env)); err == nil && v > 0 {
		def = v
	}
	fl.DurationVar(&a.Timeout, s.Flag, def, scope+s.Usage())
}

// addRuntimeFlags registers where the SageMaker runtime API is and which container a request
// reaches.
func addRuntimeFlags(fl *pflag.FlagSet, r *workflow.Runtime) {
	fl.StringVar(&r.URL, "runtime-endpoint-url", "", "sagemaker-*: the runtime API's address when it differs from --aws-endpoint-url (kokoro emulate, a VPC endpoint)")
	fl.StringVar(&r.Container, "target-container", "", "sagemaker-stream: TargetContainerHostname of a multi-container endpoint")
}

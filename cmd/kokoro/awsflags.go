package main

import (
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// addAWSFlags registers --region, --profile, --aws-endpoint-url and --aws-timeout. scope
// starts their help where only some of the command's modes call AWS ("sagemaker-*: ").
func addAWSFlags(fl *pflag.FlagSet, a *workflow.AWS, scope string) {
	fl.StringVar(&a.Region, "region", "", scope+"AWS region (default: AWS_REGION or the profile's)")
	fl.StringVar(&a.Profile, "profile", "", scope+"named profile of the AWS config files (default: AWS_PROFILE)")
	fl.StringVar(&a.EndpointURL, "aws-endpoint-url", "", scope+"send every AWS call to this address (a moto server or the local emulator) instead of AWS")
	bindScoped(fl, &a.Timeout, "aws-timeout", scope)
}

// addRuntimeFlags registers where the SageMaker runtime API is and which container a request
// reaches.
func addRuntimeFlags(fl *pflag.FlagSet, r *workflow.Runtime) {
	fl.StringVar(&r.URL, "runtime-endpoint-url", "", "sagemaker-*: the runtime API's address when it differs from --aws-endpoint-url (kokoro emulate, a VPC endpoint)")
	fl.StringVar(&r.Container, "target-container", "", "sagemaker-stream: TargetContainerHostname of a multi-container endpoint")
}

// bindScoped binds the table row flag (workflow.Bind) with its help started by scope, for a
// flag only some of the command's modes read.
func bindScoped(fl *pflag.FlagSet, p any, flag, scope string) {
	workflow.Bind(fl, p, flag)
	fl.Lookup(flag).Usage = scope + fl.Lookup(flag).Usage
}

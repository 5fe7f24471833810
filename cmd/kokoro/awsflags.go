package main

import (
	"context"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// awsFlags select the account, the region, the deadlines and (for moto or the local emulator)
// the API address of every command that calls AWS.
type awsFlags struct {
	region, profile, endpointURL string
	timeout                      time.Duration
}

// add registers --region, --profile, --aws-endpoint-url and --aws-timeout. scope starts their
// help where only some of the command's modes call AWS ("sagemaker-*: ").
func (a *awsFlags) add(fl *pflag.FlagSet, scope string) {
	fl.StringVar(&a.region, "region", "", scope+"AWS region (default: AWS_REGION or the profile's)")
	fl.StringVar(&a.profile, "profile", "", scope+"named profile of the AWS config files (default: AWS_PROFILE)")
	fl.StringVar(&a.endpointURL, "aws-endpoint-url", "", scope+"send every AWS call to this address (a moto server or the local emulator) instead of AWS")
	def := awsconf.DefaultAnswerTimeout
	if v, err := time.ParseDuration(os.Getenv("KOKORO_AWS_TIMEOUT")); err == nil && v > 0 {
		def = v
	}
	fl.DurationVar(&a.timeout, "aws-timeout", def, scope+"longest wait for an AWS call's answer (and 1.5× that for the bench's preflight); an address that is silent longer fails with a line naming it (env KOKORO_AWS_TIMEOUT)")
}

// deadlines are the AWS calls' deadlines from --aws-timeout.
func (a awsFlags) deadlines() awsconf.Deadlines { return awsconf.Deadlines{Answer: a.timeout} }

func (a awsFlags) options() awsconf.Options {
	return awsconf.Options{Region: a.region, Profile: a.profile, EndpointURL: a.endpointURL, Deadlines: a.deadlines()}
}

// control resolves the configuration and the credentials once, so that a command without
// credentials fails before it calls anything, with a message that says how to provide them.
func (a awsFlags) control(ctx context.Context) (*sagemaker.Control, error) {
	return controlFor(ctx, a.options())
}

func controlFor(ctx context.Context, o awsconf.Options) (*sagemaker.Control, error) {
	cfg, err := awsconf.LoadConfig(ctx, o)
	if err != nil {
		return nil, err
	}
	if err := awsconf.CheckCredentials(ctx, cfg); err != nil {
		return nil, err
	}
	c := sagemaker.NewControl(cfg, awsconf.Retry{})
	c.Where, c.Deadlines = o.Where(), o.Deadlines
	return c, nil
}

// runtimeFlags say where the SageMaker runtime API is, when not at --aws-endpoint-url, and
// which container of a multi-container endpoint a request reaches.
type runtimeFlags struct {
	url, container string
}

func (r *runtimeFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&r.url, "runtime-endpoint-url", "", "sagemaker-*: the runtime API's address when it differs from --aws-endpoint-url (kokoro emulate, a VPC endpoint)")
	fl.StringVar(&r.container, "target-container", "", "sagemaker-stream: TargetContainerHostname of a multi-container endpoint")
}

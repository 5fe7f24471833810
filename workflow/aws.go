package workflow

import (
	"context"
	"time"

	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// AWS selects the account, the region, the deadlines and (for moto or the local emulator) the
// API address of every job that calls AWS.
type AWS struct {
	Region, Profile, EndpointURL string
	// Timeout is the longest wait for an AWS call's answer (awsconf.Deadlines.Answer).
	Timeout time.Duration
}

// Deadlines are the AWS calls' deadlines from Timeout.
func (a AWS) Deadlines() awsconf.Deadlines { return awsconf.Deadlines{Answer: a.Timeout} }

// Options are the settings awsconf loads a configuration from.
func (a AWS) Options() awsconf.Options {
	return awsconf.Options{Region: a.Region, Profile: a.Profile, EndpointURL: a.EndpointURL, Deadlines: a.Deadlines()}
}

// Control resolves the configuration and the credentials once, so that a job without
// credentials fails before it calls anything, with a message that says how to provide them.
func (a AWS) Control(ctx context.Context) (*sagemaker.Control, error) {
	return controlFor(ctx, a.Options())
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

// Runtime says where the SageMaker runtime API is, when not at AWS.EndpointURL, and which
// container of a multi-container endpoint a request reaches.
type Runtime struct {
	URL, Container string
}

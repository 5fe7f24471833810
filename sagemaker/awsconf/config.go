package awsconf

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch/schemas"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/aws/smithy-go/transport/http/protocol/awsquery"
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
	// EndpointFlag names the setting EndpointURL came from, for messages
	// ("--aws-endpoint-url"); empty: that flag.
	EndpointFlag string
	// Deadlines bound every call of the clients built from the configuration.
	Deadlines Deadlines
}

// Where is the address the options send calls to, for messages.
func (o Options) Where() Where {
	flag := o.EndpointFlag
	if flag == "" {
		flag = "--aws-endpoint-url"
	}
	return Where{URL: o.EndpointURL, Flag: flag}
}

// LoadConfig resolves the SDK configuration once for every client a command builds. A missing
// region is an error here rather than at the first call, where the SDK's message is obscure.
// Its HTTP client carries o.Deadlines: no call waits longer than they allow to connect or for
// an answer.
func LoadConfig(ctx context.Context, o Options) (aws.Config, error) {
	opts := []func(*config.LoadOptions) error{config.WithHTTPClient(o.Deadlines.HTTPClient(nil, true))}
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
		return aws.Config{}, &Error{Kind: ErrRegion, Err: errors.New("no region"), Msg: "no AWS region: pass --region, set AWS_REGION, or name one in the profile's config"}
	}
	return cfg, nil
}

// CloudWatchProtocol is the wire protocol kokoro's CloudWatch clients speak: awsQuery. AWS
// serves it beside Smithy RPC v2 CBOR, the default of newer SDKs, which moto (the tests' AWS)
// does not speak; production and tests use this one.
func CloudWatchProtocol() smithyhttp.ClientProtocol {
	return awsquery.New(schemas.GraniteServiceVersion20100801)
}

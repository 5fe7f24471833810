package smruntime

import (
	"bytes"
	"io"

	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemakerruntime"
	"github.com/aws/aws-sdk-go-v2/service/sagemakerruntime/schemas"
	"github.com/aws/aws-sdk-go-v2/service/sagemakerruntime/types"
	"github.com/aws/smithy-go/transport/http/protocol/restjson1"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// Endpoint says where an invocation goes.
type Endpoint struct {
	Name string
	// Variant is TargetVariant: the production variant to invoke instead of the endpoint's
	// weighted choice. The bench names it so that every request reaches the instance it pins.
	Variant string
	// TargetContainer is TargetContainerHostname, for multi-container endpoints with direct
	// invocation (InvokeEndpoint and InvokeEndpointWithResponseStream only).
	TargetContainer string
}

// Options configure the runtime clients.
type Options struct {
	Endpoint
	// EndpointURL overrides the service's address: `kokoro emulate`, or a VPC interface
	// endpoint. Empty: the SDK's endpoint rules for the region (and, for the bidirectional
	// stream, the SageMaker Runtime HTTP2 service's own host and port).
	EndpointURL string
	// MaxConns sizes the connection pool: one connection per worker of the ladder.
	MaxConns int
	// EndpointFlag names the setting EndpointURL came from, for messages; empty:
	// "--aws-endpoint-url".
	EndpointFlag string
	// Deadlines bound connecting and, for a bidirectional session, the service's answer. An
	// invocation's own length is bounded by its context (the bench's request timeout).
	Deadlines awsconf.Deadlines
}

// where is the runtime's address for messages.
func (o Options) where() awsconf.Where {
	return awsconf.Options{EndpointURL: o.EndpointURL, EndpointFlag: o.EndpointFlag}.Where()
}

// Content types of the invocation body and of the audio the bench asks for.
const (
	requestContentType = "application/json"
	acceptAudio        = "audio/wav"
)

// StreamClient invokes an endpoint through InvokeEndpointWithResponseStream (and
// InvokeEndpoint) with the SDK's sagemakerruntime client. It never retries: every call the
// bench makes is one measurement, and a retried request would hide the refusal it measures.
type StreamClient struct {
	c         *sagemakerruntime.Client
	ep        Endpoint
	region    string
	where     awsconf.Where
	deadlines awsconf.Deadlines
}

// NewStreamClient builds the client from an SDK configuration (LoadConfig).
func NewStreamClient(cfg aws.Config, o Options) (*StreamClient, error) {
	if o.Name == "" {
		return nil, errors.New("no endpoint name: pass --endpoint-name")
	}
	hc := o.Deadlines.HTTPClient(cfg.HTTPClient, false).WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConns = max(100, o.MaxConns)
		t.MaxIdleConnsPerHost = max(2, o.MaxConns)
		t.DisableCompression = true // audio does not compress, and gzip would buffer the stream
	})
	c := sagemakerruntime.NewFromConfig(cfg, func(so *sagemakerruntime.Options) {
		so.Retryer = aws.NopRetryer{}
		so.RetryMaxAttempts = 1
		so.HTTPClient = ownBody{hc}
		if o.EndpointURL != "" {
			so.BaseEndpoint = aws.String(o.EndpointURL)
		}
	})
	return &StreamClient{c: c, ep: o.Endpoint, region: cfg.Region, where: o.where(), deadlines: o.Deadlines}, nil
}

// fail turns an error of the SDK into what the bench sees: the service's verdict as an
// *InvokeError, and a failure to call at all (no credentials, nothing listening, silence) as
// the same one-line *Error the control plane gives.
func (c *StreamClient) fail(err error, midStream bool) error {
	err = fromSDK(err, midStream)
	var ie *InvokeError
	if err == nil || errors.As(err, &ie) {
		return err
	}
	return awsconf.ExplainAt(err, c.region, c.where, c.deadlines)
}

func (c *StreamClient) target() (variant, container *string) {
	if c.ep.Variant != "" {
		variant = aws.String(c.ep.Variant)
	}
	if c.ep.TargetContainer != "" {
		container = aws.String(c.ep.TargetContainer)
	}
	return variant, container
}

// InvokeStream sends body (JSON) through InvokeEndpointWithResponseStream and calls onPart
// with the bytes of each PayloadPart as it arrives. It returns nil when the stream ended
// cleanly, an *InvokeError when the service refused the call or sent an error event, and
// any other error when the connection failed.
func (c *StreamClient) InvokeStream(ctx context.Context, body []byte, onPart func([]byte)) error {
	variant, container := c.target()
	out, err := c.c.InvokeEndpointWithResponseStream(ctx, &sagemakerruntime.InvokeEndpointWithResponseStreamInput{
		EndpointName:            aws.String(c.ep.Name),
		Body:                    body,
		ContentType:             aws.String(requestContentType),
		Accept:                  aws.String(acceptAudio),
		TargetVariant:           variant,
		TargetContainerHostname: container,
	}, ownProtocol)
	if err != nil {
		return c.fail(err, false)
	}
	stream := out.GetStream()
	defer stream.Close()
	for ev := range stream.Events() {
		switch v := ev.(type) {
		case *types.ResponseStreamMemberPayloadPart:
			if len(v.Value.Bytes) > 0 {
				onPart(v.Value.Bytes)
			}
		default:
			return fmt.Errorf("unknown response stream event %T", ev)
		}
	}
	if err := stream.Err(); err != nil {
		return c.fail(err, true)
	}
	if ctx.Err() != nil {
		// The SDK's reader ends its channel quietly when the body read fails on a cancelled
		// context; a stream cut short by the caller did not end cleanly.
		return ctx.Err()
	}
	return nil
}

// ownProtocol gives a call its own protocol instance. The client's restJson1 protocol keeps one
// event-stream decoder and one payload buffer for every stream it reads (smithy-go v1.28.9,
// internal/eventstream.Codec), so concurrent response streams on one client race on them
// (the race detector sees it) and may overwrite each other's parts.
func ownProtocol(o *sagemakerruntime.Options) {
	o.Protocol = restjson1.New(schemas.AmazonSageMakerRuntime)
}

// Invoke sends body through InvokeEndpoint and returns the whole response body.
func (c *StreamClient) Invoke(ctx context.Context, body []byte) ([]byte, error) {
	variant, container := c.target()
	out, err := c.c.InvokeEndpoint(ctx, &sagemakerruntime.InvokeEndpointInput{
		EndpointName:            aws.String(c.ep.Name),
		Body:                    body,
		ContentType:             aws.String(requestContentType),
		Accept:                  aws.String(acceptAudio),
		TargetVariant:           variant,
		TargetContainerHostname: container,
	})
	if err != nil {
		return nil, c.fail(err, false)
	}
	return out.Body, nil
}

// ownBody gives the transport a request body of its own. The SDK closes the body it built
// once the operation has its response, and a server may answer as soon as it has the
// Content-Length bytes, before the transport's writer saw the body's end: the writer then
// fails reading a closed body and tears the connection down under the response stream it
// already returned ("use of closed network connection" moments into the stream). A copy in
// memory, which the SDK cannot close, removes the race; invocation bodies are small.
type ownBody struct{ c sagemakerruntime.HTTPClient }

func (o ownBody) Do(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
		r.ContentLength = int64(len(b))
	}
	return o.c.Do(r)
}

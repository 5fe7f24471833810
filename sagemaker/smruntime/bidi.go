package smruntime

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// InvokeEndpointWithBidirectionalStream belongs to a separate service, "SageMaker Runtime
// HTTP2" (model sagemaker-runtime-http2-2025-10-01, restJson1 over h2 only), for which the Go
// SDK has no client. This one follows that model and its endpoint rules:
//
//   - POST https://runtime.sagemaker.{region}.{dnsSuffix}:8443/endpoints/{EndpointName}/invocations-bidirectional-stream
//   - headers X-Amzn-SageMaker-Target-Variant, X-Amzn-SageMaker-Model-Invocation-Path,
//     X-Amzn-SageMaker-Model-Query-String; response header X-Amzn-Invoked-Production-Variant
//   - SigV4 with signing name "sagemaker", the payload hash STREAMING-AWS4-HMAC-SHA256-EVENTS,
//     and every request event signed in its own frame (eventstream.go)
//   - request events: PayloadPart (Bytes as payload; DataType, CompletionState, P as headers);
//     response events: PayloadPart, ModelStreamError, InternalStreamFailure
//   - error responses: InputValidationError 400, ModelError 424, InternalServerError 500,
//     ServiceUnavailableError 503.
//
// HTTP/2 comes from net/http, which carries golang.org/x/net/http2 inside: over TLS with ALPN
// for https URLs, and with prior knowledge (h2c) for http URLs such as `kokoro emulate`.

const (
	bidiService      = "sagemaker"
	bidiPath         = "/invocations-bidirectional-stream"
	streamingPayload = "STREAMING-AWS4-HMAC-SHA256-EVENTS"

	headerTargetVariant   = "X-Amzn-SageMaker-Target-Variant"
	headerInvocationPath  = "X-Amzn-SageMaker-Model-Invocation-Path"
	headerQueryString     = "X-Amzn-SageMaker-Model-Query-String"
	headerInvokedVariant  = "X-Amzn-Invoked-Production-Variant"
	headerContentSHA256   = "X-Amz-Content-Sha256"
	bidiOpenTimeout       = 30 * time.Second
	bidiMaxPendingMessage = 16 << 20
)

// BidiClient opens InvokeEndpointWithBidirectionalStream sessions.
type BidiClient struct {
	creds     aws.CredentialsProvider
	region    string
	url       string
	where     awsconf.Where
	deadlines awsconf.Deadlines
	ep        Endpoint
	hc        *http.Client
	signer    *v4.Signer
	// InvocationPath and QueryString are ModelInvocationPath and ModelQueryString: where
	// SageMaker connects on the container (default: its /invocations-bidirectional-stream).
	InvocationPath, QueryString string
}

// BidiURL is the service's address for a region by its endpoint rules (aws partition;
// China regions use the amazonaws.com.cn suffix).
func BidiURL(region string) string {
	suffix := "amazonaws.com"
	if strings.HasPrefix(region, "cn-") {
		suffix = "amazonaws.com.cn"
	}
	return fmt.Sprintf("https://runtime.sagemaker.%s.%s:8443", region, suffix)
}

// NewBidiClient builds a client from an SDK configuration (LoadConfig).
func NewBidiClient(cfg aws.Config, o Options) (*BidiClient, error) {
	if o.Name == "" {
		return nil, errors.New("no endpoint name: pass --endpoint-name")
	}
	if o.TargetContainer != "" {
		return nil, errors.New("the bidirectional stream has no TargetContainerHostname; drop --target-container")
	}
	base := o.EndpointURL
	if base == "" {
		base = BidiURL(cfg.Region)
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("endpoint url %q: %w", base, err)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	d := o.Deadlines.WithDefaults()
	tr.DialContext = (&net.Dialer{Timeout: d.Connect, KeepAlive: 30 * time.Second}).DialContext
	tr.TLSHandshakeTimeout = d.Connect
	// The CA bundle of the SDK configuration (AWS_CA_BUNDLE, the profile's ca_bundle) applies
	// here too: `kokoro emulate --tls` prints its CA for that setting.
	if b, ok := cfg.HTTPClient.(*awshttp.BuildableClient); ok {
		if tc := b.GetTransport().TLSClientConfig; tc != nil && tc.RootCAs != nil {
			tr.TLSClientConfig = &tls.Config{RootCAs: tc.RootCAs, MinVersion: tls.VersionTLS12}
		}
	}
	var p http.Protocols
	switch u.Scheme {
	case "https":
		p.SetHTTP2(true)
	case "http":
		p.SetUnencryptedHTTP2(true)
	default:
		return nil, fmt.Errorf("endpoint url %q: scheme must be https (or http for h2c)", base)
	}
	tr.Protocols = &p
	tr.MaxIdleConnsPerHost = max(2, o.MaxConns)
	tr.DisableCompression = true
	u.Path = strings.TrimSuffix(u.Path, "/") + "/endpoints/" + url.PathEscape(o.Name) + bidiPath
	where := o.where()
	if where.URL == "" {
		where.URL = base
	}
	return &BidiClient{
		creds: cfg.Credentials, region: cfg.Region, url: u.String(), ep: o.Endpoint,
		where: where, deadlines: o.Deadlines,
		hc: &http.Client{Transport: tr}, signer: v4.NewSigner(),
	}, nil
}

// CloseIdleConnections closes the pooled HTTP/2 connections.
func (c *BidiClient) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// Open starts a session. The HTTP exchange runs until Close: request events go out as they
// are sent, response events come back through Recv. The service's answer to the request
// itself (200, or an error response such as ModelError) arrives with the first Recv, so a
// service that waits for the first event before answering is served as well as one that
// answers at once.
func (c *BidiClient) Open(ctx context.Context) (*BidiStream, error) {
	if c.creds == nil {
		return nil, awsconf.NoCredentials(errors.New("no credentials provider"))
	}
	creds, err := c.creds.Retrieve(ctx)
	if err != nil {
		return nil, awsconf.NoCredentials(err)
	}
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	pr, pw := io.Pipe()
	req, err := http.NewRequestWithContext(sctx, http.MethodPost, c.url, pr)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.ContentLength = -1
	req.Header.Set("Content-Type", EventStreamContentType)
	req.Header.Set(headerContentSHA256, streamingPayload)
	if c.ep.Variant != "" {
		req.Header.Set(headerTargetVariant, c.ep.Variant)
	}
	if c.InvocationPath != "" {
		req.Header.Set(headerInvocationPath, c.InvocationPath)
	}
	if c.QueryString != "" {
		req.Header.Set(headerQueryString, c.QueryString)
	}
	now := time.Now().UTC()
	if err := c.signer.SignHTTP(ctx, creds, req, streamingPayload, bidiService, c.region, now); err != nil {
		cancel()
		return nil, fmt.Errorf("sign request: %w", err)
	}
	seed, err := v4.GetSignedRequestSignature(req)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("request signature: %w", err)
	}
	s := &BidiStream{
		pw:     pw,
		enc:    eventstream.NewEncoder(),
		signer: streamSigner{v4.NewStreamSigner(creds, bidiService, c.region, seed)},
		cancel: cancel,
		respCh: make(chan struct{}),
	}
	go func() {
		defer close(s.respCh)
		// The service should answer within moments; a session that never gets its response
		// headers must not pin a worker forever, nor outlive the caller's deadline (the
		// preflight's).
		wait := bidiOpenTimeout
		if dl, ok := ctx.Deadline(); ok {
			wait = min(wait, time.Until(dl))
		}
		var timedOut atomic.Bool
		t := time.AfterFunc(wait, func() { timedOut.Store(true); cancel() })
		resp, err := c.hc.Do(req)
		t.Stop()
		if err != nil {
			switch {
			case timedOut.Load():
				s.respErr = awsconf.Silent(c.where, wait, err)
			default:
				if e := awsconf.ExplainNetwork(err, c.where, c.deadlines); e != nil {
					s.respErr = e
				} else {
					s.respErr = fmt.Errorf("invoke bidirectional stream: %w", err)
				}
			}
			pr.CloseWithError(s.respErr)
			return
		}
		if resp.StatusCode != http.StatusOK {
			s.respErr = errorResponse(resp)
			resp.Body.Close()
			pr.CloseWithError(s.respErr)
			return
		}
		s.body = resp.Body
		s.events = NewResponseReader(resp.Body)
		s.Variant = resp.Header.Get(headerInvokedVariant)
	}()
	return s, nil
}

// streamSigner adapts v4.StreamSigner to the frame signer.
type streamSigner struct{ s *v4.StreamSigner }

func (s streamSigner) GetSignature(headers, payload []byte, at time.Time) ([]byte, error) {
	return s.s.GetSignature(context.Background(), headers, payload, at)
}

// BidiStream is one open session. Send and Recv may run concurrently with each other; each on
// its own is for one goroutine at a time.
type BidiStream struct {
	// Variant is X-Amzn-Invoked-Production-Variant, known after the first Recv.
	Variant string

	sendMu    sync.Mutex
	pw        *io.PipeWriter
	enc       *eventstream.Encoder
	signer    frameSigner
	sendEnded bool

	respCh  chan struct{} // closed once the response (or its failure) is known
	respErr error
	body    io.ReadCloser
	events  *ResponseReader
	pending []byte // UTF8 parts of a message still PARTIAL

	cancel    context.CancelFunc
	closeOnce sync.Once
}

// Send sends one PayloadPart: DataType UTF8 when text, BINARY otherwise, CompletionState
// COMPLETE. It blocks until the transport took the frame; a cancelled ctx ends the session.
func (s *BidiStream) Send(ctx context.Context, payload []byte, text bool) error {
	dt := DataTypeBinary
	if text {
		dt = DataTypeUTF8
	}
	var ev bytes.Buffer
	if err := s.enc.Encode(&ev, partMessage(Part{Bytes: payload, DataType: dt, CompletionState: CompletePart})); err != nil {
		return fmt.Errorf("encode payload part: %w", err)
	}
	return s.writeFrame(ctx, ev.Bytes())
}

// CloseSend ends the request stream with the signed empty frame; the session then drains.
func (s *BidiStream) CloseSend() error {
	return s.writeFrame(context.Background(), nil)
}

func (s *BidiStream) writeFrame(ctx context.Context, event []byte) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	if s.sendEnded {
		return errors.New("request stream already ended")
	}
	frame, err := SignedFrame(s.enc, s.signer, event, time.Now().UTC())
	if err != nil {
		return err
	}
	if event == nil {
		s.sendEnded = true
	}
	stop := context.AfterFunc(ctx, func() { s.pw.CloseWithError(ctx.Err()) })
	defer stop()
	if _, err := s.pw.Write(frame); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return s.sendErr(err)
	}
	if event == nil {
		return s.pw.Close()
	}
	return nil
}

// sendErr prefers the service's verdict: a write fails because the exchange ended (the
// transport closes the request body once the response is complete, an error response
// included), and the reason is in the response, which is at most moments away then.
func (s *BidiStream) sendErr(err error) error {
	<-s.respCh
	if s.respErr != nil {
		return s.respErr
	}
	return fmt.Errorf("send payload part: %w", err)
}

// Recv returns the next message from the endpoint: its bytes and whether it is text (DataType
// UTF8). Text split over PARTIAL parts is joined; binary parts are returned as they come,
// since audio needs no joining. It returns io.EOF when the endpoint ended the stream, an
// *InvokeError for an error response or event, and other errors for a broken connection.
func (s *BidiStream) Recv() ([]byte, bool, error) {
	<-s.respCh
	if s.respErr != nil {
		return nil, false, s.respErr
	}
	for {
		p, err := s.events.Next()
		if err != nil {
			var se *StreamException
			if errors.As(err, &se) {
				return nil, false, &InvokeError{Code: se.Type, StreamCode: se.ErrorCode, Message: se.Message, MidStream: true, err: err}
			}
			if errors.Is(err, io.EOF) && len(s.pending) > 0 {
				return nil, false, fmt.Errorf("stream ended inside a partial text message: %w", io.ErrUnexpectedEOF)
			}
			return nil, false, err
		}
		if !p.Text() {
			return p.Bytes, false, nil
		}
		if len(s.pending)+len(p.Bytes) > bidiMaxPendingMessage {
			return nil, false, fmt.Errorf("partial text message over %d bytes", bidiMaxPendingMessage)
		}
		s.pending = append(s.pending, p.Bytes...)
		if p.Complete() {
			msg := s.pending
			s.pending = nil
			return msg, true, nil
		}
	}
}

// Close ends the session at once: the request stream, the response and the connection's
// stream. It is safe to call more than once and concurrently with Send and Recv, which it
// unblocks.
func (s *BidiStream) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		s.pw.CloseWithError(errors.New("session closed"))
		<-s.respCh
		if s.body != nil {
			s.body.Close()
		}
	})
	return nil
}

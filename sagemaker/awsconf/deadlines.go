package awsconf

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// Deadlines bound every AWS call, so that an address where nothing listens, or where a server
// takes the connection and never answers, fails in seconds with a line that says which.
type Deadlines struct {
	// Connect bounds the TCP connect and the TLS handshake; 0 means DefaultConnectTimeout.
	Connect time.Duration
	// Answer bounds the wait for a response: a control-plane call's headers, a bidirectional
	// session's answer, the preflight's first audio (with PreflightSlack); 0 means
	// DefaultAnswerTimeout.
	Answer time.Duration
}

// Defaults of Deadlines. AWS answers a control-plane call in well under a second; ten seconds
// of silence is a wrong address or a stuck server, not a slow one.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultAnswerTimeout  = 10 * time.Second
)

// WithDefaults fills in the zero fields.
func (d Deadlines) WithDefaults() Deadlines {
	if d.Connect <= 0 {
		d.Connect = DefaultConnectTimeout
	}
	if d.Answer <= 0 {
		d.Answer = DefaultAnswerTimeout
	}
	d.Connect = min(d.Connect, d.Answer)
	return d
}

// Preflight is the deadline of a bench's preflight: one short utterance on an idle endpoint,
// its answer plus half again for the synthesis.
func (d Deadlines) Preflight() time.Duration { return d.WithDefaults().Answer * 3 / 2 }

// HTTPClient returns base (or a new client) with the deadlines set. answerHeaders also bounds
// the wait for response headers, which a response stream inside a measurement must not have:
// its headers come with the first audio, which a loaded endpoint may take longer to send.
func (d Deadlines) HTTPClient(base any, answerHeaders bool) *awshttp.BuildableClient {
	d = d.WithDefaults()
	b, ok := base.(*awshttp.BuildableClient)
	if !ok || b == nil {
		b = awshttp.NewBuildableClient()
	}
	b = b.WithDialerOptions(func(dl *net.Dialer) { dl.Timeout = d.Connect })
	return b.WithTransportOptions(func(t *http.Transport) {
		t.TLSHandshakeTimeout = d.Connect
		t.ResponseHeaderTimeout = 0
		if answerHeaders {
			t.ResponseHeaderTimeout = d.Answer
		}
	})
}

// Where names the API address a client talks to, for messages: the URL that overrides AWS's
// own (empty: AWS) and the flag or setting that gave it.
type Where struct {
	URL  string
	Flag string // "--aws-endpoint-url", "--runtime-endpoint-url"
}

// ErrUnreachable is the kind of a call that found nothing listening, or no answer in time.
var ErrUnreachable = errors.New("aws endpoint unreachable")

// Unreachable reports a failure to reach the address at all: refused, no route, or no answer
// within a deadline. Retrying these only multiplies the wait.
func Unreachable(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	// A deadline of the transport's (dial, TLS handshake, response headers) inside the
	// request's url.Error; the caller's own context ending is not the address's fault.
	// (net/http's header timeout matches context.DeadlineExceeded with errors.Is, so the
	// caller's context is told apart by identity, not by errors.Is.)
	var ue *url.Error
	if !errors.As(err, &ue) || ue.Err == context.DeadlineExceeded || errors.Is(ue.Err, context.Canceled) {
		return false
	}
	var ne net.Error
	return errors.As(ue.Err, &ne) && ne.Timeout()
}

// ExplainNetwork turns a call that could not reach its address into one line naming the
// address, the flag that set it, which deadline ran out, and what to check; nil when err is
// not such a failure.
func ExplainNetwork(err error, w Where, d Deadlines) error {
	if !Unreachable(err) {
		return nil
	}
	d = d.WithDefaults()
	addr := w.URL
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			addr = u.Scheme + "://" + u.Host
		}
	}
	if addr == "" {
		addr = "the AWS endpoint"
	}
	at := addr
	check := "check the network, a proxy (HTTPS_PROXY) and --region"
	if w.URL != "" && w.Flag != "" {
		at += " (" + w.Flag + ")"
		check = "check that " + w.Flag + " names the server you meant (kokoro emulate, moto) and that it is running"
	}
	var op *net.OpError
	dial := errors.As(err, &op) && op.Op == "dial"
	var msg string
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		msg = fmt.Sprintf("nothing listens at %s: connection refused; %s", at, check)
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		msg = fmt.Sprintf("no route to %s; %s", at, check)
	case dial:
		msg = fmt.Sprintf("timeout: could not connect to %s within %v; %s", at, d.Connect, check)
	default:
		msg = fmt.Sprintf("timeout: no answer from %s within %v: it took the connection and sent nothing back; %s, and that it is not stuck", at, d.Answer, check)
	}
	return &Error{Kind: ErrUnreachable, Err: err, Msg: msg}
}

// Silent is the error of a call whose answer did not come within after.
func Silent(w Where, after time.Duration, err error) error {
	at, check := "the AWS endpoint", "check the network, a proxy (HTTPS_PROXY) and --region"
	if w.URL != "" {
		at = w.URL
		if w.Flag != "" {
			at += " (" + w.Flag + ")"
			check = "check that " + w.Flag + " names the server you meant (kokoro emulate, moto) and that it is running"
		}
	}
	return &Error{Kind: ErrUnreachable, Err: err, Msg: fmt.Sprintf("timeout: no answer from %s within %v: it took the connection and sent nothing back; %s, and that it is not stuck", at, after.Round(time.Millisecond), check)}
}

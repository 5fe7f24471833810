package transport

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// Transport is a bench.Transport that may hold resources (a connection pool, a client) until
// Close. Close is called once, after the ladder.
type Transport interface {
	bench.Transport
	Close() error
}

// Options are what a registered transport is built from; each reads the fields it needs.
type Options struct {
	// BaseURL is the server's address: scheme and host, optionally a path prefix (http, ws).
	BaseURL string
	// MaxConns is the highest concurrency the ladder will reach: one connection per worker.
	MaxConns int
	// Timestamp, when set, returns the request_timestamp to send with each request (unix
	// seconds), so that the server's staleness check (408) applies; nil sends none (http).
	Timestamp func() float64
	// WordTimestamps asks for each word's time with the audio (http and ws), to measure what
	// it costs.
	WordTimestamps bool
	// SageMaker holds the runtime calls of the sagemaker-* transports (sagemaker.go).
	SageMaker *SageMaker
}

// entry is one registered transport.
type entry struct {
	name string // as recorded in artifacts and file names
	help string // one line for --help
	open func(Options) (Transport, error)
}

// registry is every transport `kokoro bench` can drive, in the order --help lists them. Adding
// a transport is one file and one line here.
var registry = [...]entry{
	{artifact.TransportHTTP, "POST /invocations", openHTTP},
	{artifact.TransportWS, "bidirectional WebSocket", openWS},
	{artifact.TransportSageMakerStream, "SageMaker InvokeEndpointWithResponseStream", openSageMakerStream},
	{artifact.TransportSageMakerBidi, "SageMaker InvokeEndpointWithBidirectionalStream", openSageMakerBidi},
	{TransportOpenAI, "POST /v1/audio/speech, streamed pcm: kokoro's or another Kokoro server's", openOpenAI},
}

// New builds the transport registered under name.
func New(name string, o Options) (Transport, error) {
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	return e.open(o)
}

// Check reports an error naming the registered transports unless name is one of them, so a
// command can refuse a bad --transport before it does anything else.
func Check(name string) error {
	_, err := lookup(name)
	return err
}

func lookup(name string) (entry, error) {
	for _, e := range registry {
		if e.name == name {
			return e, nil
		}
	}
	return entry{}, fmt.Errorf("transport %q not supported here; have: %s", name, strings.Join(Names(), ", "))
}

// Names lists the registered transports.
func Names() []string {
	out := make([]string, len(registry))
	for i, e := range registry {
		out[i] = e.name
	}
	return out
}

// Help describes the registered transports in one line, for a flag's usage.
func Help() string {
	parts := make([]string, len(registry))
	for i, e := range registry {
		parts[i] = fmt.Sprintf("%s (%s)", e.name, e.help)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

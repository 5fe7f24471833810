package transport

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// SageMakerStream drives InvokeEndpointWithResponseStream: each request is one invocation
// whose body is the JSON of POST /invocations; the container's streamed WAV comes back as
// PayloadPart events. TTFAB ends at the first part that carries audio past the WAV header.
type SageMakerStream struct {
	invoke    func(ctx context.Context, body []byte, onPart func([]byte)) error
	timestamp func() float64
	sm        *SageMaker
}

func openSageMakerStream(o Options) (Transport, error) {
	if o.SageMaker == nil || o.SageMaker.InvokeStream == nil {
		return nil, errors.New("transport sagemaker-stream needs a SageMaker runtime client: pass --endpoint-name (and --region, or --aws-endpoint-url for kokoro emulate)")
	}
	return &SageMakerStream{invoke: o.SageMaker.InvokeStream, timestamp: o.Timestamp, sm: o.SageMaker}, nil
}

// Name implements bench.Transport.
func (t *SageMakerStream) Name() string { return artifact.TransportSageMakerStream }

// Dial implements bench.Transport: invocations are independent; the SDK's pool keeps the
// connections.
func (t *SageMakerStream) Dial(context.Context) (bench.Conn, error) { return smStreamConn{t}, nil }

// Close implements Transport.
func (t *SageMakerStream) Close() error { return nil }

// Preflight speaks one utterance and stops the run on a fatal refusal (ValidationError, …).
func (t *SageMakerStream) Preflight(ctx context.Context) error { return preflight(ctx, t, t.sm) }

type smStreamConn struct{ t *SageMakerStream }

func (c smStreamConn) Close() error { return nil }

func (c smStreamConn) Synthesize(ctx context.Context, req bench.Request, onAudio func([]byte)) error {
	body, err := invocationBody(req, c.t.timestamp)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The parts go through the same WAV reader as an HTTP response body, so the header is
	// stripped and checked alike; a pipe hands each part over as one read.
	pr, pw := io.Pipe()
	var (
		wg      sync.WaitGroup
		readErr error
	)
	wg.Go(func() {
		readErr = readWAVStream(pr, onAudio)
		pr.CloseWithError(readErr) // unblock a writer if the reader stopped early
		if readErr != nil {
			cancel() // the response is not audio: stop the invocation
		} else {
			_, _ = io.Copy(io.Discard, pr)
		}
	})
	invErr := c.t.invoke(ctx, body, func(part []byte) { _, _ = pw.Write(part) })
	pw.CloseWithError(invErr)
	wg.Wait()
	switch {
	case invErr != nil && readErr != nil && !errors.Is(readErr, invErr):
		return readErr // the response was not audio, which stopped the invocation
	case invErr != nil:
		return sageMakerError(invErr)
	}
	return readErr
}

package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// SageMakerBidi drives InvokeEndpointWithBidirectionalStream with kokoro's WebSocket protocol
// inside it: SageMaker hands each PayloadPart to the container's WebSocket as a text frame
// (DataType UTF8) or a binary one (BINARY), and back. Each worker holds one session and speaks
// one utterance at a time on it, as over ws; TTFAB ends at the first binary part.
type SageMakerBidi struct {
	open func(ctx context.Context) (BidiSession, error)
	sm   *SageMaker
}

func openSageMakerBidi(o Options) (Transport, error) {
	if o.SageMaker == nil || o.SageMaker.OpenBidi == nil {
		return nil, errors.New("transport sagemaker-bidi needs a SageMaker runtime client: pass --endpoint-name (and --region, or --aws-endpoint-url for kokoro emulate)")
	}
	return &SageMakerBidi{open: o.SageMaker.OpenBidi, sm: o.SageMaker}, nil
}

// Name implements bench.Transport.
func (t *SageMakerBidi) Name() string { return artifact.TransportSageMakerBidi }

// Close implements Transport: sessions belong to the workers, which close them.
func (t *SageMakerBidi) Close() error { return nil }

// Preflight speaks one utterance and stops the run on a fatal refusal.
func (t *SageMakerBidi) Preflight(ctx context.Context) error { return preflight(ctx, t, t.sm) }

// Dial implements bench.Transport. The session opens lazily with the first utterance, and
// again after one ended: a session the service closed (an error event ends it) is replaced
// without costing the ladder a transport error.
func (t *SageMakerBidi) Dial(context.Context) (bench.Conn, error) { return &smBidiConn{t: t}, nil }

type smBidiConn struct {
	t    *SageMakerBidi
	sess BidiSession
}

func (c *smBidiConn) Close() error {
	if c.sess == nil {
		return nil
	}
	err := c.sess.Close()
	c.sess = nil
	return err
}

func (c *smBidiConn) Synthesize(ctx context.Context, req bench.Request, onAudio func([]byte)) error {
	if c.sess == nil {
		s, err := c.t.open(ctx)
		if err != nil {
			return sageMakerError(err)
		}
		c.sess = s
	}
	keep, err := c.utterance(ctx, req, onAudio)
	if err != nil && !keep {
		// The session is over or in an unknown state: the next utterance opens a new one.
		c.Close()
	}
	return err
}

// utterance speaks req on the open session. keep reports that the session is still in step
// after an error: the container refused the utterance through its protocol (an error message),
// which leaves the session open, unlike the service's errors, which end the stream.
func (c *smBidiConn) utterance(ctx context.Context, req bench.Request, onAudio func([]byte)) (keep bool, err error) {
	sess := c.sess
	// Recv blocks without a context: closing the session unblocks it.
	stop := context.AfterFunc(ctx, func() { sess.Close() })
	defer stop()
	msg := api.WSClientMessage{Text: req.Text, Voice: req.Voice, RequestID: req.ID}
	if req.Speed != 0 {
		msg.Speed = &req.Speed
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return false, fmt.Errorf("encode message: %w", err)
	}
	if err := sess.Send(ctx, b, true); err != nil {
		return false, ctxErr(ctx, sageMakerError(err))
	}
	for {
		data, text, err := sess.Recv()
		if err != nil {
			return false, ctxErr(ctx, sageMakerError(err))
		}
		if !text {
			if len(data) > 0 {
				onAudio(data)
			}
			continue
		}
		var sm api.WSServerMessage
		if err := json.Unmarshal(data, &sm); err != nil {
			return false, fmt.Errorf("decode server message: %w", err)
		}
		if sm.RequestID != "" && sm.RequestID != req.ID {
			return false, fmt.Errorf("server message %q for request %q while waiting for %q", sm.Type, sm.RequestID, req.ID)
		}
		switch sm.Type {
		case api.WSTypeSynthesisStart:
		case api.WSTypeSynthesisComplete:
			if sm.Cancelled {
				return false, fmt.Errorf("server reported utterance %q cancelled", req.ID)
			}
			return true, nil
		case api.WSTypeError:
			return true, wsServerError(sm)
		}
	}
}

// ctxErr prefers the context's error when it ended the call.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

package transport

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kokoro-sm/kokoro/bench"
)

// TransportOpenAI is the name of the OpenAI speech transport in artifacts.
const TransportOpenAI = "openai"

// OpenAI drives POST /v1/audio/speech, the OpenAI-compatible route that kokoro and other
// Kokoro servers (fastkokoro, Kokoro-FastAPI) share, asking for streamed raw PCM16, so that
// the same ladder measures any of them.
type OpenAI struct{ poster }

// NewOpenAI returns a transport for the server at baseURL; maxConns sizes the pool.
func NewOpenAI(baseURL string, maxConns int) (*OpenAI, error) {
	p, err := newPoster(baseURL, "/v1/audio/speech", maxConns)
	if err != nil {
		return nil, err
	}
	return &OpenAI{poster: p}, nil
}

func openOpenAI(o Options) (Transport, error) { return NewOpenAI(o.BaseURL, o.MaxConns) }

// Name implements bench.Transport.
func (t *OpenAI) Name() string { return TransportOpenAI }

// Dial implements bench.Transport: the pool keeps one connection per worker alive.
func (t *OpenAI) Dial(context.Context) (bench.Conn, error) { return openAIConn{t}, nil }

// Close closes the pooled connections.
func (t *OpenAI) Close() error {
	t.close()
	return nil
}

type openAIConn struct{ t *OpenAI }

func (c openAIConn) Close() error { return nil }

type openAISpeech struct {
	Model          string   `json:"model"`
	Input          string   `json:"input"`
	Voice          string   `json:"voice,omitempty"`
	ResponseFormat string   `json:"response_format"`
	Speed          *float64 `json:"speed,omitempty"`
	Stream         bool     `json:"stream"`
}

func (c openAIConn) Synthesize(ctx context.Context, req bench.Request, onAudio func([]byte)) error {
	body := openAISpeech{Model: "kokoro", Input: req.Text, Voice: req.Voice, ResponseFormat: "pcm", Stream: true}
	if body.Voice == "" {
		body.Voice = "af_heart"
	}
	if req.Speed != 0 {
		body.Speed = &req.Speed
	}
	resp, err := c.t.post(ctx, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf := make([]byte, 32*1024)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			onAudio(buf[:n])
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read audio stream: %w", err)
		}
	}
}

package transport

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// HTTP drives POST /invocations with streaming WAV responses.
type HTTP struct {
	poster
	// Timestamp, when set, returns the request_timestamp to send (unix seconds) so that the
	// server's staleness check (408) is exercised; nil sends none.
	Timestamp func() float64
	// WordTimestamps asks for the audio with its words' times: newline-delimited JSON events
	// (api.InvocationEvent) instead of the bare WAV stream.
	WordTimestamps bool
}

// NewHTTP returns a transport for the server at baseURL (scheme and host, optionally a path
// prefix). maxConns sizes the connection pool: one keep-alive connection per worker.
func NewHTTP(baseURL string, maxConns int) (*HTTP, error) {
	p, err := newPoster(baseURL, api.RouteInvocations, maxConns)
	if err != nil {
		return nil, err
	}
	return &HTTP{poster: p}, nil
}

func openHTTP(o Options) (Transport, error) {
	t, err := NewHTTP(o.BaseURL, o.MaxConns)
	if err != nil {
		return nil, err
	}
	t.Timestamp, t.WordTimestamps = o.Timestamp, o.WordTimestamps
	return t, nil
}

// Name implements bench.Transport.
func (t *HTTP) Name() string { return artifact.TransportHTTP }

// Dial implements bench.Transport. HTTP needs no per-worker session: the pool keeps one
// connection per worker alive.
func (t *HTTP) Dial(context.Context) (bench.Conn, error) { return httpConn{t}, nil }

// Close closes the pooled connections; call it when the ladder is done.
func (t *HTTP) Close() error {
	t.close()
	return nil
}

type httpConn struct{ t *HTTP }

func (c httpConn) Close() error { return nil }

func (c httpConn) Synthesize(ctx context.Context, req bench.Request, onAudio func([]byte)) error {
	stream := true
	body := api.InvocationRequest{Text: req.Text, Voice: req.Voice, Stream: &stream, Format: api.FormatWAV, RequestID: req.ID}
	if req.Speed != 0 {
		body.Speed = &req.Speed
	}
	if c.t.Timestamp != nil {
		ts := c.t.Timestamp()
		body.RequestTimestamp = &ts
	}
	if c.t.WordTimestamps {
		body.Timestamps = true
		resp, err := c.t.post(ctx, body, "Accept", api.EventsContentType)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return readEvents(resp.Body, onAudio)
	}
	resp, err := c.t.post(ctx, body, "Accept", "audio/wav")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return readWAVStream(resp.Body, onAudio)
}

// readEvents reads a timed answer's events (newline-delimited JSON) and hands the audio of each
// to onAudio as it arrives, without the WAV header; a stream without its done event was cut.
func readEvents(r io.Reader, onAudio func([]byte)) error {
	br := bufio.NewReaderSize(r, 64*1024)
	var wav wavBody
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var ev api.InvocationEvent
			if err := json.Unmarshal(line, &ev); err != nil {
				return fmt.Errorf("decode event: %w", err)
			}
			switch ev.Type {
			case api.EventDone:
				if wav.got < len(wav.header) {
					return fmt.Errorf("stream ended after %d bytes, inside the WAV header", wav.got)
				}
				return nil
			case api.EventAudio:
				b, err := base64.StdEncoding.DecodeString(ev.Audio)
				if err != nil {
					return fmt.Errorf("decode event audio: %w", err)
				}
				if err := wav.feed(b, onAudio); err != nil {
					return err
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return errors.New("event stream ended without its done event")
		}
		if err != nil {
			return fmt.Errorf("read event stream: %w", err)
		}
	}
}

// wavBody passes a streamed WAV's bytes on without its header, once the header is checked.
type wavBody struct {
	header [api.StreamingWAVHeader]byte
	got    int
}

func (w *wavBody) feed(p []byte, onAudio func([]byte)) error {
	if w.got < len(w.header) {
		k := copy(w.header[w.got:], p)
		w.got += k
		p = p[k:]
		if w.got == len(w.header) && (!bytes.Equal(w.header[0:4], []byte("RIFF")) || !bytes.Equal(w.header[8:12], []byte("WAVE"))) {
			return errors.New("response is not a WAV stream")
		}
	}
	if len(p) > 0 {
		onAudio(p)
	}
	return nil
}

// readServerError turns a non-200 response into a *bench.ServerError, keeping the JSON error code
// when the body has one: kokoro's, or OpenAI's shape on the /v1/* routes.
func readServerError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	se := &bench.ServerError{Status: resp.StatusCode}
	var er api.ErrorResponse
	var oe api.OpenAIErrorResponse
	switch {
	case json.Unmarshal(raw, &er) == nil && er.Error != "":
		se.Code, se.Message = er.Error, er.Message
	case json.Unmarshal(raw, &oe) == nil && oe.Error.Code != "":
		se.Code, se.Message = oe.Error.Code, oe.Error.Message
	default:
		se.Message = strings.TrimSpace(string(raw))
	}
	return se
}

// readWAVStream reads a streamed WAV: a 44-byte RIFF header, then PCM16. Each read that yields
// PCM bytes is one arrival.
func readWAVStream(r io.Reader, onAudio func([]byte)) error {
	var wav wavBody
	buf := make([]byte, 32*1024)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if err := wav.feed(buf[:n], onAudio); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			if wav.got < len(wav.header) {
				return fmt.Errorf("stream ended after %d bytes, inside the WAV header", wav.got)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read audio stream: %w", err)
		}
	}
}

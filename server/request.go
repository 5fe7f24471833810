package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// Values a request may choose from; error bodies list them.
var (
	formats      = []string{api.FormatWAV, api.FormatPCM}
	langs        = []string{api.LangUS, api.LangGB}
	openAIModels = []string{"kokoro", "tts-1", "tts-1-hd", "gpt-4o-mini-tts"}
)

// Route labels of the metrics and logs.
const (
	labelInvocations = "invocations"
	labelSpeech      = "speech"
	labelBidi        = "bidi"
)

// synthesis is one decoded request, whichever route it came in on; the engine checks req
// (Engine.Check) before it is admitted.
type synthesis struct {
	route   string // metrics label
	id      string
	req     tts.Request
	format  string // api.FormatWAV | api.FormatPCM
	stream  bool
	arrived time.Time
}

// limits are the route checks a request passes before the engine checks it.
type limits struct {
	maxRequestAge time.Duration // 0 = never stale
	now           func() time.Time
}

// readBody reads a body wrapped by http.MaxBytesReader, naming the limit when it is hit.
func readBody(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, fmt.Errorf("%w: the limit is %d bytes", errBodyTooLarge, max)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("%w: the body did not arrive in time", errBodyTimeout)
		}
		return nil, fmt.Errorf("read body: %w", err)
	}
	return b, nil
}

// decodeStrict decodes exactly one JSON object into v.
func decodeStrict(b []byte, v any) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return fmt.Errorf("%w: the body is empty", errBadJSON)
	}
	if b[0] != '{' {
		return fmt.Errorf("%w: the body must be a JSON object", errBadJSON)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", errBadJSON, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the JSON object", errBadJSON)
	}
	return nil
}

// parseInvocation decodes a POST /invocations body and applies the route's own checks.
func parseInvocation(b []byte, lim limits) (*synthesis, error) {
	var in api.InvocationRequest
	if err := decodeStrict(b, &in); err != nil {
		return nil, err
	}
	if in.RequestTimestamp != nil && lim.maxRequestAge > 0 {
		ts := *in.RequestTimestamp
		if math.IsNaN(ts) || math.IsInf(ts, 0) {
			return nil, fmt.Errorf("%w: request_timestamp %v is not a time", errStale, ts)
		}
		// In float seconds: a timestamp far outside time.Time's range must still compare.
		age := float64(lim.now().UnixNano())/1e9 - ts
		if age > lim.maxRequestAge.Seconds() {
			return nil, fmt.Errorf("%w: request_timestamp is %.1f s old, the limit is %.0f s", errStale, age, lim.maxRequestAge.Seconds())
		}
	}
	s := &synthesis{route: labelInvocations, id: in.RequestID, format: api.DefaultFormat, stream: true}
	if in.Stream != nil {
		s.stream = *in.Stream
	}
	if in.Format != "" {
		s.format = strings.ToLower(in.Format)
	}
	if !slices.Contains(formats, s.format) {
		return nil, fmt.Errorf("%w: %q; supported: %s", errBadFormat, in.Format, strings.Join(formats, ", "))
	}
	if in.Lang != "" && !slices.Contains(langs, strings.ToLower(in.Lang)) {
		return nil, fmt.Errorf("%w: %q; supported: %s", errBadLang, in.Lang, strings.Join(langs, ", "))
	}
	s.req = tts.Request{Text: in.Text, Voice: in.Voice, Speed: in.Speed, Lang: strings.ToLower(in.Lang)}
	return s, nil
}

// parseSpeech decodes an OpenAI-compatible POST /v1/audio/speech body and applies the route's
// own checks.
func parseSpeech(b []byte, _ limits) (*synthesis, error) {
	var in api.SpeechRequest
	if err := decodeStrict(b, &in); err != nil {
		return nil, err
	}
	if in.Model != "" && !slices.Contains(openAIModels, in.Model) && !strings.HasPrefix(in.Model, "kokoro") {
		return nil, fmt.Errorf("%w: %q; supported: %s", errBadModel, in.Model, strings.Join(openAIModels, ", "))
	}
	s := &synthesis{route: labelSpeech, format: api.DefaultFormat, stream: true}
	if in.Stream != nil {
		s.stream = *in.Stream
	}
	if in.ResponseFormat != "" {
		s.format = strings.ToLower(in.ResponseFormat)
	}
	if !slices.Contains(formats, s.format) {
		return nil, fmt.Errorf("%w: %q; supported: %s", errBadFormat, in.ResponseFormat, strings.Join(formats, ", "))
	}
	s.req = tts.Request{Text: in.Input, Voice: in.Voice, Speed: in.Speed}
	return s, nil
}

// newID makes a request id for a client that sent none.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

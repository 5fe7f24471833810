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
	formats      = []string{"wav", "pcm"}
	langs        = []string{"en-us", "en-gb"}
	openAIModels = []string{"kokoro", "tts-1", "tts-1-hd", "gpt-4o-mini-tts"}
)

// Route labels of the metrics and logs.
const (
	labelInvocations = "invocations"
	labelSpeech      = "speech"
	labelBidi        = "bidi"
)

// synthesis is one validated request, whichever route it came in on.
type synthesis struct {
	route   string // metrics label
	id      string
	req     tts.Request
	format  string // "wav" | "pcm"
	stream  bool
	arrived time.Time
}

// limits are the checks a request passes before the engine sees it.
type limits struct {
	maxTextChars  int           // 0 = unlimited
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

// parseInvocation decodes and checks a POST /invocations body.
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
	req, err := buildRequest(in.Text, in.Voice, in.Speed, strings.ToLower(in.Lang), lim)
	if err != nil {
		return nil, err
	}
	s.req = req
	return s, nil
}

// parseSpeech decodes and checks an OpenAI-compatible POST /v1/audio/speech body.
func parseSpeech(b []byte, lim limits) (*synthesis, error) {
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
	req, err := buildRequest(in.Input, in.Voice, in.Speed, "", lim)
	if err != nil {
		return nil, err
	}
	s.req = req
	return s, nil
}

// buildRequest applies the checks shared by every route. An explicit speed is checked here
// because the engine reads 0 as "default".
func buildRequest(text, voice string, speed *float64, lang string, lim limits) (tts.Request, error) {
	if strings.TrimSpace(text) == "" {
		return tts.Request{}, fmt.Errorf("%w: the text field is missing or blank", tts.ErrEmptyText)
	}
	if lim.maxTextChars > 0 {
		if n := len([]rune(text)); n > lim.maxTextChars {
			return tts.Request{}, fmt.Errorf("%w: %d characters, the limit is %d", tts.ErrTextTooLong, n, lim.maxTextChars)
		}
	}
	req := tts.Request{Text: text, Voice: strings.TrimSpace(voice), Lang: lang}
	if speed != nil {
		v := *speed
		if !(v >= tts.MinSpeed && v <= tts.MaxSpeed) {
			return tts.Request{}, fmt.Errorf("%w: %g is not in [%g, %g]", tts.ErrBadSpeed, v, tts.MinSpeed, tts.MaxSpeed)
		}
		req.Speed = v
	}
	return req, nil
}

// newID makes a request id for a client that sent none.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

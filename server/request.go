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
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// Values a request may choose from; error bodies list them.
var (
	openAIModels  = []string{"kokoro", "tts-1", "tts-1-hd", "gpt-4o-mini-tts"}
	streamFormats = []string{api.StreamFormatAudio, api.StreamFormatSSE}
)

// maxClockSkew is how far in the future a request_timestamp may lie: clocks disagree by
// seconds, not minutes. A timestamp further ahead is a client bug (often milliseconds sent as
// seconds) and would make the staleness check meaningless.
const maxClockSkew = time.Minute

// Route labels of the metrics and logs.
const (
	labelInvocations = "invocations"
	labelSpeech      = "speech"
	labelBidi        = "bidi"
)

// synthesis is one decoded request, whichever route it came in on; checkSynthesis resolves its
// fields into req before it is admitted.
type synthesis struct {
	route  string // metrics label
	id     string
	fields fields // as the client sent them; checkSynthesis resolves them into req
	req    tts.Resolved
	format codec.Format
	rate   int // samples per second of the answer's audio
	stream bool
	sse    bool // answer as server-sent events (stream_format "sse")
	// timed answers the audio with its words' times as JSON, in the route's framing; nil for
	// audio alone.
	timed   framing
	volume  *float64 // scales the samples; nil = as synthesized
	arrived time.Time
}

// limits are the route checks a request passes before the engine checks it.
type limits struct {
	maxRequestAge time.Duration // 0 = never stale
	now           func() time.Time
	voices        tts.Aliases // OpenAI's voice names, mapped to Kokoro voices by the engine's check
	lexicons      map[string]*markup.Lexicon
	unknownOK     bool // fields no route knows are ignored, not refused
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

// decodeStrict decodes exactly one JSON object into v, a pointer to a struct of the api
// package. JSON is UTF-8 (RFC 8259): a body that is not is refused rather than decoded with
// replacement characters, which the voice would read out. A field v does not have is refused
// too, unless unknownOK: a misspelt field (voice_name for voice) must not fall back to a
// default without a word.
func decodeStrict(b []byte, v any, unknownOK bool) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return fmt.Errorf("%w: the body is empty", errBadJSON)
	}
	if b[0] != '{' {
		return fmt.Errorf("%w: the body must be a JSON object", errBadJSON)
	}
	if !utf8.Valid(b) {
		return fmt.Errorf("%w: the body is not valid UTF-8 (byte %d)", errBadJSON, invalidUTF8At(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", errBadJSON, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the JSON object", errBadJSON)
	}
	if unknownOK {
		return nil
	}
	return checkFields(b, v)
}

// invalidUTF8At is the offset of the first byte that is not valid UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// checkRequestID bounds and validates a client's request id before anything echoes or logs
// it: at most api.MaxRequestIDLen bytes of visible ASCII. The message quotes none of it.
func checkRequestID(id string) error {
	if len(id) > api.MaxRequestIDLen {
		return fmt.Errorf("%w: %d bytes, the limit is %d", errBadRequestID, len(id), api.MaxRequestIDLen)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c < 0x21 || c > 0x7e {
			return fmt.Errorf("%w: byte %d is %#02x; ids are visible ASCII (0x21-0x7e)", errBadRequestID, i, c)
		}
	}
	return nil
}

// clip quotes a client's value for an error message and the log, at most 64 bytes of it.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.ToValidUTF8(s[:max], "")) + fmt.Sprintf("… (%d bytes)", len(s))
}

// checkTimestamp refuses a request_timestamp that is not a time, lies in the future beyond
// clock skew, or (with a limit) is older than the limit.
func checkTimestamp(ts *float64, lim limits) error {
	if ts == nil {
		return nil
	}
	if math.IsNaN(*ts) || math.IsInf(*ts, 0) {
		return fmt.Errorf("%w: request_timestamp %v is not a time", errBadTimestamp, *ts)
	}
	// In float seconds: a timestamp far outside time.Time's range must still compare.
	age := float64(lim.now().UnixNano())/1e9 - *ts
	if -age > maxClockSkew.Seconds() {
		hint := ""
		if *ts > 1e11 {
			hint = " (it looks like milliseconds; the field is unix seconds)"
		}
		return fmt.Errorf("%w: request_timestamp is %.0f s in the future%s", errBadTimestamp, -age, hint)
	}
	if lim.maxRequestAge > 0 && age > lim.maxRequestAge.Seconds() {
		return fmt.Errorf("%w: request_timestamp is %.1f s old, the limit is %.0f s", errStale, age, lim.maxRequestAge.Seconds())
	}
	return nil
}

// lookupFormat finds the encoder a request's format names, or the route's default format's
// when the request names none.
func lookupFormat(name, def string) (codec.Format, error) {
	if name == "" {
		name = def
	}
	f, err := codec.Lookup(strings.ToLower(name))
	if errors.Is(err, codec.ErrNoEncoder) {
		return f, fmt.Errorf("%w: %s has no encoder in this build (no maintained AAC encoder ships in Debian's main archive); supported: %s",
			errBadFormat, clip(name), strings.Join(codec.Names(), ", "))
	}
	if err != nil {
		return f, fmt.Errorf("%w: %s; supported: %s", errBadFormat, clip(name), strings.Join(codec.Names(), ", "))
	}
	return f, nil
}

// parseInvocation decodes a POST /invocations body and applies the route's own checks.
func parseInvocation(b []byte, lim limits) (*synthesis, error) {
	var in api.InvocationRequest
	if err := decodeStrict(b, &in, lim.unknownOK); err != nil {
		return nil, err
	}
	if err := checkTimestamp(in.RequestTimestamp, lim); err != nil {
		return nil, err
	}
	s := &synthesis{route: labelInvocations, id: in.RequestID, stream: true}
	if in.Stream != nil {
		s.stream = *in.Stream
	}
	var err error
	if s.format, err = lookupFormat(in.Format, api.DefaultFormat); err != nil {
		return nil, err
	}
	if s.rate, err = checkRate(in.SampleRate, s.format); err != nil {
		return nil, err
	}
	s.fields = fields{RequestID: in.RequestID, Text: in.Text, Voice: in.Voice, Speed: in.Speed, Lang: in.Lang, TextType: in.TextType, SpeechMarks: in.SpeechMarks, LexiconNames: in.LexiconNames, InputType: in.InputType, Normalization: in.NormalizationOptions}
	capt, err := checkCaptions(in.Captions)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Timestamps || capt != "":
		s.timed = invocationFraming{format: s.format.Name, captions: capt}
	case len(in.SpeechMarks) > 0:
		s.timed = marksFraming{}
	}
	return s, nil
}

// parseSpeech decodes an OpenAI-compatible POST /v1/audio/speech body and applies the route's
// own checks: OpenAI's defaults (mp3), voice names and speed range, and its stream formats.
func parseSpeech(b []byte, lim limits) (*synthesis, error) {
	var in api.SpeechRequest
	if err := decodeStrict(b, &in, lim.unknownOK); err != nil {
		return nil, err
	}
	if err := checkModel(in.Model); err != nil {
		return nil, err
	}
	s := &synthesis{route: labelSpeech}
	var err error
	if s.format, err = lookupFormat(in.ResponseFormat, api.DefaultSpeechFormat); err != nil {
		return nil, err
	}
	if s.rate, err = checkRate(in.SampleRate, s.format); err != nil {
		return nil, err
	}
	asked := false // a stream_format asks for a stream
	switch strings.ToLower(in.StreamFormat) {
	case "":
	case api.StreamFormatAudio:
		asked = true
	case api.StreamFormatSSE:
		s.sse, asked = true, true
	default:
		return nil, fmt.Errorf("%w: %s; supported: %s", errBadStreamFormat, clip(in.StreamFormat), strings.Join(streamFormats, ", "))
	}
	// Every format streams, except that a wav is complete unless asked for as a stream (by
	// stream or stream_format): a complete wav's header holds the real sizes, which Python's
	// wave module and others trust.
	s.stream = s.format.Name != api.FormatWAV || asked
	if in.Stream != nil {
		s.stream = *in.Stream || s.sse
	}
	speed, err := openAISpeed(in.Speed)
	if err != nil {
		return nil, err
	}
	if s.volume, err = checkVolume(in.VolumeMultiplier); err != nil {
		return nil, err
	}
	s.fields = fields{Text: in.Input, Voice: in.Voice, Speed: speed, Lang: in.LangCode, TextType: in.TextType, LexiconNames: in.LexiconNames, InputType: in.InputType, Normalization: in.NormalizationOptions}
	return s, nil
}

// knownModel reports a model name the speech route serves.
func knownModel(name string) bool {
	return slices.Contains(openAIModels, name) || strings.HasPrefix(name, "kokoro")
}

// checkModel accepts a request's model field: empty, or a model the speech routes serve.
func checkModel(name string) error {
	if name != "" && !knownModel(name) {
		return fmt.Errorf("%w: %s; supported: %s", errBadModel, clip(name), strings.Join(openAIModels, ", "))
	}
	return nil
}

// openAISpeed accepts OpenAI's speed range and clamps it to the model's: Kokoro's speech at
// 0.25 or 4 is not intelligible, so the nearest speed it speaks well is used instead.
func openAISpeed(v *float64) (*float64, error) {
	if v == nil {
		return nil, nil
	}
	if !(*v >= api.OpenAIMinSpeed && *v <= api.OpenAIMaxSpeed) {
		return nil, fmt.Errorf("%w: %g is not in [%g, %g]", tts.ErrBadSpeed, *v, api.OpenAIMinSpeed, api.OpenAIMaxSpeed)
	}
	c := min(max(*v, api.MinSpeed), api.MaxSpeed)
	return &c, nil
}

// newID makes a request id for a client that sent none.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

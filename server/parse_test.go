package server

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

func testLimits() limits {
	now := time.Unix(1_800_000_000, 0)
	return limits{maxRequestAge: 56 * time.Second, now: func() time.Time { return now }, voices: tts.NewAliases(DefaultVoiceAliases)}
}

// checker is an engine of the fakes with a 1000-character limit, for the checks a request
// passes after its route decoded it.
func checker(tb testing.TB) *tts.Engine {
	e := tts.New(tts.Config{MaxTextChars: 1000}, fakePhonemizer{}, &fakeSynth{slots: 1}, fakeVoices{testVoices})
	tb.Cleanup(func() { e.Close() })
	return e
}

// decodeAndCheck is what the handler does with a body before admission: the route's decoding,
// then checkSynthesis.
func decodeAndCheck(e *tts.Engine, parse func([]byte, limits) (*synthesis, error), b []byte) (*synthesis, error) {
	s, err := parse(b, testLimits())
	if err != nil {
		return nil, err
	}
	if s.req, err = checkSynthesis(e, s.fields, testLimits(), false); err != nil {
		return nil, err
	}
	return s, nil
}

func TestParseInvocationDefaultsAndStaleness(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		err        error
		check      func(*synthesis) bool
	}{
		{"defaults", `{"text":"hi"}`, nil, func(s *synthesis) bool {
			return s.format.Name == "wav" && s.stream && s.req.Voice.Spec == api.DefaultVoice && s.req.Speed == 1
		}},
		{"explicit fields", `{"text":"hi","voice":"af_bella","speed":0.5,"stream":false,"format":"PCM","lang":"en-GB","request_id":"x"}`, nil, func(s *synthesis) bool {
			return s.format.Name == "pcm" && !s.stream && s.req.Voice.Spec == "af_bella" && s.req.Speed == 0.5 && s.req.Lang == "en-gb" && s.id == "x"
		}},
		{"an unknown field is refused", `{"text":"hi","temperature":3}`, errUnknownField, nil},
		{"a misspelt field is refused", `{"text":"hi","voice_name":"af_bella"}`, errUnknownField, nil},
		{"fields match without regard to case", `{"Text":"hi","VOICE":"af_bella"}`, nil, func(s *synthesis) bool { return s.req.Voice.Spec == "af_bella" }},
		{"sample rate", `{"text":"hi","format":"pcm","sample_rate":16000}`, nil, func(s *synthesis) bool { return s.rate == 16000 }},
		{"the model rate by default", `{"text":"hi"}`, nil, func(s *synthesis) bool { return s.rate == api.SampleRate }},
		{"mulaw is 8 kHz", `{"text":"hi","format":"mulaw"}`, nil, func(s *synthesis) bool { return s.rate == 8000 }},
		{"alaw at 8 kHz", `{"text":"hi","format":"alaw","sample_rate":8000}`, nil, func(s *synthesis) bool { return s.rate == 8000 }},
		{"mulaw at 16 kHz is refused", `{"text":"hi","format":"mulaw","sample_rate":16000}`, errBadSampleRate, nil},
		{"an odd rate is refused", `{"text":"hi","sample_rate":11025}`, errBadSampleRate, nil},
		{"a rate as a string is refused", `{"text":"hi","sample_rate":"16000"}`, errBadJSON, nil},
		{"opus at 44.1 kHz is refused", `{"text":"hi","format":"opus","sample_rate":44100}`, errBadSampleRate, nil},
		{"55 s old is fresh", `{"text":"hi","request_timestamp":1799999945}`, nil, nil},
		{"57 s old is stale", `{"text":"hi","request_timestamp":1799999943}`, errStale, nil},
		{"fractional seconds", `{"text":"hi","request_timestamp":1799999943.9}`, errStale, nil},
		{"speed at the edges", `{"text":"hi","speed":2.0}`, nil, nil},
		{"negative speed", `{"text":"hi","speed":-1}`, tts.ErrBadSpeed, nil},
		{"zero speed is given, not absent", `{"text":"hi","speed":0}`, tts.ErrBadSpeed, nil},
		{"text limit counts runes", `{"text":"` + strings.Repeat("é", 1000) + `"}`, nil, nil},
		{"text over the limit", `{"text":"` + strings.Repeat("é", 1001) + `"}`, tts.ErrTextTooLong, nil},
		{"null text", `{"text":null}`, tts.ErrEmptyText, nil},
		{"every format", `{"text":"hi","format":"opus"}`, nil, func(s *synthesis) bool { return s.format.Name == "opus" }},
		{"aac has no encoder", `{"text":"hi","format":"aac"}`, errBadFormat, nil},
		{"a minute ahead is clock skew", `{"text":"hi","request_timestamp":1800000059}`, nil, nil},
		{"far in the future", `{"text":"hi","request_timestamp":1800003600}`, errBadTimestamp, nil},
		{"milliseconds", `{"text":"hi","request_timestamp":1800000000000}`, errBadTimestamp, nil},
		{"id at the limit", `{"text":"hi","request_id":"` + strings.Repeat("a", api.MaxRequestIDLen) + `"}`, nil, nil},
		{"id over the limit", `{"text":"hi","request_id":"` + strings.Repeat("a", api.MaxRequestIDLen+1) + `"}`, errBadRequestID, nil},
		{"id with a space", `{"text":"hi","request_id":"a b"}`, errBadRequestID, nil},
		{"id with a newline", `{"text":"hi","request_id":"a\nb"}`, errBadRequestID, nil},
		{"id not ASCII", `{"text":"hi","request_id":"é"}`, errBadRequestID, nil},
		{"invalid UTF-8", "{\"text\":\"hi \xff\"}", errBadJSON, nil},
		{"OpenAI voice names", `{"text":"hi","voice":"Shimmer"}`, nil, func(s *synthesis) bool { return s.req.Voice.Spec == "af_heart" }},
		{"nothing speakable", `{"text":"😀 你好"}`, tts.ErrEmptyText, nil},
	}
	e := checker(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := decodeAndCheck(e, parseInvocation, []byte(tc.body))
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
				return
			}
			if tc.check != nil && !tc.check(s) {
				t.Errorf("%s: got %+v", tc.name, s)
			}
		})
	}
}

func TestParseSpeechFollowsOpenAI(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name, body string
		err        error
		check      func(*synthesis) bool
	}{
		{"mp3 by default, streamed", `{"model":"tts-1","input":"hi","voice":"alloy"}`, nil, func(s *synthesis) bool {
			return s.format.Name == "mp3" && s.format.ContentType == "audio/mpeg" && s.stream && !s.sse && s.req.Voice.Spec == "af_alloy"
		}},
		{"wav is complete by default", `{"input":"hi","response_format":"wav"}`, nil, func(s *synthesis) bool { return !s.stream }},
		{"wav streamed on request", `{"input":"hi","response_format":"wav","stream":true}`, nil, func(s *synthesis) bool { return s.stream }},
		{"opus", `{"input":"hi","response_format":"opus"}`, nil, func(s *synthesis) bool {
			return s.format.ContentType == "audio/ogg; codecs=opus" && s.stream
		}},
		{"flac", `{"input":"hi","response_format":"flac"}`, nil, func(s *synthesis) bool { return s.format.Name == "flac" }},
		{"aac is refused", `{"input":"hi","response_format":"aac"}`, errBadFormat, nil},
		{"sse", `{"input":"hi","stream_format":"sse","response_format":"wav"}`, nil, func(s *synthesis) bool { return s.sse && s.stream }},
		{"audio stream format", `{"input":"hi","stream_format":"audio"}`, nil, func(s *synthesis) bool { return !s.sse }},
		{"unknown stream format", `{"input":"hi","stream_format":"websocket"}`, errBadStreamFormat, nil},
		{"instructions are accepted", `{"input":"hi","instructions":"Speak like a pirate."}`, nil, nil},
		{"speed 0.25 is clamped to 0.5", `{"input":"hi","speed":0.25}`, nil, func(s *synthesis) bool { return s.req.Speed == 0.5 }},
		{"speed 4 is clamped to 2", `{"input":"hi","speed":4}`, nil, func(s *synthesis) bool { return s.req.Speed == 2 }},
		{"speed 1.5 is kept", `{"input":"hi","speed":1.5}`, nil, func(s *synthesis) bool { return s.req.Speed == *f(1.5) }},
		{"speed 0.2 is refused", `{"input":"hi","speed":0.2}`, tts.ErrBadSpeed, nil},
		{"speed 4.5 is refused", `{"input":"hi","speed":4.5}`, tts.ErrBadSpeed, nil},
		{"blend of OpenAI names", `{"input":"hi","voice":"nova(2)+onyx(1)"}`, nil, func(s *synthesis) bool { return s.req.Voice.Spec == "af_nova(2)+am_fenrir(1)" }},
		{"unknown model", `{"model":"whisper-1","input":"hi"}`, errBadModel, nil},
		{"Kokoro-FastAPI's fields", `{"input":"hi","lang_code":"b","volume_multiplier":0.5,"download_format":"mp3","return_download_link":false,"normalization_options":{}}`, nil,
			func(s *synthesis) bool { return s.req.Lang == "en-gb" && *s.volume == 0.5 }},
		{"volume out of range", `{"input":"hi","volume_multiplier":101}`, errBadVolume, nil},
		{"a misspelt field", `{"input":"hi","voice_name":"af_bella"}`, errUnknownField, nil},
		{"sample rate", `{"input":"hi","response_format":"pcm","sample_rate":8000}`, nil, func(s *synthesis) bool { return s.rate == 8000 }},
	}
	e := tts.New(tts.Config{}, fakePhonemizer{}, &fakeSynth{slots: 1}, fakeVoices{append(testVoices, "af_alloy", "af_nova", "am_fenrir")})
	defer e.Close()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := decodeAndCheck(e, parseSpeech, []byte(tc.body))
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
				return
			}
			if tc.check != nil && !tc.check(s) {
				t.Errorf("%s: got %+v", tc.name, s)
			}
		})
	}
}

func TestParseClientMessage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, typ string
		err     error
	}{
		{`{"text":"hi"}`, api.WSTypeSpeak, nil},
		{`{"type":"SPEAK","text":"hi"}`, api.WSTypeSpeak, nil},
		{`{"type":"text","text":""}`, api.WSTypeText, nil},
		{`{"type":"flush"}`, api.WSTypeFlush, nil},
		{`{"type":"cancel","request_id":"x"}`, api.WSTypeCancel, nil},
		{`{"type":"close"}`, api.WSTypeClose, nil},
		{`{"type":"speak"}`, "", tts.ErrEmptyText},
		{`{"type":"nope"}`, "", errUnknownMessage},
		{`{"voice":"af_heart"}`, "", errUnknownMessage},
		{`[]`, "", errBadJSON},
		{`{"text":"a"}{}`, "", errBadJSON},
		{`{"speed":"fast","text":"a"}`, "", errBadJSON},
		{`{"text":"a","request_id":"` + strings.Repeat("x", 100_000) + `"}`, "", errBadRequestID},
		{"{\"text\":\"a \xc3\"}", "", errBadJSON},
	}
	for _, tc := range cases {
		t.Run(caseName(tc.in), func(t *testing.T) {
			m, err := parseClientMessage([]byte(tc.in), false)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("%s: err = %v, want %v", tc.in, err, tc.err)
				return
			}
			if err == nil && m.Type != tc.typ {
				t.Errorf("%s: type %q, want %q", tc.in, m.Type, tc.typ)
			}
			if err != nil && m.RequestID != "" && checkRequestID(m.RequestID) != nil {
				t.Errorf("%.40s: an invalid request id would be echoed", tc.in)
			}
		})
	}
}

func FuzzParseInvocation(f *testing.F) {
	for _, s := range []string{`{"text":"hi"}`, `{"text":"hi","speed":1e308,"request_timestamp":-1e300}`,
		`{"text":"x","format":"pcm","stream":false}`, `{`, `null`, `{"text":"\u0000"}`,
		`{"text":"hi","timestamps":true,"captions":"vtt"}`, `{"input":"hi","lang_code":"a","volume_multiplier":1e309}`,
		`{"text":"hi","format":"mulaw","sample_rate":8000}`, `{"input":"hi","sample_rate":-1e10}`, `{"text":"hi","TEXT":"x","voice_name":"a"}`} {
		f.Add([]byte(s))
	}
	e := checker(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, parse := range []func([]byte, limits) (*synthesis, error){parseInvocation, parseSpeech, parseCaptioned} {
			s, err := decodeAndCheck(e, parse, b)
			if err != nil {
				if classify(err).status >= 500 {
					t.Fatalf("parse error %v maps to a 5xx", err)
				}
				continue
			}
			if strings.TrimSpace(s.req.Text) == "" || len([]rune(s.req.Text)) > 1000 {
				t.Fatalf("accepted text %q", s.req.Text)
			}
			if !(s.req.Speed >= api.MinSpeed && s.req.Speed <= api.MaxSpeed) {
				t.Fatalf("accepted speed %v", s.req.Speed)
			}
			if !codec.Known(s.format.Name) {
				t.Fatalf("accepted format %q", s.format.Name)
			}
			if !slices.Contains(s.format.ValidRates(), s.rate) {
				t.Fatalf("accepted %s at %d Hz", s.format.Name, s.rate)
			}
			if checkRequestID(s.id) != nil {
				t.Fatalf("accepted request id %q", s.id)
			}
			if v := s.volume; v != nil && !(*v >= 0 && *v <= maxVolume) {
				t.Fatalf("accepted volume %v", *v)
			}
			if !slices.Contains(phonemize.LangCodes(), s.req.Lang) {
				t.Fatalf("accepted lang %q", s.req.Lang)
			}
		}
	})
}

func FuzzParseClientMessage(f *testing.F) {
	for _, s := range []string{`{"text":"hi"}`, `{"type":"cancel"}`, `{"type":"text","text":"a. b"}`, `{"type":1}`, `{}`,
		`{"text":"hi","format":"alaw","sample_rate":8000}`, `{"text":"hi","request_id":"a","voice_name":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseClientMessage(b, false)
		if checkRequestID(m.RequestID) != nil {
			t.Fatalf("request id %q would be echoed", m.RequestID)
		}
		if format, rate, err := wsEncoding(m); err == nil && (!slices.Contains(wsFormats, format.Name) || !slices.Contains(format.ValidRates(), rate)) {
			t.Fatalf("frames of %s at %d Hz accepted", format.Name, rate)
		} else if err != nil && classify(err).status != 400 {
			t.Fatalf("encoding error %v is not a 400", err)
		}
		if err != nil {
			if classify(err).status >= 500 {
				t.Fatalf("message error %v maps to a 5xx", err)
			}
			return
		}
		switch m.Type {
		case api.WSTypeSpeak:
			if strings.TrimSpace(m.Text) == "" {
				t.Fatal("speak without text accepted")
			}
		case api.WSTypeText, api.WSTypeFlush, api.WSTypeCancel, api.WSTypeClose:
		default:
			t.Fatalf("type %q accepted", m.Type)
		}
	})
}

// caseName is a table case's subtest name: its text, cut to 40 characters.
func caseName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40])
	}
	return s
}

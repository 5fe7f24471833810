package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/tts"
)

func post(t testing.TB, c *http.Client, url, body string) *http.Response {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func readAll(t testing.TB, resp *http.Response) []byte {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return b
}

// decodeError decodes an error body of either shape, kokoro's or OpenAI's (the /v1/* routes),
// into kokoro's, failing the test when an OpenAI-shaped body lacks a field OpenAI's SDKs read.
func decodeError(t testing.TB, b []byte) api.ErrorResponse {
	t.Helper()
	var raw struct {
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("error body %q is not JSON: %v", b, err)
	}
	if len(raw.Error) > 0 && raw.Error[0] == '{' {
		var fields map[string]json.RawMessage
		var o api.OpenAIErrorResponse
		if err := errors.Join(json.Unmarshal(raw.Error, &fields), json.Unmarshal(b, &o)); err != nil {
			t.Fatalf("error body %q: %v", b, err)
		}
		if _, ok := fields["param"]; !ok || o.Error.Message == "" || o.Error.Code == "" ||
			(o.Error.Type != api.OpenAIInvalidRequest && o.Error.Type != api.OpenAIServerError) {
			t.Fatalf("error body %s lacks a field of OpenAI's shape (message, type, param, code)", b)
		}
		return api.ErrorResponse{Error: o.Error.Code, Message: o.Error.Message, Valid: o.Error.Valid,
			QueueDepth: o.Error.QueueDepth, MaxQueueDepth: o.Error.MaxQueueDepth}
	}
	var e api.ErrorResponse
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("error body %q is not JSON: %v", b, err)
	}
	return e
}

// wantSamples is what the client receives for text: the fake model's sound, one id per letter,
// each chunk framed by the silence of its join (tts.JoinPause) or, last, of the end.
func wantSamples(text string) int {
	chunks, _ := fakePhonemizer{}.Chunks(text, chunk.Options{})
	n := 0
	for i, c := range chunks {
		silence := tts.JoinLead + tts.EndTail
		if i < len(chunks)-1 {
			silence = tts.JoinPause(c.Break)
		}
		n += len(c.IDs)*samplesPerID + int(silence*api.SampleRate/time.Second)
	}
	return n
}

var stageLine = regexp.MustCompile(`^=== STAGE ([a-z_]+) t=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z elapsed_s=\d+\.\d{3} ===$`)

func TestPingAnswers503UntilLoadedThenStagesInOrder(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := newHarness(t, func(c *Config, _ *fakeSynth) {
		load := c.Load
		c.Load = func(ctx context.Context, obs tts.Observer, stage func(string)) (Engine, func() error, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return load(ctx, obs, stage)
		}
	})
	c := client(t)
	resp, err := c.Get(h.url + api.RoutePing)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("/ping while loading = %d, want 503", resp.StatusCode)
	}
	resp = post(t, c, h.url+api.RouteInvocations, `{"text":"Hello."}`)
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 503 || e.Error != "not_ready" || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("invocation while loading = %d %+v, want 503 not_ready with Retry-After", resp.StatusCode, e)
	}
	close(release)
	h.waitReady()
	resp, err = c.Get(h.url + api.RoutePing)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp); resp.StatusCode != http.StatusOK {
		t.Fatalf("/ping after load = %d, want 200", resp.StatusCode)
	}
	if got := testutil.ToFloat64(h.srv.Metrics().Ready); got != 1 {
		t.Errorf("kokoro_ready = %v, want 1", got)
	}
	if err := h.shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(h.stage.String()), "\n") {
		m := stageLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("stage line %q does not match the contract", line)
		}
		names = append(names, m[1])
	}
	if got, want := strings.Join(names, ","), "framework_init,weights_ready,warmup_done,ready"; got != want {
		t.Errorf("stages = %s, want %s", got, want)
	}
}

func TestFormatStageCountsFromContainerStart(t *testing.T) {
	t.Parallel()
	start := time.Unix(1700000000, 0)
	at := start.Add(12345 * time.Millisecond)
	got := FormatStage("weights_ready", at, start)
	want := "=== STAGE weights_ready t=2023-11-14T22:13:32.345Z elapsed_s=12.345 ==="
	if got != want {
		t.Errorf("FormatStage = %q, want %q", got, want)
	}
}

func TestLoadFailureEndsServe(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, _ *fakeSynth) {
		c.Load = func(context.Context, tts.Observer, func(string)) (Engine, func() error, error) {
			return nil, nil, fmt.Errorf("model file is corrupt")
		}
	})
	select {
	case err := <-h.done:
		close(h.done)
		if err == nil || !strings.Contains(err.Error(), "model file is corrupt") {
			t.Fatalf("Serve = %v, want the loader's error", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return after the loader failed")
	}
}

// streamedBeforeTheEnd reads resp's body while the fake model holds every chunk after the
// first: audio beyond the first headerLen bytes can only arrive before the end if the server
// streams. Once it has, release lets the model go on, and the rest is read. A server that
// waited for the whole synthesis would send nothing while the model is held; the test then
// fails after waitLimit.
func streamedBeforeTheEnd(t *testing.T, resp *http.Response, headerLen int, release func()) []byte {
	t.Helper()
	timer := time.AfterFunc(waitLimit, func() { resp.Body.Close() })
	defer timer.Stop()
	var body []byte
	buf := make([]byte, 4096)
	for len(body) <= headerLen {
		n, err := resp.Body.Read(buf)
		body = append(body, buf[:n]...)
		if err != nil && len(body) <= headerLen {
			t.Fatalf("no audio while the model held the second chunk (%v): not streamed", err)
		}
	}
	if !timer.Stop() {
		t.Fatal("no audio while the model held the second chunk: not streamed")
	}
	release()
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read stream: %v", err)
	}
	return append(body, rest...)
}

func TestInvocationStreamsFirstAudioBeforeSynthesisEnds(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
	h.waitReady()
	text := "The first sentence is short. The second one is a little longer. And a third to finish."
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q,"request_id":"r-1"}`, text))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, readAll(t, resp))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "audio/wav" {
		t.Errorf("Content-Type = %q", ct)
	}
	if id := resp.Header.Get(api.HeaderRequestID); id != "r-1" {
		t.Errorf("%s = %q, want the client's request_id", api.HeaderRequestID, id)
	}
	// Three chunks; the model holds the second until the first chunk's audio has arrived.
	body := streamedBeforeTheEnd(t, resp, audio.WAVHeaderSize, func() { close(hold) })
	hd, err := audio.ParseWAVHeader(body)
	if err != nil {
		t.Fatal(err)
	}
	if hd.DataBytes != audio.UnknownSize || binary.LittleEndian.Uint32(body[4:8]) != audio.UnknownSize {
		t.Errorf("streamed WAV sizes = %#x / %#x, want 0xFFFFFFFF in both", binary.LittleEndian.Uint32(body[4:8]), hd.DataBytes)
	}
	if got, want := len(body)-audio.WAVHeaderSize, 2*wantSamples(text); got != want {
		t.Errorf("PCM bytes = %d, want %d", got, want)
	}
}

func TestNonStreamingReturnsCompleteWAVWithHeaders(t *testing.T) {
	t.Parallel()
	const chunkDelay = 60 * time.Millisecond
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, chunkDelay })
	h.waitReady()
	text := "One. Two words."
	start := time.Now()
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q,"stream":false,"speed":1.5}`, text))
	body := readAll(t, resp)
	took := time.Since(start)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	hd, err := audio.ParseWAVHeader(body)
	if err != nil {
		t.Fatal(err)
	}
	if int(hd.DataBytes) != len(body)-audio.WAVHeaderSize || int(hd.DataBytes) != 2*wantSamples(text) {
		t.Errorf("data size %d, body %d, want %d PCM bytes", hd.DataBytes, len(body), 2*wantSamples(text))
	}
	if cl := resp.ContentLength; cl != int64(len(body)) {
		t.Errorf("Content-Length %d, body %d", cl, len(body))
	}
	wantDur := fmt.Sprintf("%.3f", float64(wantSamples(text))/api.SampleRate)
	if got := resp.Header.Get(api.HeaderAudioDur); got != wantDur {
		t.Errorf("%s = %q, want %s", api.HeaderAudioDur, got, wantDur)
	}
	if resp.Header.Get(api.HeaderRequestID) == "" {
		t.Errorf("missing header %s", api.HeaderRequestID)
	}
	// Two chunks on one slot take at least two chunk delays, and the server cannot have spent
	// longer than the client waited; the real-time factor is that time over the audio's.
	inferMs, err := strconv.ParseFloat(resp.Header.Get(api.HeaderInferenceMs), 64)
	if err != nil || inferMs < 2*ms(chunkDelay) || inferMs > ms(took) {
		t.Errorf("%s = %q, want between %.0f ms (two chunks) and %.0f ms (the client's wait)",
			api.HeaderInferenceMs, resp.Header.Get(api.HeaderInferenceMs), 2*ms(chunkDelay), ms(took))
	}
	rtf, err := strconv.ParseFloat(resp.Header.Get(api.HeaderRTF), 64)
	if want := inferMs / 1000 / (float64(wantSamples(text)) / api.SampleRate); err != nil || math.Abs(rtf-want) > 0.001+0.002*want {
		t.Errorf("%s = %q, want %s / %s = %.4f", api.HeaderRTF, resp.Header.Get(api.HeaderRTF), api.HeaderInferenceMs, api.HeaderAudioDur, want)
	}
}

func TestRawPCMFormat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	for _, stream := range []bool{true, false} {
		resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":"Raw audio please.","format":"pcm","stream":%v}`, stream))
		body := readAll(t, resp)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "audio/pcm") {
			t.Fatalf("stream=%v: %d %s", stream, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if len(body) != 2*wantSamples("Raw audio please.") || bytes.HasPrefix(body, []byte("RIFF")) {
			t.Errorf("stream=%v: %d bytes (RIFF %v), want %d bytes of bare PCM", stream, len(body), bytes.HasPrefix(body, []byte("RIFF")), 2*wantSamples("Raw audio please."))
		}
	}
}

func TestOpenAISpeechReturnsPlayableWAV(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	for _, stream := range []bool{true, false} {
		body := fmt.Sprintf(`{"model":"tts-1","input":"Hello from the speech route.","voice":"af_bella(2)+am_adam(1)","response_format":"wav","speed":1.0,"stream":%v}`, stream)
		resp := post(t, client(t), h.url+api.RouteOpenAISpeech, body)
		b := readAll(t, resp)
		if resp.StatusCode != 200 {
			t.Fatalf("stream=%v: %d %s", stream, resp.StatusCode, b)
		}
		hd, err := audio.ParseWAVHeader(b)
		if err != nil {
			t.Fatal(err)
		}
		if hd.SampleRate != 24000 || hd.Channels != 1 || len(b)-audio.WAVHeaderSize != 2*wantSamples("Hello from the speech route.") {
			t.Errorf("stream=%v: %+v with %d bytes", stream, hd, len(b))
		}
		if !stream && int(hd.DataBytes) != len(b)-audio.WAVHeaderSize {
			t.Errorf("complete WAV declares %d data bytes, has %d", hd.DataBytes, len(b)-audio.WAVHeaderSize)
		}
	}
}

func TestVoicesRoute(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp, err := client(t).Get(h.url + api.RouteOpenAIVoices)
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Voices []string }
	if err := json.Unmarshal(readAll(t, resp), &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Voices, ",") != strings.Join(testVoices, ",") {
		t.Errorf("voices = %v, want %v", got.Voices, testVoices)
	}
}

func TestBadInputGetsA4xxAndNoModelWork(t *testing.T) {
	t.Parallel()
	h := newHarness(t, maxTextChars(100), func(c *Config, _ *fakeSynth) { c.MaxBodyBytes = 2048 })
	h.waitReady()
	stale := float64(time.Now().Add(-2 * time.Minute).Unix())
	fresh := float64(time.Now().Unix())
	cases := []struct {
		name, method, route, body string
		status                    int
		code, msg                 string
	}{
		{"missing text", "POST", api.RouteInvocations, `{"voice":"af_heart"}`, 400, "empty_text", "text"},
		{"blank text", "POST", api.RouteInvocations, `{"text":"   "}`, 400, "empty_text", "blank"},
		{"malformed JSON", "POST", api.RouteInvocations, `{"text":"hi"`, 400, "invalid_json", "malformed"},
		{"not an object", "POST", api.RouteInvocations, `["hi"]`, 400, "invalid_json", "object"},
		{"empty body", "POST", api.RouteInvocations, ``, 400, "invalid_json", "empty"},
		{"trailing data", "POST", api.RouteInvocations, `{"text":"hi"} {"text":"again"}`, 400, "invalid_json", "trailing"},
		{"wrong field type", "POST", api.RouteInvocations, `{"text":42}`, 400, "invalid_json", "string"},
		{"oversized body", "POST", api.RouteInvocations, `{"text":"` + strings.Repeat("a", 4096) + `"}`, 413, "body_too_large", "2048 bytes"},
		{"text over the limit", "POST", api.RouteInvocations, `{"text":"` + strings.Repeat("a", 101) + `"}`, 413, "text_too_long", "limit is 100"},
		{"unknown voice", "POST", api.RouteInvocations, `{"text":"hi","voice":"zz_nobody"}`, 400, "unknown_voice", "af_heart, af_bella, am_adam"},
		{"unknown voice in blend", "POST", api.RouteInvocations, `{"text":"hi","voice":"af_bella+zz_x"}`, 400, "unknown_voice", "zz_x"},
		{"speed zero", "POST", api.RouteInvocations, `{"text":"hi","speed":0}`, 400, "invalid_speed", "[0.5, 2]"},
		{"speed too high", "POST", api.RouteInvocations, `{"text":"hi","speed":2.5}`, 400, "invalid_speed", "2.5"},
		{"unsupported format", "POST", api.RouteInvocations, `{"text":"hi","format":"ogg"}`, 400, "unsupported_format", "mp3, opus, flac, wav, pcm, mulaw, alaw"},
		{"unsupported lang", "POST", api.RouteInvocations, `{"text":"hi","lang":"de"}`, 400, "unsupported_lang", "en-us, en-gb, es, fr-fr, hi, it, pt-br, ja, zh"},
		{"lang Kokoro does not speak", "POST", api.RouteInvocations, `{"text":"hi","lang":"ko"}`, 400, "unsupported_lang", `"ko"; supported: en-us`},
		{"stale request", "POST", api.RouteInvocations, fmt.Sprintf(`{"text":"hi","request_timestamp":%v}`, stale), 408, api.ErrRequestStale, "limit is 56 s"},
		{"wrong method", "GET", api.RouteInvocations, ``, 405, "method_not_allowed", "use POST"},
		{"wrong method on ping", "POST", api.RoutePing, `{}`, 405, "method_not_allowed", "use GET"},
		{"wrong method on speech", "PUT", api.RouteOpenAISpeech, `{}`, 405, "method_not_allowed", "use POST"},
		{"speech: empty input", "POST", api.RouteOpenAISpeech, `{"model":"tts-1","input":"","voice":"af_heart"}`, 400, "empty_text", "text"},
		{"speech: unknown model", "POST", api.RouteOpenAISpeech, `{"model":"whisper-1","input":"hi","voice":"af_heart"}`, 400, "unsupported_model", "tts-1"},
		{"speech: aac", "POST", api.RouteOpenAISpeech, `{"model":"tts-1","input":"hi","voice":"af_heart","response_format":"aac"}`, 400, "unsupported_format", "no encoder"},
		{"speech: speed", "POST", api.RouteOpenAISpeech, `{"model":"tts-1","input":"hi","voice":"af_heart","speed":4.5}`, 400, "invalid_speed", "[0.25, 4]"},
		{"unknown field", "POST", api.RouteInvocations, `{"text":"hi","voice_name":"af_bella"}`, 400, api.ErrUnknownField, `"voice_name"; the fields are text, voice,`},
		{"speech: unknown field", "POST", api.RouteOpenAISpeech, `{"input":"hi","sample_rate_hz":16000}`, 400, api.ErrUnknownField, `"sample_rate_hz"; the fields are model, input,`},
		{"captioned: unknown field", "POST", api.RouteCaptionedSpeech, `{"input":"hi","captions":"srt"}`, 400, api.ErrUnknownField, `"captions"`},
		{"sample rate", "POST", api.RouteInvocations, `{"text":"hi","sample_rate":11025}`, 400, api.ErrUnsupportedSampleRate, "8000, 16000, 22050, 24000, 44100, 48000"},
		{"mulaw at 16 kHz", "POST", api.RouteInvocations, `{"text":"hi","format":"mulaw","sample_rate":16000}`, 400, api.ErrUnsupportedSampleRate, "mulaw is offered at 8000"},
		{"speech: mp3 at 8 kHz", "POST", api.RouteOpenAISpeech, `{"input":"hi","sample_rate":8000}`, 400, api.ErrUnsupportedSampleRate, "mp3 is offered at 16000"},
		{"captioned: opus at 44.1 kHz", "POST", api.RouteCaptionedSpeech, `{"input":"hi","response_format":"opus","sample_rate":44100}`, 400, api.ErrUnsupportedSampleRate, "8000, 16000, 24000, 48000"},
		{"unknown route", "GET", "/nope", ``, 404, "not_found", "/nope"},
		{"plain GET on the stream route", "GET", api.RouteBidiStream, ``, 400, "websocket_required", "WebSocket"},
	}
	c := client(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, h.url+tc.route, strings.NewReader(tc.body))
			resp, err := c.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			e := decodeError(t, readAll(t, resp))
			if resp.StatusCode != tc.status || e.Error != tc.code || !strings.Contains(e.Message, tc.msg) {
				t.Errorf("%s: %d %q %q, want %d %q containing %q", tc.name, resp.StatusCode, e.Error, e.Message, tc.status, tc.code, tc.msg)
			}
			if tc.status == 405 && resp.Header.Get("Allow") == "" {
				t.Errorf("%s: 405 without Allow", tc.name)
			}
			if tc.code == "unknown_voice" && len(e.Valid) != len(testVoices) {
				t.Errorf("%s: valid = %v", tc.name, e.Valid)
			}
		})
	}
	// A fresh timestamp passes the same check.
	resp := post(t, c, h.url+api.RouteInvocations, fmt.Sprintf(`{"text":"hi","request_timestamp":%v}`, fresh))
	if readAll(t, resp); resp.StatusCode != 200 {
		t.Errorf("fresh request_timestamp: %d", resp.StatusCode)
	}
	if calls := h.syn.calls.Load(); calls != 1 {
		t.Errorf("the model ran %d chunks; only the one valid request should have reached it", calls)
	}
	m := h.srv.Metrics()
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelInvocations, OutcomeStale)); got != 1 {
		t.Errorf("stale requests counted = %v, want 1", got)
	}
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelSpeech, OutcomeClientError)); got != 6 {
		t.Errorf("speech client errors counted = %v, want 6", got)
	}
}

package server

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
)

// Item 1: every format an OpenAI client may ask for, on the speech route and on
// /invocations, streamed and complete, with its content type, decodes back to the audio.
func TestEveryFormatDecodesWithItsContentType(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	text := "Every format. Streamed and whole."
	want := wantSamples(text)
	types := map[string]string{
		"mp3": "audio/mpeg", "opus": "audio/ogg; codecs=opus", "flac": "audio/flac",
		"wav": "audio/wav", "pcm": "audio/pcm;rate=24000;channels=1;encoding=s16le",
	}
	for format, ctype := range types {
		for _, stream := range []bool{true, false} {
			for _, route := range []string{api.RouteOpenAISpeech, api.RouteInvocations} {
				body := fmt.Sprintf(`{"input":%q,"response_format":%q,"stream":%v}`, text, format, stream)
				if route == api.RouteInvocations {
					body = fmt.Sprintf(`{"text":%q,"format":%q,"stream":%v}`, text, format, stream)
				}
				resp := post(t, c, h.url+route, body)
				b := readAll(t, resp)
				name := fmt.Sprintf("%s %s stream=%v", route, format, stream)
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != ctype {
					t.Errorf("%s: %d %q, want 200 %q", name, resp.StatusCode, resp.Header.Get("Content-Type"), ctype)
					continue
				}
				if !stream && resp.ContentLength != int64(len(b)) {
					t.Errorf("%s: Content-Length %d for %d bytes", name, resp.ContentLength, len(b))
				}
				got := len(codectest.Decode(t, format, b))
				if got < want || got > want+3*1152 { // MP3 adds the encoder's delay and padding
					t.Errorf("%s: %d samples decoded, want %d", name, got, want)
				}
			}
		}
	}
}

// Item 1: a request with no response_format gets mp3, as OpenAI's API answers, and it streams:
// the first MP3 frames leave before the last sentence is synthesized.
func TestSpeechDefaultsToStreamedMP3(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
	h.waitReady()
	resp := post(t, client(t), h.url+api.RouteOpenAISpeech, `{"model":"tts-1","input":"One sentence here. And a second one. And a third.","voice":"shimmer"}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "audio/mpeg" {
		t.Fatalf("%d %q, want 200 audio/mpeg", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	b := streamedBeforeTheEnd(t, resp, 0, func() { close(hold) })
	if len(b) < 4 || b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		t.Fatalf("body does not start with an MP3 frame: % x", b[:min(4, len(b))])
	}
	codectest.Decode(t, api.FormatMP3, b)
}

// Item 1: AAC has no encoder here; the refusal says so and lists what there is.
func TestAACIsRefusedClearly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp := post(t, client(t), h.url+api.RouteOpenAISpeech, `{"input":"hi","response_format":"aac"}`)
	e := decodeError(t, readAll(t, resp))
	if resp.StatusCode != 400 || e.Error != api.ErrUnsupportedFormat || !strings.Contains(e.Message, "no encoder") ||
		strings.Join(e.Valid, ",") != "mp3,opus,flac,wav,pcm,mulaw,alaw" {
		t.Errorf("aac: %d %+v", resp.StatusCode, e)
	}
}

// Item 2: OpenAI's voice names speak with the Kokoro voices they map to, /v1/audio/voices
// lists the mapping, and a server can be given its own.
func TestOpenAIVoiceNames(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, _ *fakeSynth) {
		c.VoiceAliases = map[string]string{"alloy": "af_bella", "echo": "am_adam(2)+af_heart(1)", "onyx": "zz_missing"}
	})
	h.waitReady()
	c := client(t)
	for voice, status := range map[string]int{"alloy": 200, "Echo": 200, "onyx": 400, "nova": 400} {
		resp := post(t, c, h.url+api.RouteOpenAISpeech, fmt.Sprintf(`{"input":"hi","voice":%q,"response_format":"pcm"}`, voice))
		if readAll(t, resp); resp.StatusCode != status {
			t.Errorf("voice %s: %d, want %d", voice, resp.StatusCode, status)
		}
	}
	resp, err := c.Get(h.url + api.RouteOpenAIVoices)
	if err != nil {
		t.Fatal(err)
	}
	var vl api.VoiceList
	if err := json.Unmarshal(readAll(t, resp), &vl); err != nil {
		t.Fatal(err)
	}
	if vl.Aliases["alloy"] != "af_bella" || vl.Aliases["echo"] != "am_adam(2)+af_heart(1)" || len(vl.Voices) != len(testVoices) {
		t.Errorf("voices = %+v", vl)
	}
}

// Item 3: /v1/models and /v1/models/{id} answer as OpenAI's API does.
func TestModelsRoute(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	resp, err := c.Get(h.url + api.RouteOpenAIModels)
	if err != nil {
		t.Fatal(err)
	}
	var list api.ModelList
	if err := json.Unmarshal(readAll(t, resp), &list); err != nil || list.Object != "list" || len(list.Data) != len(openAIModels) {
		t.Fatalf("models = %+v, %v", list, err)
	}
	for _, m := range list.Data {
		if m.Object != "model" || m.OwnedBy == "" {
			t.Errorf("model %+v", m)
		}
	}
	resp, _ = c.Get(h.url + api.RouteOpenAIModels + "/tts-1")
	var m api.Model
	if err := json.Unmarshal(readAll(t, resp), &m); err != nil || resp.StatusCode != 200 || m.ID != "tts-1" {
		t.Errorf("tts-1: %d %+v %v", resp.StatusCode, m, err)
	}
	resp, _ = c.Get(h.url + api.RouteOpenAIModels + "/whisper-1")
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 404 || e.Error != api.ErrNotFound {
		t.Errorf("whisper-1: %d %+v", resp.StatusCode, e)
	}
}

// Item 3: speed across OpenAI's range is accepted and clamped to what the model speaks well;
// instructions are accepted; stream_format "sse" answers with base64 audio deltas and a done
// event; another stream_format is refused.
func TestSpeechSpeedInstructionsAndSSE(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	for _, speed := range []float64{0.25, 4} {
		resp := post(t, c, h.url+api.RouteOpenAISpeech, fmt.Sprintf(`{"input":"hi","speed":%v,"instructions":"Whisper.","response_format":"pcm"}`, speed))
		if readAll(t, resp); resp.StatusCode != 200 {
			t.Errorf("speed %v: %d", speed, resp.StatusCode)
		}
	}
	if got := h.syn.lastSpeed(); got != 2 {
		t.Errorf("speed 4 reached the model as %v, want 2", got)
	}
	text := "Events carry audio. Two of them."
	resp := post(t, c, h.url+api.RouteOpenAISpeech, fmt.Sprintf(`{"input":%q,"response_format":"pcm","stream_format":"sse"}`, text))
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("sse: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var pcm []byte
	var types []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev api.SpeechAudioEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		types = append(types, ev.Type)
		b, err := base64.StdEncoding.DecodeString(ev.Audio)
		if err != nil {
			t.Fatal(err)
		}
		pcm = append(pcm, b...)
	}
	if n := len(types); n < 3 || types[n-1] != api.SSETypeAudioDone || types[0] != api.SSETypeAudioDelta {
		t.Errorf("events %v, want deltas then one done", types)
	}
	if len(pcm) != 2*wantSamples(text) {
		t.Errorf("sse audio: %d bytes, want %d", len(pcm), 2*wantSamples(text))
	}
	resp = post(t, c, h.url+api.RouteOpenAISpeech, `{"input":"hi","stream_format":"chunks"}`)
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 400 || e.Error != api.ErrUnsupportedStream {
		t.Errorf("stream_format chunks: %d %+v", resp.StatusCode, e)
	}
}

// Item 4: the OpenAI route's wav is complete by default, so its header holds the real sizes;
// a wav streamed on request says "unknown" (0xFFFFFFFF) as the streaming contract does.
func TestSpeechWAVHeaderHasRealSizes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	text := "Sizes that are true."
	for stream, want := range map[string]uint32{"": uint32(2 * wantSamples(text)), `,"stream":true`: audio.UnknownSize} {
		resp := post(t, c, h.url+api.RouteOpenAISpeech, fmt.Sprintf(`{"input":%q,"response_format":"wav"%s}`, text, stream))
		b := readAll(t, resp)
		hd, err := audio.ParseWAVHeader(b)
		if err != nil || hd.DataBytes != want {
			t.Errorf("stream %q: data size %#x (%v), want %#x", stream, hd.DataBytes, err, want)
		}
	}
}

// Item 10: invalid UTF-8 is refused rather than read as "replacement character", and text in
// scripts the voices cannot read is refused when nothing else is left, before model work.
func TestUnspeakableTextOverHTTP(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	for _, body := range []string{"{\"text\":\"caf\xe9\"}", `{"text":"😀🎉"}`, `{"text":"你好世界"}`, `{"text":"مرحبا بالعالم"}`, `{"text":"\ufffd"}`} {
		t.Run(caseName(body), func(t *testing.T) {
			resp := post(t, c, h.url+api.RouteInvocations, body)
			e := decodeError(t, readAll(t, resp))
			if resp.StatusCode != 400 || (e.Error != api.ErrEmptyText && e.Error != api.ErrInvalidJSON) {
				t.Errorf("%q: %d %+v", body, resp.StatusCode, e)
			}
		})
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks for text with nothing speakable", n)
	}
	// Mixed text keeps what can be spoken.
	resp := post(t, c, h.url+api.RouteInvocations, `{"text":"Hello 世界 😀","format":"pcm"}`)
	if b := readAll(t, resp); resp.StatusCode != 200 || len(b) != 2*wantSamples("Hello") {
		t.Errorf("mixed text: %d, %d bytes, want %d", resp.StatusCode, len(b), 2*wantSamples("Hello"))
	}
}

func (f *fakeSynth) lastSpeed() float32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.speed
}

// A wav asked for as a stream, by stream or by stream_format "audio", leaves as it is
// synthesized: its header and first samples arrive while the model still holds the rest.
func TestSpeechWAVStreamsOnRequest(t *testing.T) {
	t.Parallel()
	for _, ask := range []string{`"stream":true`, `"stream_format":"audio"`} {
		t.Run(ask, func(t *testing.T) {
			t.Parallel()
			hold := make(chan struct{})
			h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
			h.waitReady()
			text := "One sentence here. And a second one. And a third."
			resp := post(t, client(t), h.url+api.RouteOpenAISpeech, fmt.Sprintf(`{"input":%q,"response_format":"wav",%s}`, text, ask))
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "audio/wav" {
				t.Fatalf("%d %q, want 200 audio/wav", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			b := streamedBeforeTheEnd(t, resp, api.StreamingWAVHeader, func() { close(hold) })
			hd, err := audio.ParseWAVHeader(b)
			if err != nil || hd.DataBytes != audio.UnknownSize || len(b) != api.StreamingWAVHeader+2*wantSamples(text) {
				t.Errorf("data size %#x (%v), %d bytes; want a streamed header and %d samples", hd.DataBytes, err, len(b), wantSamples(text))
			}
		})
	}
}

package server

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
)

const rateText = "One two three. Four five six seven. Eight."

// resampled is the model-rate audio ref converted offline to rate, in one piece.
func resampled(t *testing.T, ref []float32, rate int) []float32 {
	t.Helper()
	r, err := audio.NewResampler(api.SampleRate, rate)
	if err != nil {
		t.Fatal(err)
	}
	return r.Flush(r.Write(nil, ref))
}

// closeTo fails unless got is want to within tol, sample by sample, and as long.
func closeTo(t *testing.T, name string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d samples, want %d", name, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); d > tol {
			t.Fatalf("%s: sample %d is %v, want %v", name, i, got[i], want[i])
		}
	}
}

// Every HTTP route answers at the rate asked for, in every format offered at it: the audio is
// the model's converted by the band-limited resampler (the same samples as converting the
// whole 24 kHz answer at once, to the last sample: streaming in chunks changes nothing), its
// length is the model's audio's duration to the sample, and the headers name the rate.
func TestSampleRatesOnEveryHTTPRoute(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAllVoices)
	h.waitReady()
	c := client(t)
	ref := codectest.Decode(t, api.FormatPCM, readAll(t, post(t, c, h.url+api.RouteInvocations, `{"text":"`+rateText+`","format":"pcm"}`)))
	const lsb = 1.0 / 32767
	cases := []struct {
		route, body, format, contentType string
		rate                             int
	}{
		{api.RouteInvocations, `{"text":%q,"format":"pcm","sample_rate":8000}`, "pcm", "audio/pcm;rate=8000;channels=1;encoding=s16le", 8000},
		{api.RouteInvocations, `{"text":%q,"format":"pcm","sample_rate":16000}`, "pcm", "audio/pcm;rate=16000;channels=1;encoding=s16le", 16000},
		{api.RouteInvocations, `{"text":%q,"format":"wav","sample_rate":22050}`, "wav", "audio/wav", 22050},
		{api.RouteInvocations, `{"text":%q,"format":"wav","sample_rate":44100,"stream":false}`, "wav", "audio/wav", 44100},
		{api.RouteInvocations, `{"text":%q,"format":"mulaw"}`, "mulaw", "audio/PCMU;rate=8000", 8000},
		{api.RouteInvocations, `{"text":%q,"format":"alaw","sample_rate":8000}`, "alaw", "audio/PCMA;rate=8000", 8000},
		{api.RouteInvocations, `{"text":%q,"format":"flac","sample_rate":16000}`, "flac", "audio/flac", 16000},
		{api.RouteOpenAISpeech, `{"input":%q,"response_format":"pcm","sample_rate":16000}`, "pcm", "audio/pcm;rate=16000;channels=1;encoding=s16le", 16000},
		{api.RouteOpenAISpeech, `{"input":%q,"response_format":"wav","sample_rate":48000}`, "wav", "audio/wav", 48000},
		{api.RouteOpenAISpeech, `{"input":%q,"response_format":"mulaw"}`, "mulaw", "audio/PCMU;rate=8000", 8000},
		{api.RouteOpenAISpeech, `{"input":%q,"response_format":"pcm","sample_rate":24000}`, "pcm", "audio/pcm;rate=24000;channels=1;encoding=s16le", 24000},
	}
	for _, tc := range cases {
		body := fmt.Sprintf(tc.body, rateText)
		t.Run(tc.route+" "+body[strings.Index(body, ",")+1:], func(t *testing.T) {
			t.Parallel()
			resp := post(t, c, h.url+tc.route, body)
			b := readAll(t, resp)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tc.contentType {
				t.Fatalf("%d %q: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
			}
			got := codectest.DecodeAt(t, tc.format, b, tc.rate)
			want := resampled(t, ref, tc.rate)
			if d := math.Abs(float64(len(got))/float64(tc.rate) - float64(len(ref))/api.SampleRate); d > 1.0/float64(tc.rate) {
				t.Errorf("%d samples at %d Hz last %.5f s, the model's audio %.5f s", len(got), tc.rate, float64(len(got))/float64(tc.rate), float64(len(ref))/api.SampleRate)
			}
			switch tc.format {
			case "mulaw", "alaw":
				// G.711's step is a 16th to a 32nd of the magnitude (and 8 to 16 LSB at the
				// bottom), on top of the one-LSB difference of the reference's PCM16.
				if len(got) != len(want) {
					t.Fatalf("%d samples, want %d", len(got), len(want))
				}
				for i := range got {
					if d := math.Abs(float64(got[i] - want[i])); d > math.Abs(float64(want[i]))/16+16*lsb {
						t.Fatalf("sample %d is %v, want %v", i, got[i], want[i])
					}
				}
			default:
				// The reference went through PCM16 once more than the answer did.
				closeTo(t, tc.format, got, want, 2*lsb)
			}
		})
	}
}

// timedAnswer reads a streamed /invocations timestamps answer: its PCM, its words, and the
// done event's total.
func timedAnswer(t *testing.T, h *harness, body string) (pcm []byte, words []api.Word, total int) {
	t.Helper()
	resp := post(t, client(t), h.url+api.RouteInvocations, body)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%d: %s", resp.StatusCode, readAll(t, resp))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev api.InvocationEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == api.EventDone {
			return pcm, words, ev.Samples
		}
		b, err := base64.StdEncoding.DecodeString(ev.Audio)
		if err != nil || ev.Offset != len(pcm)/2 || ev.Samples != len(b)/2 {
			t.Fatalf("event at %d with %d samples in %d bytes (%v), want offset %d", ev.Offset, ev.Samples, len(b), err, len(pcm)/2)
		}
		pcm = append(pcm, b...)
		words = append(words, ev.Words...)
	}
	t.Fatal("no done event")
	return nil, nil, 0
}

// Word times stay on the words in resampled audio: each word's sample is its place at the
// model's rate mapped to the new rate, its milliseconds are the model-rate times to within
// half a sample of the new rate, and the totals agree with the audio sent.
func TestWordTimesAtEveryRate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	_, ref, refTotal := timedAnswer(t, h, `{"text":"`+rateText+`","format":"pcm","timestamps":true}`)
	if len(ref) != len(strings.Fields(rateText)) {
		t.Fatalf("%d words at the model's rate", len(ref))
	}
	for _, rate := range api.SampleRates() {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			t.Parallel()
			pcm, words, total := timedAnswer(t, h, fmt.Sprintf(`{"text":%q,"format":"pcm","sample_rate":%d,"timestamps":true}`, rateText, rate))
			r, _ := audio.NewResampler(api.SampleRate, rate)
			if total != len(pcm)/2 || total != r.Len(refTotal) {
				t.Errorf("done says %d samples, %d sent, want %d", total, len(pcm)/2, r.Len(refTotal))
			}
			if len(words) != len(ref) {
				t.Fatalf("%d words, want %d", len(words), len(ref))
			}
			half := 500.0 / float64(rate)
			for i, w := range words {
				m := ref[i]
				if w.Word != m.Word || w.Index != i || w.Start != r.Pos(m.Start) || w.End != r.Pos(m.End) ||
					math.Abs(w.StartMS-m.StartMS) > half+1e-9 || math.Abs(w.EndMS-m.EndMS) > half+1e-9 {
					t.Errorf("word %d: %+v, want %+v at %d Hz", i, w, m, rate)
				}
			}
		})
	}
}

// A WebSocket utterance is framed in the encoding and at the rate its first message asks: its
// bytes are the model's audio converted, and its audio messages count samples at that rate. A
// rate or format the socket does not offer, or a field it does not know, is an error message
// and the session goes on.
func TestWebSocketRatesAndEncodings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	conn := dialWS(t, h)
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: rateText, RequestID: "ref", Timestamps: true})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: rateText, RequestID: "tel", Timestamps: true, Format: "mulaw", SampleRate: ptr(8000)})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: rateText, RequestID: "wide", Format: "PCM", SampleRate: ptr(16000)})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: "hi", RequestID: "bad-rate", SampleRate: ptr(11025)})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: "hi", RequestID: "bad-format", Format: "mp3"})
	if err := conn.WriteMessage(websocket.TextMessage, []byte(`{"text":"hi","request_id":"bad-field","voice_name":"af_bella"}`)); err != nil {
		t.Fatal(err)
	}
	audioOf := map[string][]byte{}
	var msgs []api.WSServerMessage
	current, ends := "", 0
	for ends < 6 {
		_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
		mt, b, err := conn.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if mt == websocket.BinaryMessage {
			audioOf[current] = append(audioOf[current], b...)
			continue
		}
		var m api.WSServerMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
		switch m.Type {
		case api.WSTypeSynthesisStart:
			current = m.RequestID
		case api.WSTypeSynthesisComplete, api.WSTypeError:
			ends++
		}
	}
	codes := map[string]string{}
	var refWords, telWords []api.Word
	telAt := 0
	for _, m := range msgs {
		switch {
		case m.Type == api.WSTypeError:
			codes[m.RequestID] = m.Code
		case m.Type == api.WSTypeAudio && m.RequestID == "ref":
			refWords = append(refWords, m.Words...)
		case m.Type == api.WSTypeAudio && m.RequestID == "tel":
			if *m.Offset != telAt {
				t.Errorf("tel: audio message at %d, want %d", *m.Offset, telAt)
			}
			telAt += *m.Samples
			telWords = append(telWords, m.Words...)
		}
	}
	for id, code := range map[string]string{"bad-rate": api.ErrUnsupportedSampleRate, "bad-format": api.ErrUnsupportedFormat, "bad-field": api.ErrUnknownField} {
		if codes[id] != code {
			t.Errorf("%s: error %q, want %q", id, codes[id], code)
		}
	}
	ref := codectest.Decode(t, api.FormatPCM, audioOf["ref"])
	tel := codectest.DecodeAt(t, api.FormatMulaw, audioOf["tel"], 8000)
	want := resampled(t, ref, 8000)
	if len(tel) != len(want) || telAt != len(tel) {
		t.Fatalf("tel: %d bytes of μ-law, %d samples in its audio messages, want %d", len(tel), telAt, len(want))
	}
	closeTo(t, "wide", codectest.DecodeAt(t, api.FormatPCM, audioOf["wide"], 16000), resampled(t, ref, 16000), 2.0/32767)
	r, _ := audio.NewResampler(api.SampleRate, 8000)
	if len(telWords) == 0 {
		t.Fatal("tel: no words")
	}
	seen := map[int]bool{}
	for _, w := range telWords {
		if seen[w.Index] {
			continue // a word two frames share is named by both
		}
		seen[w.Index] = true
		m := refWords[slicesIndex(refWords, w.Index)]
		if w.Start != r.Pos(m.Start) || w.End != r.Pos(m.End) || math.Abs(w.StartMS-m.StartMS) > 500.0/8000+1e-9 {
			t.Errorf("tel word %+v, want %+v at 8 kHz", w, m)
		}
	}
	if len(seen) != len(strings.Fields(rateText)) {
		t.Errorf("tel: %d words, want %d", len(seen), len(strings.Fields(rateText)))
	}
}

// slicesIndex is the position of the word with index i in ws.
func slicesIndex(ws []api.Word, i int) int {
	for k, w := range ws {
		if w.Index == i {
			return k
		}
	}
	return -1
}

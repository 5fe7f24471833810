package server

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
)

// checkWords asserts that words are text's words, in order, indexed from 0, each inside the
// audio of samples and after the one before it.
func checkWords(t *testing.T, text string, words []api.Word, samples int) {
	t.Helper()
	var got []string
	end := 0
	for i, w := range words {
		got = append(got, w.Word)
		if w.Index != i || w.Start < end || w.End <= w.Start || w.End > samples {
			t.Errorf("word %d %+v: want index %d, after sample %d, inside %d samples", i, w, i, end, samples)
		}
		if w.StartMS != api.SamplesMS(w.Start) || w.EndMS != api.SamplesMS(w.End) {
			t.Errorf("word %+v: milliseconds disagree with samples", w)
		}
		end = w.End
	}
	if want := strings.Fields(text); !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}

// POST /invocations with timestamps streams newline-delimited JSON events: each audio event's
// words lie in the samples it carries, the offsets run on without a gap, and a done event
// closes the stream with the totals and the captions asked for.
func TestInvocationTimestampsStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	text := "One two three. Four five six seven. Eight."
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"`+text+`","format":"pcm","timestamps":true,"captions":"vtt"}`)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != api.EventsContentType {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var words []api.Word
	var done *api.InvocationEvent
	at := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev api.InvocationEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if done != nil {
			t.Fatalf("a line after done: %q", sc.Text())
		}
		switch ev.Type {
		case api.EventAudio:
			pcm, err := base64.StdEncoding.DecodeString(ev.Audio)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Offset != at || ev.Samples != len(pcm)/2 {
				t.Fatalf("event at %d with %d samples in %d bytes, want offset %d", ev.Offset, ev.Samples, len(pcm), at)
			}
			for _, w := range ev.Words {
				if w.Start < ev.Offset || w.End > ev.Offset+ev.Samples {
					t.Errorf("word %+v outside its event's samples [%d,%d)", w, ev.Offset, ev.Offset+ev.Samples)
				}
			}
			words = append(words, ev.Words...)
			at += ev.Samples
		case api.EventDone:
			done = &ev
		default:
			t.Fatalf("event type %q", ev.Type)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if done == nil || done.Samples != at || done.WordsN == nil || *done.WordsN != len(words) {
		t.Fatalf("done %+v after %d samples and %d words", done, at, len(words))
	}
	if at != wantSamples(text) {
		t.Errorf("%d samples, want %d", at, wantSamples(text))
	}
	checkWords(t, text, words, at)
	if c := done.Captions; c == nil || !strings.HasPrefix(*c, "WEBVTT\n\n00:00:00.") || !strings.Contains(*c, "\nOne two three.\n") || !strings.Contains(*c, "\nEight.\n") {
		t.Errorf("captions %v", done.Captions)
	}
}

// With "stream": false the answer is one JSON object: the complete file with its exact header,
// every word, and the captions.
func TestInvocationTimestampsComplete(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	text := "One two three. Four five."
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"`+text+`","stream":false,"timestamps":true,"captions":"srt"}`)
	b := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	var got api.InvocationTimed
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	wav, err := base64.StdEncoding.DecodeString(got.Audio)
	if err != nil {
		t.Fatal(err)
	}
	hd, err := audio.ParseWAVHeader(wav)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(audio.DecodePCM16(wav[api.StreamingWAVHeader:])); got.Format != api.FormatWAV || got.Samples != n || n != wantSamples(text) || int(hd.DataBytes) != 2*n {
		t.Errorf("format %q, %d samples said, %d in the file (header %d bytes), want %d", got.Format, got.Samples, n, hd.DataBytes, wantSamples(text))
	}
	checkWords(t, text, got.Words, got.Samples)
	if c := got.Captions; c == nil || !strings.HasPrefix(*c, "1\n00:00:00,") || !strings.Contains(*c, "\n\n2\n") {
		t.Errorf("captions %v", got.Captions)
	}
}

// A caption format with no writer is refused before any model work.
func TestInvocationCaptionFormatRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"Hello.","captions":"ass"}`)
	e := decodeError(t, readAll(t, resp))
	if resp.StatusCode != http.StatusBadRequest || e.Error != api.ErrUnsupportedCaption || !slices.Equal(e.Valid, []string{"srt", "vtt"}) {
		t.Errorf("status %d, %+v", resp.StatusCode, e)
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks", n)
	}
}

// Kokoro-FastAPI's /dev/captioned_speech: its documented requests, answered in its shape.
func TestCaptionedSpeech(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	text := "Hello world! How are you?"
	// Complete: one object with audio, audio_format and timestamps in seconds.
	resp := post(t, c, h.url+api.RouteCaptionedSpeech, `{"model":"kokoro","input":"`+text+`","voice":"af_bella","speed":1.0,"response_format":"pcm","stream":false}`)
	b := readAll(t, resp)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(b, &whole); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"audio", "audio_format", "timestamps"} {
		if _, ok := whole[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	var one api.CaptionedSpeechResponse
	if err := json.Unmarshal(b, &one); err != nil {
		t.Fatal(err)
	}
	pcm, _ := base64.StdEncoding.DecodeString(one.Audio)
	if len(pcm)/2 != wantSamples(text) || !strings.HasPrefix(one.AudioFormat, "audio/pcm") {
		t.Errorf("%d samples of %q, want %d", len(pcm)/2, one.AudioFormat, wantSamples(text))
	}
	var got []string
	prev := 0.0
	for _, w := range one.Timestamps {
		got = append(got, w.Word)
		if w.StartTime < prev || w.EndTime <= w.StartTime || w.EndTime > float64(len(pcm)/2)/api.SampleRate {
			t.Errorf("timestamp %+v after %v", w, prev)
		}
		prev = w.EndTime
	}
	if !slices.Equal(got, strings.Fields(text)) {
		t.Errorf("words %q", got)
	}

	// Streamed (the default): one object a line, read with a line reader; mp3 by default.
	resp = post(t, c, h.url+api.RouteCaptionedSpeech, `{"model":"kokoro","input":"`+text+`","voice":"af_bella","speed":1.0}`)
	defer resp.Body.Close()
	var mp3 []byte
	got = nil
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var piece api.CaptionedSpeechResponse
		if err := json.Unmarshal(sc.Bytes(), &piece); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		a, _ := base64.StdEncoding.DecodeString(piece.Audio)
		mp3 = append(mp3, a...)
		if piece.AudioFormat != "audio/mpeg" || piece.Timestamps == nil {
			t.Errorf("piece of %q with timestamps %v", piece.AudioFormat, piece.Timestamps)
		}
		for _, w := range piece.Timestamps {
			got = append(got, w.Word)
		}
	}
	if n := len(codectest.Decode(t, "mp3", mp3)); n < wantSamples(text) || n > wantSamples(text)+3*1152 {
		t.Errorf("%d samples of mp3, want %d", n, wantSamples(text))
	}
	if !slices.Equal(got, strings.Fields(text)) {
		t.Errorf("streamed words %q", got)
	}

	// return_timestamps false still answers the field, empty; volume_multiplier scales; the
	// reference pipeline's lang_code letters are understood.
	resp = post(t, c, h.url+api.RouteCaptionedSpeech, `{"input":"Hi.","response_format":"pcm","stream":false,"return_timestamps":false,"volume_multiplier":0.5,"lang_code":"b"}`)
	b = readAll(t, resp)
	if err := json.Unmarshal(b, &one); err != nil || resp.StatusCode != http.StatusOK || one.Timestamps == nil || len(one.Timestamps) != 0 {
		t.Errorf("status %d, %s", resp.StatusCode, b)
	}
	half, _ := base64.StdEncoding.DecodeString(one.Audio)
	if peak := peakPCM16(half); peak < 0.24 || peak > 0.26 {
		t.Errorf("peak %.3f at volume 0.5, want half the fake model's 0.5", peak)
	}

	for body, code := range map[string]string{
		`{"input":"Hi.","lang_code":"d"}`:          api.ErrUnsupportedLang,
		`{"input":"Hi.","volume_multiplier":-1}`:   api.ErrInvalidVolume,
		`{"input":"Hi.","speed":5}`:                api.ErrInvalidSpeed,
		`{"input":"Hi.","response_format":"aac"}`:  api.ErrUnsupportedFormat,
		`{"input":"","voice":"af_bella"}`:          api.ErrEmptyText,
		`{"input":"Hi.","model":"whisper-1"}`:      api.ErrUnsupportedModel,
		`{"input":"Hi.","voice":"zz_nobody"}`:      api.ErrUnknownVoice,
		`{"input":"Hi.","volume_multiplier":"x"}`:  api.ErrInvalidJSON,
		`{"input":"Hi.","return_timestamps":"no"}`: api.ErrInvalidJSON,
	} {
		resp := post(t, c, h.url+api.RouteCaptionedSpeech, body)
		if e := decodeError(t, readAll(t, resp)); resp.StatusCode != http.StatusBadRequest || e.Error != code {
			t.Errorf("%s: status %d, %+v, want 400 %s", body, resp.StatusCode, e, code)
		}
	}
}

func peakPCM16(b []byte) float64 {
	peak := 0.0
	for _, v := range audio.DecodePCM16(b) {
		peak = max(peak, float64(v), -float64(v))
	}
	return peak
}

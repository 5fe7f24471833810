package server

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestRealSpeechMarks: for twenty sentences written for this check, the real model's word
// marks lie within 50 ms (median) of where the offline recognizer's forced alignment puts the
// words in the same audio; each word and sentence mark's byte offsets slice the request's text
// to its value; visemes come in time order, each inside its word.
func TestRealSpeechMarks(t *testing.T) {
	testenv.LookPath(t, "pocketsphinx_continuous")
	rec, err := listen.Pocketsphinx()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../testdata/marks/sentences.txt")
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(texts) < 20 {
		t.Fatalf("%d sentences, want 20", len(texts))
	}
	h, _ := realHarness(t)
	var diffs []float64
	for _, text := range texts {
		body, _ := json.Marshal(map[string]any{"text": text, "voice": "af_heart", "format": "pcm", "timestamps": true,
			"speech_marks": []string{"sentence", "word", "viseme"}})
		pcm, marks := speechMarksOf(t, h.url, string(body))
		var words []api.SpeechMark
		for _, m := range marks {
			switch m.Type {
			case "word", "sentence":
				if m.Start == nil || m.End == nil || *m.Start < 0 || *m.End > len(text) || text[*m.Start:*m.End] != m.Value {
					t.Errorf("%q: %s mark %+v does not slice the text to its value", text, m.Type, m)
				}
				if m.Type == "word" {
					words = append(words, m)
				}
			}
		}
		checkVisemes(t, text, marks, words, len(pcm))
		var tokens []string
		first := make([]int, len(words))
		for i, w := range words {
			first[i] = len(tokens)
			tokens = append(tokens, listen.Words(w.Value)...)
		}
		if got, want := strings.Join(tokens, " "), strings.Join(listen.Words(text), " "); got != want {
			t.Fatalf("word marks read %q, the text %q", got, want)
		}
		segs, err := rec.Align(context.Background(), pcm, api.SampleRate, tokens)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		for i, w := range words {
			diffs = append(diffs, math.Abs(float64(w.Time)-1000*segs[first[i]].Start))
		}
	}
	slices.Sort(diffs)
	median, p95 := diffs[len(diffs)/2], diffs[int(math.Ceil(0.95*float64(len(diffs))))-1]
	t.Logf("%d word marks over %d sentences: |mark − aligner| median %.0f ms, p95 %.0f ms", len(diffs), len(texts), median, p95)
	if median > 50 {
		t.Errorf("word marks lie a median %.0f ms from the aligner's word starts, bound 50 ms", median)
	}
}

// speechMarksOf posts a timed request and returns its audio and every mark it carried.
func speechMarksOf(t *testing.T, url, body string) ([]float32, []api.SpeechMark) {
	t.Helper()
	resp := post(t, client(t), url+api.RouteInvocations, body)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, readAll(t, resp))
	}
	var raw []byte
	var marks []api.SpeechMark
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev api.InvocationEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		marks = append(marks, ev.Marks...)
		if ev.Type == api.EventDone {
			return audio.DecodePCM16(raw), marks
		}
		b, err := base64.StdEncoding.DecodeString(ev.Audio)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b...)
	}
	t.Fatal("no done event")
	return nil, nil
}

// checkVisemes: the visemes come in time order inside the audio, none before the first word;
// each but sil lies inside a word: from its mark to the next word's (or the audio's end).
func checkVisemes(t *testing.T, text string, marks, words []api.SpeechMark, samples int) {
	t.Helper()
	last, n := -1, 0
	end := int(api.SamplesMS(samples)) + 1
	for _, m := range marks {
		if m.Type != "viseme" {
			continue
		}
		n++
		if m.Time < last || m.Time > end || (len(words) > 0 && m.Time < words[0].Time) {
			t.Errorf("%q: viseme %+v out of order or outside the words (previous at %d ms, audio ends %d ms)", text, m, last, end)
		}
		last = m.Time
		if m.Value == "sil" {
			continue
		}
		inside := false
		for i, w := range words {
			next := end
			if i+1 < len(words) {
				next = words[i+1].Time
			}
			inside = inside || m.Time >= w.Time && m.Time <= next
		}
		if !inside {
			t.Errorf("%q: viseme %+v inside no word", text, m)
		}
	}
	if n < len(words) {
		t.Errorf("%q: %d visemes for %d words", text, n, len(words))
	}
}

// Command wordjudge measures the word timings a kokoro server sends against an aligner that
// knows nothing of the model: for each sentence and voice it asks POST /invocations for the
// audio with its words' times ("timestamps", PCM), has pocketsphinx force-align the sentence's
// words to that audio (listen.Recognizer.Align), and compares where each word starts.
//
//	go run ./internal/tools/wordjudge -url http://127.0.0.1:18960 \
//	    -voices af_heart,am_michael -texts testdata/listen/fresh2_sentences.txt,testdata/listen/fresh3_sentences.txt
//
// scripts/measure/word_timing_judge.sh starts the server and runs it. It prints, per voice, the median,
// 95th percentile and mean of |start difference|, the mean signed difference (positive: kokoro
// says later), and where each side puts the first word of a clip against the clip's first
// audible sample, the one start the waveform itself shows. With -jsonl it writes every word.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/listen"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "base URL of the kokoro server")
	voices := flag.String("voices", "af_heart,am_michael", "voices, comma-separated")
	texts := flag.String("texts", "testdata/listen/fresh2_sentences.txt,testdata/listen/fresh3_sentences.txt", "files of sentences, one a line, comma-separated")
	speed := flag.Float64("speed", 1, "speed to ask for")
	jsonl := flag.String("jsonl", "", "write every word compared to this file")
	flag.Parse()
	if err := run(context.Background(), *url, strings.Split(*voices, ","), strings.Split(*texts, ","), *speed, *jsonl, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wordjudge:", err)
		os.Exit(1)
	}
}

// record is one word as kokoro and the aligner place it, in seconds from the clip's start.
type record struct {
	Voice    string  `json:"voice"`
	Sentence int     `json:"sentence"`
	Word     string  `json:"word"`
	Index    int     `json:"index"`
	Kokoro   float64 `json:"kokoro_start_s"`
	Aligner  float64 `json:"aligner_start_s"`
	Onset    float64 `json:"onset_s,omitempty"` // the clip's first audible sample, for its first word
	// Gap is the silence before the word by kokoro's times (from the end of the word before),
	// in seconds; the first word's is its start.
	Gap float64 `json:"gap_s"`
}

// pauseGap is the gap before a word that counts as a pause: the aligner tends to stretch the
// word after a pause back into it, so words after pauses are reported apart too.
const pauseGap = 0.1

func run(ctx context.Context, url string, voices, files []string, speed float64, jsonl string, out io.Writer) error {
	rec, err := listen.Pocketsphinx()
	if err != nil {
		return err
	}
	dict, err := rec.Dictionary()
	if err != nil {
		return err
	}
	var sentences []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				sentences = append(sentences, l)
			}
		}
	}
	var w io.Writer = io.Discard
	if jsonl != "" {
		f, err := os.Create(jsonl)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		w = bw
	}
	fmt.Fprintf(out, "%d sentences from %s, speed %g, server %s\n\n", len(sentences), strings.Join(files, ", "), speed, url)
	fmt.Fprintln(out, "| voice | sentences | words | median abs(start diff) | p95 abs(start diff) | mean abs | mean signed (kokoro − aligner) | first word vs first audible sample: kokoro, aligner (median) | in running speech: words, median, p95 | after a pause: words, median, p95 |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|")
	client := &http.Client{Timeout: 5 * time.Minute}
	for _, voice := range voices {
		var recs []record
		skipped := 0
		for i, s := range sentences {
			r, err := judge(ctx, client, rec, dict, url, voice, s, speed)
			if errors.Is(err, errSkip) {
				skipped++
				fmt.Fprintf(os.Stderr, "skip %s %d: %v\n", voice, i, err)
				continue
			}
			if err != nil {
				return fmt.Errorf("%s, sentence %d: %w", voice, i, err)
			}
			for k := range r {
				r[k].Voice, r[k].Sentence = voice, i
				b, _ := json.Marshal(r[k])
				fmt.Fprintf(w, "%s\n", b)
			}
			recs = append(recs, r...)
		}
		fmt.Fprintln(out, summary(voice, len(sentences)-skipped, recs))
	}
	return nil
}

var errSkip = errors.New("skipped")

// judge speaks one sentence and compares each word's start with the aligner's.
func judge(ctx context.Context, client *http.Client, rec *listen.Recognizer, dict map[string]bool, url, voice, text string, speed float64) ([]record, error) {
	body, _ := json.Marshal(api.InvocationRequest{Text: text, Voice: voice, Speed: &speed, Format: api.FormatPCM,
		Stream: new(bool), Timestamps: true})
	resp, err := client.Post(url+api.RouteInvocations, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	var got api.InvocationTimed
	if err := json.Unmarshal(b, &got); err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(got.Audio)
	if err != nil {
		return nil, err
	}
	pcm := audio.DecodePCM16(raw)
	// Each word of kokoro's is one or more dictionary words ("well-known" is two): its start is
	// its first one's.
	var tokens []string
	first := make([]int, len(got.Words))
	for i, w := range got.Words {
		first[i] = len(tokens)
		ts := listen.Words(w.Word)
		if len(ts) == 0 {
			return nil, fmt.Errorf("%w: word %q has no letters", errSkip, w.Word)
		}
		for _, t := range ts {
			if !dict[t] {
				return nil, fmt.Errorf("%w: %q is not in the aligner's dictionary", errSkip, t)
			}
		}
		tokens = append(tokens, ts...)
	}
	segs, err := rec.Align(ctx, pcm, api.SampleRate, tokens)
	if errors.Is(err, listen.ErrNotAligned) {
		return nil, fmt.Errorf("%w: %v", errSkip, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]record, len(got.Words))
	prevEnd := 0.0
	for i, w := range got.Words {
		out[i] = record{Word: w.Word, Index: w.Index, Kokoro: w.StartMS / 1000, Aligner: segs[first[i]].Start, Gap: w.StartMS/1000 - prevEnd}
		prevEnd = w.EndMS / 1000
	}
	if span, ok := listen.AudibleSpan(pcm, api.SampleRate); ok && len(out) > 0 {
		out[0].Onset = float64(span.Start) / api.SampleRate
	}
	return out, nil
}

// summary is one row of the table for voice.
func summary(voice string, sentences int, recs []record) string {
	var abs, signed, oursOnset, judgeOnset, running, paused []float64
	for _, r := range recs {
		d := (r.Kokoro - r.Aligner) * 1000
		abs, signed = append(abs, math.Abs(d)), append(signed, d)
		if r.Onset > 0 {
			oursOnset = append(oursOnset, (r.Kokoro-r.Onset)*1000)
			judgeOnset = append(judgeOnset, (r.Aligner-r.Onset)*1000)
		}
		if r.Gap >= pauseGap {
			paused = append(paused, math.Abs(d))
		} else {
			running = append(running, math.Abs(d))
		}
	}
	return fmt.Sprintf("| %s | %d | %d | %.0f ms | %.0f ms | %.0f ms | %+.0f ms | %+.0f ms, %+.0f ms | %d, %.0f ms, %.0f ms | %d, %.0f ms, %.0f ms |", voice, sentences, len(recs),
		percentile(abs, 50), percentile(abs, 95), mean(abs), mean(signed), percentile(oursOnset, 50), percentile(judgeOnset, 50),
		len(running), percentile(running, 50), percentile(running, 95), len(paused), percentile(paused, 50), percentile(paused, 95))
}

// percentile is the p-th percentile of xs by linear interpolation between closest ranks.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	r := p / 100 * float64(len(s)-1)
	lo := int(math.Floor(r))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(r-float64(lo))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

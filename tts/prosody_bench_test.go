package tts

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// BenchmarkFirstChunkProsody is how the first chunk's minimum (FirstChunkMinIDs) was chosen:
// the first ten sentences of testdata/listen/sentences.txt spoken with the first chunk cut at
// the first punctuation after at least min ids, and unsplit (min 510), judged by the listening
// test's recognizer. It reports the word error rate, the longest pause inside the speech, how
// many sentences were split, and the mean ids of the first chunk, per min. Run with
//
//	go test -run '^$' -bench FirstChunkProsody -benchtime 1x ./tts/
func BenchmarkFirstChunkProsody(b *testing.B) {
	testenv.LookPath(b, "pocketsphinx_continuous")
	rec, err := listen.Pocketsphinx()
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(filepath.Join(testenv.RepoRoot(b), "testdata/listen/sentences.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var sentences []string
	for sc := bufio.NewScanner(f); sc.Scan() && len(sentences) < 10; {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			sentences = append(sentences, s)
		}
	}
	f.Close()
	e, err := Load(context.Background(), LoadConfig{Assets: testenv.Assets(b), Provider: "cpu", Slots: 1, Threads: 2}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	for _, minIDs := range []int{model.MaxIDs, 24, 12, 4} {
		b.Run(fmt.Sprintf("min=%d", minIDs), func(b *testing.B) {
			e.cfg.FirstChunkMinIDs = minIDs
			for range b.N {
				errs, words, split, firstIDs := 0, 0, 0, 0
				var longest time.Duration
				for _, s := range sentences {
					var pcm []float32
					chunks := 0
					_, err := checkStream(context.Background(), e, Request{Text: s}, func(c Chunk) error {
						if c.Index == 0 {
							firstIDs += len(phonemize.Tokenize(c.Phonemes))
						}
						chunks++
						pcm = append(pcm, c.PCM...)
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
					if chunks > 1 {
						split++
					}
					heard, err := rec.Transcribe(context.Background(), pcm, api.SampleRate)
					if err != nil {
						b.Fatal(err)
					}
					n, w := listen.WordErrors(s, heard)
					errs, words = errs+n, words+w
					for _, p := range audio.Pauses(pcm, api.SampleRate, 5) {
						longest = max(longest, time.Duration(p.Len())*time.Second/api.SampleRate)
					}
				}
				b.ReportMetric(100*float64(errs)/float64(words), "wer_%")
				b.ReportMetric(float64(longest.Milliseconds()), "longest_pause_ms")
				b.ReportMetric(float64(split), "split_sentences")
				b.ReportMetric(float64(firstIDs)/float64(len(sentences)), "first_chunk_ids")
			}
		})
	}
}

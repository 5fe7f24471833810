package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// BenchmarkRealModel measures real-time factor on this machine: audio seconds produced per
// wall-clock second of model time, for a typical one-sentence chunk, at 1 and 2 intra-op
// threads. Run with `make bench` or
// `go test -run '^$' -bench RealModel -benchtime 5x ./model/`.
func BenchmarkRealModel(b *testing.B) {
	a := testenv.Assets(b)
	ph, err := phonemize.New(phonemize.Config{LexiconDir: a.Lexicon})
	if err != nil {
		b.Fatal(err)
	}
	ids, err := firstPhraseIDs(ph, "Thanks for calling, your appointment is confirmed for Tuesday at ten in the morning.")
	if err != nil {
		b.Fatal(err)
	}
	v, err := LoadVoices(a.Voices)
	if err != nil {
		b.Fatal(err)
	}
	style, _ := v.Style("af_heart", len(ids))
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderCPU, Slots: 1, Threads: threads})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			if _, err := m.Warmup(context.Background()); err != nil {
				b.Fatal(err)
			}
			var audio, wall time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				pcm, err := m.Synthesize(context.Background(), 0, ids, style, 1)
				if err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start)
				audio += time.Duration(len(pcm)) * time.Second / 24000
			}
			b.ReportMetric(audio.Seconds()/wall.Seconds(), "audio_s/s")
			b.ReportMetric(float64(len(ids)), "ids")
		})
	}
}

// BenchmarkCPUArena backs SessionOptions.CPUArena's claim: CPU time of one chunk on a session
// with ONNX Runtime's CPU arena against one without it, one thread each, alternating run by
// run so that the machine's load falls on both. CPU time rather than wall time, since a shared
// machine's other work shows in the wall clock.
//
//	go test -run '^$' -bench CPUArena -benchtime 7x -v ./model/
func BenchmarkCPUArena(b *testing.B) {
	a := testenv.Assets(b)
	ph, err := phonemize.New(phonemize.Config{LexiconDir: a.Lexicon})
	if err != nil {
		b.Fatal(err)
	}
	defer ph.Close()
	ids, err := firstPhraseIDs(ph, "Your appointment is confirmed for Tuesday at ten in the morning.")
	if err != nil {
		b.Fatal(err)
	}
	v, err := LoadVoices(a.Voices)
	if err != nil {
		b.Fatal(err)
	}
	style, _ := v.Style("af_heart", len(ids))
	open := func(arena Toggle) *Model {
		m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderCPU, Slots: 1, Threads: 1,
			Session: SessionOptions{CPUArena: arena}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Warmup(context.Background()); err != nil {
			b.Fatal(err)
		}
		return m
	}
	on, off := open(ToggleOn), open(ToggleOff)
	defer on.Close()
	defer off.Close()
	run := func(m *Model) time.Duration {
		start := cpuTime(b)
		if _, err := m.Synthesize(context.Background(), 0, ids, style, 1); err != nil {
			b.Fatal(err)
		}
		return cpuTime(b) - start
	}
	var ratios []float64
	b.ResetTimer()
	for i := range b.N {
		var dOn, dOff time.Duration
		if i%2 == 0 {
			dOn, dOff = run(on), run(off)
		} else {
			dOff, dOn = run(off), run(on)
		}
		ratios = append(ratios, dOff.Seconds()/dOn.Seconds())
		b.Logf("run %d: arena on %v, off %v CPU (×%.3f)", i+1, dOn.Round(time.Millisecond), dOff.Round(time.Millisecond), ratios[i])
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "off/on-cpu-median")
	b.ReportMetric(float64(len(ids)), "ids")
	b.Logf("arena off / on, CPU time per chunk of %d ids: median ×%.3f, range [%.3f, %.3f] over %d runs", len(ids), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1], len(ratios))
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// firstPhraseIDs are the ids of text's first phrase, up to its first comma or stronger
// boundary: the first chunk the engine speaks.
func firstPhraseIDs(ph *phonemize.Phonemizer, text string) ([]int64, error) {
	pieces, err := ph.Pieces(text, "")
	if err != nil {
		return nil, err
	}
	var ps strings.Builder
	for _, p := range pieces {
		ps.WriteString(p.Phonemes)
		if p.Cut >= phonemize.BoundaryComma {
			break
		}
	}
	return phonemize.Tokenize(strings.TrimSpace(ps.String())), nil
}

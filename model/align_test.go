package model

import (
	"context"
	"errors"
	"testing"
)

// A model whose durations are hidden inside the graph (as in Kokoro's exports) or shown as an
// output both say where each token's audio lies; one without them says it cannot.
func TestSynthesizeAlignedFindsTheDurations(t *testing.T) {
	style := make([]float32, StyleDim)
	ids := []int64{50, 83, 54, 16, 61}
	for _, c := range []struct {
		name   string
		o      StandInOptions
		aligns bool
	}{
		{"hidden in the graph", StandInOptions{HiddenDuration: true}, true},
		{"an output", StandInOptions{WithDuration: true}, true},
		{"none", StandInOptions{}, false},
		// Durations of one frame over 300 samples a token do not add up to the audio: Open
		// finds the mismatch and turns alignment off.
		{"not the audio's", StandInOptions{HiddenDuration: true, SamplesPerTok: 300}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := openStandIn(t, c.o, 1)
			if m.Aligns() != c.aligns {
				t.Fatalf("Aligns() = %v, want %v (io %s)", m.Aligns(), c.aligns, m.Info().IO)
			}
			pcm, spans, err := m.SynthesizeAligned(context.Background(), 0, ids, style, 1)
			if !c.aligns {
				if !errors.Is(err, ErrNoAlignment) {
					t.Fatalf("err = %v, want ErrNoAlignment", err)
				}
				// Synthesize still works.
				if _, err := m.Synthesize(context.Background(), 0, ids, style, 1); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(spans) != len(ids)+2 {
				t.Fatalf("%d spans for %d padded tokens", len(spans), len(ids)+2)
			}
			sum := 0
			for _, s := range spans {
				if s != FrameSamples {
					t.Errorf("span %d samples, want one frame (%d)", s, FrameSamples)
				}
				sum += s
			}
			if sum != len(pcm) {
				t.Errorf("spans sum to %d, audio has %d", sum, len(pcm))
			}
		})
	}
}

func TestDurationTensorNeedsOneChain(t *testing.T) {
	if name, ok := durationTensor(StandInModel(StandInOptions{HiddenDuration: true})); !ok || name != "dur_frames" {
		t.Errorf("hidden chain: %q %v", name, ok)
	}
	if _, ok := durationTensor(StandInModel(StandInOptions{})); ok {
		t.Error("found durations in a graph without them")
	}
	for _, bad := range [][]byte{nil, {0xff}, {0x3a, 0x05, 0x0a}} {
		if _, ok := durationTensor(bad); ok {
			t.Errorf("found durations in %x", bad)
		}
	}
}

func FuzzGraphNodes(f *testing.F) {
	f.Add(StandInModel(StandInOptions{HiddenDuration: true}))
	f.Add([]byte{0x3a, 0x02, 0x0a, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		nodes, err := graphNodes(b)
		if err != nil && nodes != nil {
			t.Fatal("nodes with an error")
		}
		durationTensor(b)
	})
}

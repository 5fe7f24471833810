package model

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// sentence is "The quick brown fox jumps over the lazy dog, and then it runs far away into the
// forest." in Kokoro v1.0 vocabulary ids.
var sentence = []int64{81, 83, 16, 53, 65, 156, 102, 53, 16, 44, 123, 156, 39, 56, 16, 48, 156, 69, 53, 61, 16, 82, 156,
	138, 55, 58, 61, 16, 156, 31, 64, 83, 123, 16, 81, 83, 16, 54, 156, 24, 68, 51, 16, 46, 156, 76, 92, 3, 16, 72, 56, 46,
	16, 81, 156, 86, 56, 16, 102, 62, 16, 123, 156, 138, 56, 68, 16, 48, 156, 69, 123, 16, 83, 65, 156, 24, 16, 156, 102,
	56, 62, 63, 16, 81, 83, 16, 48, 156, 76, 123, 83, 61, 62, 4}

func TestRealSplitFindsKokorosBoundary(t *testing.T) {
	a := testenv.RealModel(t)
	b, err := os.ReadFile(a.Model)
	if err != nil {
		t.Fatal(err)
	}
	dur, ok := durationTensor(b)
	if !ok {
		t.Fatal("no durations in the model")
	}
	s, err := splitGraph(b, "audio", "style", dur)
	if err != nil {
		t.Fatal(err)
	}
	// The boundary as the export names it; splitGraph found it by structure.
	if s.aligned != "/encoder/MatMul_1_output_0" || s.f0 != "/encoder/Reshape_output_0" || s.energy != "/encoder/Reshape_1_output_0" {
		t.Errorf("boundary %q %q %q", s.aligned, s.f0, s.energy)
	}
	if len(s.harmonics) != 9 || s.harmonics[0] != 1 || s.harmonics[8] != 9 {
		t.Errorf("harmonics %v, want 1..9", s.harmonics)
	}
}

// TestRealModelDecodesInWindows: the split model's whole decode is Synthesize's audio, and two
// windows decoded apart, each with margin, continue each other's sine phase: with the phase
// offset the second window follows the whole decode's waveform far better than started at
// phase zero.
func TestRealModelDecodesInWindows(t *testing.T) {
	a := testenv.RealModel(t)
	m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderCPU, Slots: 1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !m.Splits() {
		t.Fatal("the real model did not split into predictor and decoder")
	}
	v, err := LoadVoices(a.Voices)
	if err != nil {
		t.Fatal(err)
	}
	style, err := v.Style("af_heart", len(sentence))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	f, err := m.Predict(ctx, 0, sentence, style, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := m.Decode(ctx, 0, f, Window{To: f.Frames})
	if err != nil {
		t.Fatal(err)
	}
	syn, err := m.Synthesize(ctx, 0, sentence, style, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(syn) != len(whole) || len(whole) != f.Frames*FrameSamples {
		t.Fatalf("whole decode %d samples, synthesize %d, frames %d", len(whole), len(syn), f.Frames)
	}
	for i := range syn {
		if syn[i] != whole[i] {
			t.Fatalf("sample %d: %g against %g", i, whole[i], syn[i])
		}
	}
	cut := f.Frames / 2
	second, err := m.Decode(ctx, 0, f, Window{From: cut, To: f.Frames, Before: 16})
	if err != nil {
		t.Fatal(err)
	}
	zero := *f
	zero.F0 = append([]float32(nil), f.F0...)
	unphased, err := m.decodeAtPhaseZero(ctx, &zero, cut, 16)
	if err != nil {
		t.Fatal(err)
	}
	ref := whole[cut*FrameSamples:]
	with, without := correlation(ref, second), correlation(ref, unphased)
	if with < 0.5 || with < without+0.2 {
		t.Errorf("second window against the whole decode: correlation %.2f with the phase offset, %.2f without", with, without)
	}
	t.Logf("correlation with the whole decode: %.2f with the phase offset, %.2f without", with, without)
}

// decodeAtPhaseZero decodes frames [from, f.Frames) with margin as Decode does but with the sine
// source started at phase zero.
func (m *Model) decodeAtPhaseZero(ctx context.Context, f *Features, from, margin int) ([]float32, error) {
	saved := m.split.harmonics
	m.split.harmonics = make([]float32, len(saved)) // every offset 0
	defer func() { m.split.harmonics = saved }()
	return m.Decode(ctx, 0, f, Window{From: from, To: f.Frames, Before: margin})
}

func correlation(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range min(len(a), len(b)) {
		x, y := float64(a[i]), float64(b[i])
		ab, aa, bb = ab+x*y, aa+x*x, bb+y*y
	}
	return ab / math.Sqrt(aa*bb+1e-12)
}

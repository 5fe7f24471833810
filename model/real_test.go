package model

import (
	"context"
	"math"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// helloWorld is "həlˈO wˈɜɹld." in Kokoro v1.0 vocabulary ids.
var helloWorld = []int64{50, 83, 54, 156, 31, 16, 65, 156, 87, 123, 54, 46, 4}

func TestRealModelSpeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("real model: skipped in -short")
	}
	a := testenv.Assets(t)
	m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderAuto, Slots: 1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Info().Provider != ProviderCPU {
		t.Logf("provider %s", m.Info().Provider)
	}
	v, err := LoadVoices(a.Voices)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v.Names()); n < 50 {
		t.Fatalf("%d voices, want the 54 kokoro-js packs", n)
	}
	style, err := v.Style("af_heart", len(helloWorld))
	if err != nil {
		t.Fatal(err)
	}
	pcm, err := m.Synthesize(context.Background(), 0, helloWorld, style, 1)
	if err != nil {
		t.Fatal(err)
	}
	sec := float64(len(pcm)) / 24000
	// Two words at a normal pace take roughly 0.7–2.5 s including the trailing pause.
	if sec < 0.6 || sec > 2.5 {
		t.Errorf("'hello world.' lasted %.2f s", sec)
	}
	var sum, peak float64
	for _, s := range pcm {
		if math.IsNaN(float64(s)) {
			t.Fatal("NaN in output")
		}
		sum += float64(s) * float64(s)
		peak = math.Max(peak, math.Abs(float64(s)))
	}
	rms := math.Sqrt(sum / float64(len(pcm)))
	if rms < 0.01 || peak >= 1 {
		t.Errorf("rms %.4f peak %.3f: want audible speech without clipping", rms, peak)
	}
	slow, err := m.Synthesize(context.Background(), 0, helloWorld, style, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if r := float64(len(slow)) / float64(len(pcm)); r < 1.5 {
		t.Errorf("speed 0.5 made audio only %.2fx longer", r)
	}
}

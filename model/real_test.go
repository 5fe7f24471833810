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
	a := testenv.RealModel(t)
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

// The real export hides its durations; Open adds them as an output, and they place the
// speech: the lead pad and the closing "." and pad are silence (but for the onset, which the
// model starts a few frames early), the words between them are speech.
func TestRealModelAligns(t *testing.T) {
	a := testenv.RealModel(t)
	m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderCPU, Slots: 1, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !m.Aligns() {
		t.Fatalf("the real model does not align (io %s)", m.Info().IO)
	}
	v, err := LoadVoices(a.Voices)
	if err != nil {
		t.Fatal(err)
	}
	style, err := v.Style("af_heart", len(helloWorld))
	if err != nil {
		t.Fatal(err)
	}
	for _, speed := range []float32{1, 0.8, 1.3} {
		pcm, spans, err := m.SynthesizeAligned(context.Background(), 0, helloWorld, style, speed)
		if err != nil {
			t.Fatal(err)
		}
		n := len(spans)
		if n != len(helloWorld)+2 {
			t.Fatalf("speed %v: %d spans", speed, n)
		}
		lead := max(0, spans[0]-5*FrameSamples)
		words := sum(spans[1 : n-3]) // up to the last phoneme, "d"
		tail := spans[n-2] + spans[n-1]
		pLead := power(pcm[:lead])
		pWords := power(pcm[spans[0] : spans[0]+words])
		pTail := power(pcm[len(pcm)-tail:])
		t.Logf("speed %v: mean power %.2g lead, %.2g words, %.2g tail", speed, pLead, pWords, pTail)
		if pLead*100 > pWords || pTail*100 > pWords {
			t.Errorf("speed %v: the durations do not place the speech", speed)
		}
	}
}

func power(pcm []float32) float64 {
	var e float64
	for _, s := range pcm {
		e += float64(s) * float64(s)
	}
	return e / float64(max(len(pcm), 1))
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

package model

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// openStandIn writes a stand-in variant and opens it with the real ONNX Runtime.
func openStandIn(t *testing.T, o StandInOptions, slots int) *Model {
	t.Helper()
	lib := testenv.Assets(t).ORTLib
	path := filepath.Join(t.TempDir(), "standin.onnx")
	if err := WriteStandIn(path, o); err != nil {
		t.Fatal(err)
	}
	m, err := Open(context.Background(), Config{Path: path, ORTLib: lib, Provider: ProviderCPU, Slots: slots, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func TestStandInDetectsEveryExportVariant(t *testing.T) {
	for _, c := range []struct {
		name string
		o    StandInOptions
		want IO
	}{
		{"kokoro-onnx", StandInOptions{}, IO{Tokens: "tokens", Style: "style", Speed: "speed", Audio: "audio"}},
		{"onnx-community", StandInOptions{TokensName: "input_ids", OutputName: "waveform", WithDuration: true},
			IO{Tokens: "input_ids", Style: "style", Speed: "speed", Audio: "waveform", Duration: "duration"}},
		{"int32 speed", StandInOptions{SpeedInt32: true}, IO{Tokens: "tokens", Style: "style", Speed: "speed", SpeedInt32: true, Audio: "audio"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := openStandIn(t, c.o, 1)
			if got := m.Info().IO; got != c.want {
				t.Fatalf("detected %+v, want %+v", got, c.want)
			}
			style := make([]float32, StyleDim)
			pcm, err := m.Synthesize(context.Background(), 0, []int64{50, 83, 54}, style, 1)
			if err != nil {
				t.Fatal(err)
			}
			// Three ids plus the two pads, one frame of 600 samples each.
			if len(pcm) != 5*600 {
				t.Fatalf("got %d samples, want %d", len(pcm), 5*600)
			}
		})
	}
}

func TestSynthesizeLengthGrowsWithTokensAndRejectsBadInput(t *testing.T) {
	m := openStandIn(t, StandInOptions{}, 2)
	style := make([]float32, StyleDim)
	ctx := context.Background()
	short, err := m.Synthesize(ctx, 1, []int64{50}, style, 1)
	if err != nil {
		t.Fatal(err)
	}
	long, err := m.Synthesize(ctx, 0, make([]int64, 100), style, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(long) <= len(short) {
		t.Fatalf("100 ids gave %d samples, 1 id gave %d", len(long), len(short))
	}
	if _, err := m.Synthesize(ctx, 2, []int64{50}, style, 1); !errors.Is(err, ErrSlot) {
		t.Errorf("slot 2 of 2: err = %v, want ErrSlot", err)
	}
	if _, err := m.Synthesize(ctx, 0, nil, style, 1); err == nil {
		t.Error("empty ids accepted")
	}
	if _, err := m.Synthesize(ctx, 0, make([]int64, 511), style, 1); err == nil {
		t.Error("511 ids accepted")
	}
	if _, err := m.Synthesize(ctx, 0, []int64{50}, style[:10], 1); err == nil {
		t.Error("short style accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Synthesize(cancelled, 0, make([]int64, 400), style, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: err = %v, want context.Canceled", err)
	}
}

func TestOpenNamesMissingFiles(t *testing.T) {
	lib := testenv.Assets(t).ORTLib
	_, err := Open(context.Background(), Config{Path: "/nonexistent/model.onnx", ORTLib: lib})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/model.onnx") || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("missing model: %v", err)
	}
}

// errAfter is a context whose Err reports cancellation from its nth call on, so a test can
// cancel between two steps that cannot be interrupted themselves.
type errAfter struct {
	context.Context
	calls, n int
}

func (c *errAfter) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// A SIGTERM while the model loads must not wait for every slot: Open stops between sessions.
func TestOpenStopsBetweenSessionsWhenCancelled(t *testing.T) {
	lib := testenv.Assets(t).ORTLib
	path := filepath.Join(t.TempDir(), "standin.onnx")
	if err := WriteStandIn(path, StandInOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} { // before anything, and after the first of four sessions
		ctx := &errAfter{Context: context.Background(), n: n}
		m, err := Open(ctx, Config{Path: path, ORTLib: lib, Provider: ProviderCPU, Slots: 4, Threads: 1})
		if !errors.Is(err, context.Canceled) || m != nil {
			t.Errorf("cancelled at check %d: model %v, err %v; want context.Canceled", n, m, err)
		}
	}
}

func TestDetectIORejectsForeignModels(t *testing.T) {
	t.Parallel()
	if _, err := detectIO(nil, nil); !errors.Is(err, ErrContract) {
		t.Fatalf("empty model: %v", err)
	}
}

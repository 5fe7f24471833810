package model

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/assets"
)

// openStandIn writes a stand-in variant and opens it with the real ONNX Runtime.
func openStandIn(t *testing.T, o StandInOptions, slots int) *Model {
	t.Helper()
	lib := assets.ForTest(t).ORTLib
	path := filepath.Join(t.TempDir(), "standin.onnx")
	if err := WriteStandIn(path, o); err != nil {
		t.Fatal(err)
	}
	m, err := Open(Config{Path: path, ORTLib: lib, Provider: ProviderCPU, Slots: slots, Threads: 1})
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
	lib := assets.ForTest(t).ORTLib
	_, err := Open(Config{Path: "/nonexistent/model.onnx", ORTLib: lib})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/model.onnx") || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("missing model: %v", err)
	}
}

func TestDetectIORejectsForeignModels(t *testing.T) {
	t.Parallel()
	if _, err := detectIO(nil, nil); !errors.Is(err, ErrContract) {
		t.Fatalf("empty model: %v", err)
	}
}

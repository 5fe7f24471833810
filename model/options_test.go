package model

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

func TestParseToggle(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Toggle{"": ToggleAuto, "auto": ToggleAuto, "ON": ToggleOn, "1": ToggleOn, "off": ToggleOff, "false": ToggleOff} {
		if got, err := ParseToggle(in); err != nil || got != want {
			t.Errorf("ParseToggle(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseToggle("maybe"); err == nil {
		t.Error("ParseToggle(maybe) accepted")
	}
}

func TestSlotThreads(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg  Config
		want []int
		bad  bool
	}{
		{Config{}, []int{1}, false},
		{Config{Slots: 2, Threads: 1}, []int{1, 1}, false},
		{Config{Slots: 1, Threads: 4}, []int{4}, false},
		{Config{Slots: 9, SlotThreads: []int{2, 1, 1}}, []int{2, 1, 1}, false},
		{Config{SlotThreads: []int{2, 0}}, nil, true},
	} {
		got, err := slotThreads(c.cfg)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("slotThreads(%+v) = %v, %v; want %v (error %v)", c.cfg, got, err, c.want, c.bad)
		}
	}
}

// A model opened with per-slot thread counts has one session per count, each usable on its
// own, whatever the session options.
func TestOpenSlotShapesAndOptions(t *testing.T) {
	lib := testenv.Assets(t).ORTLib
	path := filepath.Join(t.TempDir(), "standin.onnx")
	if err := WriteStandIn(path, StandInOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []SessionOptions{
		{},
		{CPUArena: ToggleOff, MemPattern: ToggleOn, Spinning: ToggleOn, GraphOpt: "basic"},
		{CPUArena: ToggleOn, Spinning: ToggleOff, GraphOpt: "extended"},
	} {
		m, err := Open(context.Background(), Config{Path: path, ORTLib: lib, Provider: ProviderCPU, SlotThreads: []int{2, 1, 1}, Session: o})
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if info := m.Info(); info.Slots != 3 || info.Threads != 2 || !slices.Equal(info.SlotThreads, []int{2, 1, 1}) {
			t.Errorf("%+v: info %+v", o, info)
		}
		for s := range m.Slots() {
			if pcm, err := m.Synthesize(context.Background(), s, []int64{50, 83}, make([]float32, StyleDim), 1); err != nil || len(pcm) != 4*600 {
				t.Errorf("%+v: slot %d: %d samples, %v", o, s, len(pcm), err)
			}
		}
		m.Close()
	}
	if _, err := Open(context.Background(), Config{Path: path, ORTLib: lib, Provider: ProviderCPU, Session: SessionOptions{GraphOpt: "max"}}); err == nil {
		t.Error("an unknown optimization level was accepted")
	}
}

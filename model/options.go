package model

import (
	"fmt"
	"strings"

	ort "github.com/yalue/onnxruntime_go"
)

// Toggle is a session setting that is on, off, or left to the default noted where it is used.
type Toggle string

// Toggles.
const (
	ToggleAuto Toggle = ""
	ToggleOn   Toggle = "on"
	ToggleOff  Toggle = "off"
)

// ParseToggle accepts auto (or empty), on/true/1 and off/false/0.
func ParseToggle(s string) (Toggle, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return ToggleAuto, nil
	case "on", "true", "1":
		return ToggleOn, nil
	case "off", "false", "0":
		return ToggleOff, nil
	}
	return ToggleAuto, fmt.Errorf("%q: want auto, on or off", s)
}

// Or is t's value where it is on or off, else def.
func (t Toggle) Or(def bool) bool {
	switch t {
	case ToggleOn:
		return true
	case ToggleOff:
		return false
	}
	return def
}

// SessionOptions are the ONNX Runtime options that change this model's speed or memory.
type SessionOptions struct {
	// CPUArena is ONNX Runtime's CPU memory arena, default on: it keeps the blocks of one run
	// for the next, which the model's large decoder tensors need (the system allocator hands
	// them back and faults them in again on every run: a 63-id chunk took 1.09× the CPU time
	// without the arena, median of 9 alternating runs on one thread, range 0.92–1.26:
	// testdata/claims/cpu_arena.txt, `scripts/measure/claims.sh arena`). The slots share one arena, so memory follows the
	// largest chunks the slots run at once, not the largest each slot has ever seen; the chunk
	// budget (tts: ids times the speed under 1) bounds a chunk's audio and so its memory.
	CPUArena Toggle
	// MemPattern plans a run's memory from the previous run of the same shape; every chunk
	// has a new length, so it rarely applies. Default off.
	MemPattern Toggle
	// Spinning keeps intra-op workers spinning between parallel sections. Default: on for a
	// single slot and for a slot that runs alone (Config.Lone), off for slots that run beside
	// others, where a spinning worker steals the core another slot is computing on.
	Spinning Toggle
	// GraphOpt is the graph optimization level: basic, extended or all (the default).
	GraphOpt string
}

// Validate reports an unknown optimization level.
func (o SessionOptions) Validate() error {
	_, err := graphOptLevel(o.GraphOpt)
	return err
}

func graphOptLevel(s string) (ort.GraphOptimizationLevel, error) {
	switch strings.ToLower(s) {
	case "", "all":
		return ort.GraphOptimizationLevelEnableAll, nil
	case "extended":
		return ort.GraphOptimizationLevelEnableExtended, nil
	case "basic":
		return ort.GraphOptimizationLevelEnableBasic, nil
	case "none", "off":
		return ort.GraphOptimizationLevelDisableAll, nil
	}
	return 0, fmt.Errorf("graph optimization level %q: want none, basic, extended or all", s)
}

// apply sets o on opts for a slot of threads intra-op threads, in a pool whose slots share
// the cores when shared is true.
func (o SessionOptions) apply(opts *ort.SessionOptions, threads int, shared bool) error {
	level, err := graphOptLevel(o.GraphOpt)
	if err != nil {
		return err
	}
	if err := opts.SetGraphOptimizationLevel(level); err != nil {
		return fmt.Errorf("graph optimization level: %w", err)
	}
	if err := opts.SetIntraOpNumThreads(threads); err != nil {
		return fmt.Errorf("intra-op threads: %w", err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return fmt.Errorf("inter-op threads: %w", err)
	}
	arena := o.CPUArena.Or(true)
	if err := opts.SetCpuMemArena(arena); err != nil {
		return fmt.Errorf("cpu memory arena: %w", err)
	}
	if arena {
		if err := opts.AddSessionConfigEntry("session.use_env_allocators", "1"); err != nil {
			return fmt.Errorf("shared arena: %w", err)
		}
	}
	if err := opts.SetMemPattern(o.MemPattern.Or(false)); err != nil {
		return fmt.Errorf("memory pattern: %w", err)
	}
	spin := "0"
	if o.Spinning.Or(!shared) {
		spin = "1"
	}
	if err := opts.AddSessionConfigEntry("session.intra_op.allow_spinning", spin); err != nil {
		return fmt.Errorf("spinning: %w", err)
	}
	return nil
}

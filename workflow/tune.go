package workflow

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/tts"
)

// Tune is `kokoro tune`: slot shapes measured on this machine with the real model, and the
// configuration to run printed. Shapes is ';' between shapes and ',' between slots ("2;1,1").
type Tune struct {
	Shapes    string
	Hold      time.Duration
	Texts     string
	Voice     string
	ModelOnly bool
	Engine    tts.LoadConfig
}

// parseShapes reads "2;1,1;2,1,1".
func parseShapes(s string) ([][]int, error) {
	var out [][]int
	for _, part := range strings.Split(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		l, err := ParseInts(part)
		if err != nil || len(l) == 0 {
			return nil, fmt.Errorf("%w: --shapes %q: %q is not a list of positive thread counts", ErrUsage, s, part)
		}
		out = append(out, l)
	}
	return out, nil
}

// NewTune returns a Tune that holds each measurement for 20 s.
func NewTune() Tune { return Tune{Hold: 20 * time.Second} }

// Run measures the shapes and prints the table and the configuration to run.
func (f Tune) Run(ctx context.Context, stdout, stderr io.Writer) error {
	shapes, err := parseShapes(f.Shapes)
	if err != nil {
		return err
	}
	if err := f.Engine.Validate(); err != nil {
		return err
	}
	texts, err := readTexts(f.Texts, bench.DefaultTexts())
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cpus := runtime.NumCPU()
	cfg := tts.TuneConfig{Load: f.Engine, Shapes: shapes, Cores: f.Engine.Cores, Texts: texts, Voice: f.Voice, Hold: f.Hold,
		Progress: func(s string) { fmt.Fprintln(stderr, "tune:", s) }}
	var results []tts.ShapeResult
	if f.ModelOnly {
		results, err = tuneModelOnly(ctx, cfg, cpus)
	} else {
		results, err = tts.Tune(ctx, cfg, cpus)
	}
	if len(results) > 0 {
		if werr := tuneReport(stdout, results, f.ModelOnly, cpus, loadAverage()); werr != nil {
			return werr
		}
	}
	return err
}

// tuneModelOnly measures the model-only limit of each shape.
func tuneModelOnly(ctx context.Context, cfg tts.TuneConfig, cpus int) ([]tts.ShapeResult, error) {
	cores := cfg.Cores
	if cores <= 0 {
		cores = cpus
	}
	shapes := cfg.Shapes
	if len(shapes) == 0 {
		shapes = tts.CandidateShapes(cores)
	}
	var out []tts.ShapeResult
	for _, shape := range shapes {
		if tts.Elastic(shape, cores) {
			continue // its busiest state is one of the fixed shapes
		}
		lc := cfg.Load
		lc.Slots, lc.Threads, lc.SlotThreads, lc.Cores = 0, 0, shape, cores
		cfg.Progress(fmt.Sprintf("shape %v: the model alone for %v", shape, cfg.Hold))
		e, err := tts.Load(ctx, lc, nil)
		if err != nil {
			return out, err
		}
		slots := make([]int, len(shape))
		for i := range slots {
			slots[i] = i
		}
		r := tts.ShapeResult{Shape: shape}
		cpu := tts.CPUTime()
		r.Model, err = e.ModelThroughput(ctx, cfg.Texts, cfg.Voice, slots, cfg.Hold)
		if r.Model > 0 {
			r.ModelCPU = (tts.CPUTime() - cpu).Seconds() / (r.Model * cfg.Hold.Seconds())
		}
		e.Close()
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// tuneReport prints the table and the configuration to run.
func tuneReport(w io.Writer, rs []tts.ShapeResult, modelOnly bool, cpus int, load string) error {
	fmt.Fprintf(w, "%d CPUs, load average %s; audio seconds per wall-clock second as listeners get them\n\n", cpus, load)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if modelOnly {
		fmt.Fprintln(tw, "slot threads\tmodel only\tCPU s per audio s\t")
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t\n", FormatInts(r.Shape), r.Model, r.ModelCPU)
		}
	} else {
		fmt.Fprintln(tw, "slot threads\tshared cores\tlone first audio p50\tp95\tengine saturated\tCPU s per audio s\tmodel only\tCPU s per audio s\t")
		for _, r := range rs {
			shared := "-"
			if r.Cores > 0 {
				shared = strconv.Itoa(r.Cores)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d ms\t%d ms\t%.2f\t%.2f\t%.2f\t%.2f\t\n", FormatInts(r.Shape), shared, r.LoneP50.Milliseconds(), r.LoneP95.Milliseconds(),
				r.Engine, r.EngineCPU, r.Model, r.ModelCPU)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	limit := slices.MaxFunc(rs, func(a, b tts.ShapeResult) int {
		switch {
		case a.Model < b.Model:
			return -1
		case a.Model > b.Model:
			return 1
		}
		return 0
	})
	fmt.Fprintf(w, "\nmodel-only limit: %.2f audio s/s (slot threads %s)\n", limit.Model, FormatInts(limit.Shape))
	if modelOnly {
		return nil
	}
	best, _ := tts.Best(rs)
	fmt.Fprintf(w, "engine saturated at the chosen shape: %.2f audio s/s, %.0f %% of the limit\n\n", best.Engine, 100*best.Engine/limit.Model)
	fmt.Fprintf(w, "run with:\n  kokoro serve --slot-threads %s", FormatInts(best.Shape))
	if best.Cores > 0 {
		fmt.Fprintf(w, " --cores %d", best.Cores)
	}
	fmt.Fprintf(w, "\nor in the environment:\n  SLOT_THREADS=%s", FormatInts(best.Shape))
	if best.Cores > 0 {
		fmt.Fprintf(w, " CORES=%d", best.Cores)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// loadAverage is /proc/loadavg's first three fields, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

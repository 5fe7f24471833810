package workflow

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/tts"
)

func TestParseShapes(t *testing.T) {
	t.Parallel()
	got, err := parseShapes("2; 1,1 ;2,1,1;")
	if err != nil || fmt.Sprint(got) != "[[2] [1 1] [2 1 1]]" {
		t.Errorf("parseShapes = %v, %v", got, err)
	}
	for _, bad := range []string{"2;x", "0", "1,-1"} {
		if _, err := parseShapes(bad); !errors.Is(err, ErrUsage) {
			t.Errorf("parseShapes(%q): %v, want a usage error", bad, err)
		}
	}
}

// The report names the model-only limit, the engine's fraction of it and the flags and
// variables of the chosen shape.
func TestTuneReport(t *testing.T) {
	t.Parallel()
	rs := []tts.ShapeResult{
		{Shape: []int{2}, LoneP50: 600 * time.Millisecond, LoneP95: 700 * time.Millisecond, Engine: 2.0, Model: 2.2},
		{Shape: []int{1, 1}, LoneP50: 900 * time.Millisecond, LoneP95: 1000 * time.Millisecond, Engine: 2.9, Model: 3.0},
		{Shape: []int{2, 1, 1}, Cores: 2, LoneP50: 610 * time.Millisecond, LoneP95: 720 * time.Millisecond, Engine: 2.85, Model: 2.95},
	}
	var b strings.Builder
	if err := tuneReport(&b, rs, false, 2, "0.10 0.20 0.30"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"load average 0.10 0.20 0.30", "model-only limit: 3.00 audio s/s (slot threads 1,1)", "95 % of the limit",
		"kokoro serve --slot-threads 2,1,1 --cores 2", "SLOT_THREADS=2,1,1 CORES=2", "610 ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

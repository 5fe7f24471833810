package plot

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/replay"
)

// The timeline decodes as a PNG of the size a page shows, with two policies and with a
// minute whose p95 request got no audio.
func TestTimeline(t *testing.T) {
	t.Parallel()
	minute := func(i, shed int, p95 float64) replay.Minute {
		return replay.Minute{Start: time.Duration(i) * time.Minute, Offered: 100, OK: 100 - shed, Shed: shed, TTFABP95Ms: p95,
			P95Shed: shed > 5, InService: 2 + i/3}
	}
	a := &replay.Result{Minutes: []replay.Minute{minute(0, 0, 300), minute(1, 30, 2000), minute(2, 0, 400)}}
	b := &replay.Result{Minutes: []replay.Minute{minute(0, 0, 200), minute(1, 0, 250), minute(2, 0, 200)}}
	var buf bytes.Buffer
	if err := Timeline([]Run{{"reference", a}, {"proposal", b}}, 3*time.Second, "test")(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if sz := img.Bounds().Size(); sz.X < 600 || sz.Y < 600 {
		t.Errorf("image %v", sz)
	}
}

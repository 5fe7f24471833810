package bench

import (
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestSchedule(t *testing.T) {
	t.Parallel()
	c := Config{Ladder: []int{1, 4}, Hold: 240 * time.Second, MeasureWindow: 60 * time.Second, Settle: 30 * time.Second, Runs: 2, SLO: time.Second}
	s := Schedule(c)
	if len(s) != 4 {
		t.Fatalf("%d phases; want 4", len(s))
	}
	want := []Phase{
		{Run: 1, N: 1, Start: 0, MeasureStart: 180 * time.Second, HoldEnd: 240 * time.Second, SettleEnd: 270 * time.Second},
		{Run: 1, N: 4, Start: 270 * time.Second, MeasureStart: 450 * time.Second, HoldEnd: 510 * time.Second, SettleEnd: 540 * time.Second},
		{Run: 2, N: 1, Start: 540 * time.Second, MeasureStart: 720 * time.Second, HoldEnd: 780 * time.Second, SettleEnd: 810 * time.Second},
		{Run: 2, N: 4, Start: 810 * time.Second, MeasureStart: 990 * time.Second, HoldEnd: 1050 * time.Second, SettleEnd: 1050 * time.Second},
	}
	for i := range want {
		if s[i] != want[i] {
			t.Errorf("phase %d = %+v; want %+v", i, s[i], want[i])
		}
	}
	if got := Estimate(c); got != 1050*time.Second {
		t.Errorf("estimate %v", got)
	}
}

func TestConfigValidate(t *testing.T) {
	t.Parallel()
	ok := Config{Ladder: []int{1, 2}, Hold: time.Second, MeasureWindow: time.Second, SLO: time.Second}
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"valid", func(*Config) {}, ""},
		{"empty ladder", func(c *Config) { c.Ladder = nil }, "no rungs"},
		{"descending", func(c *Config) { c.Ladder = []int{4, 2} }, "ascending"},
		{"repeated", func(c *Config) { c.Ladder = []int{2, 2} }, "ascending"},
		{"zero rung", func(c *Config) { c.Ladder = []int{0, 1} }, "at least 1"},
		{"window over hold", func(c *Config) { c.MeasureWindow = 2 * time.Second }, "no longer than the hold"},
		{"no slo", func(c *Config) { c.SLO = 0 }, "slo"},
		{"speed", func(c *Config) { c.Speed = 3 }, "speed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.mutate(&c)
			err := c.Validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("%s: err %v; want %q", tc.name, err, tc.want)
			}
		})
	}
}

// TestDryRunTouchesNoNetwork: the dry run prints the schedule while a listener standing where
// the target would be sees no connection.
func TestDryRunTouchesNoNetwork(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	var out strings.Builder
	c := Config{Ladder: []int{1, 2, 4}, Hold: time.Minute, MeasureWindow: 30 * time.Second, Settle: 10 * time.Second, SLO: time.Second}
	if err := DryRun(c, "http://"+ln.Addr().String(), "http")(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "estimated wall clock: 0:03:20") {
		t.Errorf("dry run output:\n%s", out.String())
	}
	time.Sleep(50 * time.Millisecond)
	if n := conns.Load(); n != 0 {
		t.Errorf("dry run opened %d connection(s)", n)
	}
}

package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Phase is one rung of the schedule as offsets from the ladder's start, assuming requests
// outstanding at the end of a hold finish at once (they usually take well under a second).
type Phase struct {
	Run          int           `json:"run"`
	N            int           `json:"concurrency"`
	Start        time.Duration `json:"start_ns"`
	MeasureStart time.Duration `json:"measure_start_ns"`
	HoldEnd      time.Duration `json:"hold_end_ns"`
	SettleEnd    time.Duration `json:"settle_end_ns"`
}

// Schedule lays out every rung of every run. It is a pure function of the configuration; the
// settle after the very last rung is left out since nothing follows it.
func Schedule(c Config) []Phase {
	c = c.withDefaults()
	var out []Phase
	var t time.Duration
	for run := 1; run <= c.Runs; run++ {
		for i, n := range c.Ladder {
			p := Phase{Run: run, N: n, Start: t, MeasureStart: t + c.Hold - c.MeasureWindow, HoldEnd: t + c.Hold}
			p.SettleEnd = p.HoldEnd
			if run < c.Runs || i < len(c.Ladder)-1 {
				p.SettleEnd += c.Settle
			}
			t = p.SettleEnd
			out = append(out, p)
		}
	}
	return out
}

// Estimate is the wall-clock time of the whole schedule.
func Estimate(c Config) time.Duration {
	s := Schedule(c)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].SettleEnd
}

// DryRun returns a reporter that prints the schedule and the wall-clock estimate. It calls
// nothing: the transport is not even constructed.
func DryRun(c Config, target string, transport string) func(io.Writer) error {
	return func(w io.Writer) error {
		c := c.withDefaults()
		if _, err := fmt.Fprintf(w, "dry run: %s via %s, %d run(s) × %d rung(s), hold %v (measure last %v), settle %v, slo %v, %d texts, seed %d\n",
			target, transport, c.Runs, len(c.Ladder), c.Hold, c.MeasureWindow, c.Settle, c.SLO, len(c.Texts), c.Seed); err != nil {
			return fmt.Errorf("write dry run: %w", err)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "run\tN\tstart\tmeasure from\thold end\tsettled\t")
		for _, p := range Schedule(c) {
			fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t\n", p.Run, p.N, clock(p.Start), clock(p.MeasureStart), clock(p.HoldEnd), clock(p.SettleEnd))
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("write dry run: %w", err)
		}
		_, err := fmt.Fprintf(w, "estimated wall clock: %s (plus draining of requests outstanding at each hold's end)\n", clock(Estimate(c)))
		if err != nil {
			return fmt.Errorf("write dry run: %w", err)
		}
		return nil
	}
}

// clock formats an offset as h:mm:ss.
func clock(d time.Duration) string {
	d = d.Round(time.Second)
	h := d / time.Hour
	m := (d % time.Hour) / time.Minute
	s := (d % time.Minute) / time.Second
	return fmt.Sprintf("%d:%02d:%02d", h, m, s)
}

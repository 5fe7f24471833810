package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Table returns a reporter that prints one line per rung and the conclusion.
func Table(r *Report) func(io.Writer) error {
	return func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "run\tN\tok\trej\terr\trps\tttfab p50\tp95\tp99\tttfas p95\tstall p95\tlat p95\tinflight\tpeak\tdrift\tverdict\t")
		for _, run := range r.Runs {
			for _, s := range run.Rungs {
				fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\t%d\t%+.0f\t%s\t\n",
					s.Run, s.N, s.OK, s.Outcomes[artifact.OutcomeSaturated503]+s.Outcomes[artifact.OutcomeThrottled429], s.Requests-s.OK-s.Outcomes[artifact.OutcomeSaturated503]-s.Outcomes[artifact.OutcomeThrottled429],
					s.RPS, s.TTFAB.P50, s.TTFAB.P95, s.TTFAB.P99, s.TTFAS.P95, s.Stall.P95, s.Latency.P95, s.InFlightMean, s.InFlightPeak, s.DriftMsOverWindow,
					verdict(s, r.Config.SLO.Seconds()*1000))
			}
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
		s := r.Summary
		note := "not bracketed: no rung above it broke the SLO, capacity may be higher"
		if s.Bracketed {
			note = fmt.Sprintf("bracketed by rung %d", s.BracketRung)
		}
		if s.QMax == 0 {
			note = "no usable rung met the SLO"
		}
		partial := ""
		if r.Partial {
			partial = " (PARTIAL: the ladder was interrupted)"
		}
		_, err := fmt.Fprintf(w, "Q_max %d at TTFAB p95 ≤ %.0f ms over %d run(s), %s; S_mean %.1f ms, S_p95 %.1f ms%s\n",
			s.QMax, r.Config.SLO.Seconds()*1000, s.Runs, note, s.SMeanMs, s.SP95Ms, partial)
		if err != nil {
			return fmt.Errorf("write table: %w", err)
		}
		return nil
	}
}

func verdict(s RungStats, sloMs float64) string {
	if !s.Usable {
		return "unusable: " + strings.Join(s.Unusable, ",")
	}
	if s.TTFAB.P95 <= sloMs {
		return "meets slo"
	}
	return "over slo"
}

// RenderProgress writes p as one terminal line (no newline), a bar over the hold followed by
// the current p95 TTFAB, stall p95 and rps.
func RenderProgress(w io.Writer, p Progress, barWidth int) error {
	if barWidth < 1 {
		barWidth = 1
	}
	frac := 1.0
	if p.Hold > 0 {
		frac = min(1, max(0, float64(p.Elapsed)/float64(p.Hold)))
	}
	filled := int(frac * float64(barWidth))
	bar := strings.Repeat("█", filled) + strings.Repeat("░", barWidth-filled)
	phase := "warm"
	switch {
	case p.Draining:
		phase = "drain"
	case p.Measuring:
		phase = "meas"
	}
	_, err := fmt.Fprintf(w, "\rrun %d/%d rung %d/%d N=%-4d %s %3.0f%% %-5s p95 %7.0fms stall p95 %6.0fms %7.2f rps ok %d rej %d err %d\x1b[K",
		p.Run, p.Runs, p.Rung, p.Rungs, p.N, bar, frac*100, phase, p.TTFABP95Ms, p.StallP95Ms, p.RPS, p.OK, p.Rejected, p.Failed)
	if err != nil {
		return fmt.Errorf("write progress: %w", err)
	}
	return nil
}

package bench

import "time"

// RunSummary is what one pass over the ladder concluded.
type RunSummary struct {
	Run int `json:"run"`
	// QMax is the highest usable rung whose TTFAB p95 met the SLO; 0 when none did.
	QMax int `json:"qmax"`
	// Bracketed: a rung above QMax broke the SLO (p95 over it, or the server refused work), so
	// the true capacity lies between QMax and BracketRung rather than beyond the ladder. Never
	// set when QMax is 0.
	Bracketed   bool `json:"bracketed"`
	BracketRung int  `json:"bracket_rung,omitempty"`
	// SRung is the lowest usable rung; SMeanMs and SP95Ms are the full latency there.
	SRung   int     `json:"s_rung,omitempty"`
	SMeanMs float64 `json:"s_mean_ms"`
	SP95Ms  float64 `json:"s_p95_ms"`
	// StoppedSaturated: the run ended early after consecutive saturated rungs.
	StoppedSaturated bool `json:"stopped_saturated,omitempty"`
	// Interrupted: the run was cut short by the user; its conclusions cover the rungs it ran.
	Interrupted bool        `json:"interrupted,omitempty"`
	Rungs       []RungStats `json:"rungs"`
}

// Summary is the conclusion over every run, each number taken on the safe side: the smallest
// Q_max, since the capacity to plan on is one the instance showed every time, and the largest
// S_mean and S_p95, since the planner's queue-wait budget W_max = SLO − S_p95 must hold in the
// slowest run too.
type Summary struct {
	QMax        int     `json:"qmax"`
	Bracketed   bool    `json:"bracketed"`
	BracketRung int     `json:"bracket_rung,omitempty"`
	SMeanMs     float64 `json:"s_mean_ms"`
	SP95Ms      float64 `json:"s_p95_ms"`
	Runs        int     `json:"runs"`
}

// brokeSLO reports whether a rung showed that the SLO cannot be held at its concurrency.
// Rungs that measured the client or an unstable capacity say nothing about the server.
func brokeSLO(s RungStats, slo time.Duration) bool {
	if s.Saturated() {
		return true
	}
	return s.OK > 0 && s.TTFAB.P95 > ms(slo) && !s.clientSideUnusable()
}

func (s RungStats) clientSideUnusable() bool {
	for _, r := range s.Unusable {
		if r == ReasonClientBound || r == ReasonCapacityChanged || r == ReasonInterrupted {
			return true
		}
	}
	return false
}

// SummarizeRun finds Q_max, its bracket and S_mean/S_p95 in the rungs of one run (in ladder
// order) against slo.
func SummarizeRun(run int, rungs []RungStats, slo time.Duration) RunSummary {
	out := RunSummary{Run: run, Rungs: rungs}
	qi := -1
	for i, s := range rungs {
		if s.Usable && s.TTFAB.P95 <= ms(slo) && (qi < 0 || s.N > rungs[qi].N) {
			qi = i
		}
	}
	if qi >= 0 {
		out.QMax = rungs[qi].N
	}
	for _, s := range rungs {
		if out.QMax > 0 && s.N > out.QMax && brokeSLO(s, slo) && (!out.Bracketed || s.N < out.BracketRung) {
			out.Bracketed, out.BracketRung = true, s.N
		}
	}
	si := -1
	for i, s := range rungs {
		if s.Usable && (si < 0 || s.N < rungs[si].N) {
			si = i
		}
	}
	if si >= 0 {
		out.SRung, out.SMeanMs, out.SP95Ms = rungs[si].N, rungs[si].LatencyMean, rungs[si].Latency.P95
	}
	return out
}

// Summarize takes the smallest Q_max and the largest S_mean and S_p95 over runs. The bracket
// comes from the run that set Q_max. Runs that found no usable rung contribute a Q_max of zero,
// which is the honest minimum, and no service time. An
// interrupted run is left out when a complete one exists: it stopped at some rung for a reason
// that says nothing about the server.
func Summarize(runs []RunSummary) Summary {
	var s Summary
	complete := runs[:0:0]
	for _, r := range runs {
		if !r.Interrupted {
			complete = append(complete, r)
		}
	}
	if len(complete) > 0 {
		runs = complete
	}
	s.Runs = len(runs)
	for i, r := range runs {
		if i == 0 || r.QMax < s.QMax {
			s.QMax, s.Bracketed, s.BracketRung = r.QMax, r.Bracketed, r.BracketRung
		}
		if r.SRung == 0 {
			continue
		}
		s.SMeanMs = max(s.SMeanMs, r.SMeanMs)
		s.SP95Ms = max(s.SP95Ms, r.SP95Ms)
	}
	return s
}

package bench

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Recompute rebuilds the statistics of every rung of a qmax artifact from its raw results, so
// a report can be checked or redone with different code. Windows come from the artifact's
// configuration; capacity and the concurrency ratio, which the raw results do not carry, come
// from the artifact. An interrupted rung's window ended at the interruption, which the artifact
// does not record: it is recomputed over the requests that started before the last one ended.
func Recompute(q *artifact.Qmax, results []Result) ([]RunSummary, error) {
	hold := seconds(q.Config.HoldS)
	win := Window{Start: hold - seconds(q.Config.MeasureWindowS), End: hold}
	if win.Start < 0 || win.End <= win.Start {
		return nil, fmt.Errorf("artifact ladder config hold %vs measure %vs has no window", q.Config.HoldS, q.Config.MeasureWindowS)
	}
	type key struct{ run, n int }
	byRung := map[key][]Result{}
	for _, r := range results {
		k := key{r.Run, r.Rung}
		byRung[k] = append(byRung[k], r)
	}
	slo := time.Duration(math.Round(q.SLOms * float64(time.Millisecond)))
	var out []RunSummary
	for _, run := range q.Runs() {
		var rungs []RungStats
		for _, step := range q.Run(run) {
			rs := byRung[key{run, step.Concurrency}]
			interrupted := strings.Contains(step.UnusableReason, ReasonInterrupted)
			w := win
			if interrupted {
				var end time.Duration
				for _, r := range rs {
					end = max(end, r.End)
				}
				w = Window{Start: max(0, end-seconds(q.Config.MeasureWindowS)), End: min(end, hold)}
			}
			agg := NewRungAggregator(run, step.Concurrency, w)
			for _, r := range rs {
				agg.Add(r)
			}
			s := agg.Close()
			s.Interrupts = interrupted
			if len(step.InstanceCounts) == 2 {
				s.CapacityBefore, s.CapacityAfter = step.InstanceCounts[0], step.InstanceCounts[1]
			}
			s.ConcurrencyRatio = step.CWRatio
			s.ServerInFlightMean, s.ServerInFlightPeak = step.ServerConcurrencyMean, step.ServerConcurrencyPeak
			s.Judge()
			rungs = append(rungs, s)
		}
		out = append(out, SummarizeRun(run, rungs, slo))
	}
	return out, nil
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }

package artifact

import (
	"fmt"
	"sort"
)

// StageNames returns the scale-out stages (docs/bench.md) in their logical order. Stages with
// equal timestamps (ready and warmup_done often share one) are ordered by it.
func StageNames() []string {
	return []string{StageLoadApplied, StageDesiredSet, StageInstanceLogging, StageContainerStarted,
		StageFrameworkInit, StageWeightsReady, StageWarmupDone, StageReady, StageInService, StageTrafficRecovered}
}

// Derive fills the figures of a ttotal artifact from its Stages and PolicyLagBoundS: the
// intervals between consecutive stages in time order (those ending at or before
// desired_set marked BeforeClock), each interval's share of their sum, the dominant
// clocked interval, MeasuredS (desired_set → the last stage reached), PreClockS (the
// intervals before desired_set, kept apart from T_total), PlanningS, Bounded
// (the last stage is an upper bound) and MissingStages. It fails without a desired_set
// stage, since the clock starts there.
func (t *TTotal) Derive() error {
	clock, ok := t.Stage(StageDesiredSet)
	if !ok || clock.At.IsZero() {
		return fmt.Errorf("derive ttotal: no %s stage, the clock has no start", StageDesiredSet)
	}
	stages := SortStages(t.Stages)
	t.Durations, t.DominantStage = nil, nil
	t.PreClockS = 0
	var sum float64
	for i := 1; i < len(stages); i++ {
		a, b := stages[i-1], stages[i]
		d := Duration{
			From: a.Name, To: b.Name,
			Seconds:     b.At.Sub(a.At).Seconds(),
			Bounded:     a.Bounded || b.Bounded,
			BeforeClock: !b.At.After(clock.At),
		}
		sum += d.Seconds
		if d.BeforeClock {
			t.PreClockS += d.Seconds
		}
		t.Durations = append(t.Durations, d)
	}
	for i := range t.Durations {
		if sum > 0 {
			t.Durations[i].Share = t.Durations[i].Seconds / sum
		}
		d := t.Durations[i]
		if !d.BeforeClock && (t.DominantStage == nil || d.Seconds > t.DominantStage.Seconds) {
			t.DominantStage = &d
		}
	}
	last := stages[len(stages)-1]
	t.MeasuredS = last.At.Sub(clock.At).Seconds()
	t.Bounded = last.Bounded
	t.PlanningS = t.MeasuredS + t.PolicyLagBoundS
	t.MissingStages = nil
	for _, n := range StageNames() {
		if _, ok := t.Stage(n); !ok {
			t.MissingStages = append(t.MissingStages, n)
		}
	}
	return nil
}

// SortStages returns the stages in time order, ties in StageNames order, as Derive lists
// them: consecutive stages bound the intervals, so each instant between the first and the
// last lies in exactly one.
func SortStages(in []Stage) []Stage {
	stages := append([]Stage(nil), in...)
	sort.SliceStable(stages, func(i, j int) bool {
		if !stages[i].At.Equal(stages[j].At) {
			return stages[i].At.Before(stages[j].At)
		}
		return rank(stages[i].Name) < rank(stages[j].Name)
	})
	return stages
}

// rank places unknown stage names after the known ones.
func rank(name string) int {
	names := StageNames()
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return len(names)
}

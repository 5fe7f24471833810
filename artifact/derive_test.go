package artifact

import (
	"math"
	"testing"
	"time"
)

// Deriving the reference run's figures from its timeline alone gives back its T_total,
// its dominant stage and the 30 s before the clock kept apart.
func TestDeriveFromReferenceTimeline(t *testing.T) {
	t.Parallel()
	ref, err := ReadTTotal(refTTotalFile)
	if err != nil {
		t.Fatal(err)
	}
	d := &TTotal{Stages: ref.Stages, PolicyLagBoundS: 60}
	if err := d.Derive(); err != nil {
		t.Fatal(err)
	}
	if math.Abs(d.MeasuredS-260.248496) > 1e-6 || math.Abs(d.PlanningS-320.248496) > 1e-6 {
		t.Errorf("T_total %v, planning %v", d.MeasuredS, d.PlanningS)
	}
	if !d.Bounded {
		t.Error("traffic_recovered is an upper bound, so T_total is bounded")
	}
	if math.Abs(d.ClockedSeconds()-d.MeasuredS) > 1e-6 {
		t.Errorf("clocked durations %v != T_total %v", d.ClockedSeconds(), d.MeasuredS)
	}
	if d.Durations[0].From != StageLoadApplied || !d.Durations[0].BeforeClock || math.Abs(d.Durations[0].Seconds-30.00156) > 1e-6 {
		t.Errorf("first interval %+v", d.Durations[0])
	}
	if d.DominantStage == nil || d.DominantStage.From != StageDesiredSet || d.DominantStage.To != StageInstanceLogging {
		t.Errorf("dominant %+v", d.DominantStage)
	}
	// container_started is listed after ready in the reference timeline but happened
	// before framework_init; ready and warmup_done share a timestamp.
	var order []string
	for _, x := range d.Durations {
		order = append(order, x.To)
	}
	want := []string{StageDesiredSet, StageInstanceLogging, StageContainerStarted, StageFrameworkInit,
		StageWeightsReady, StageWarmupDone, StageReady, StageInService, StageTrafficRecovered}
	if len(order) != len(want) {
		t.Fatalf("order %v", order)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	var share float64
	for _, x := range d.Durations {
		share += x.Share
	}
	if math.Abs(share-1) > 1e-9 || len(d.MissingStages) != 0 {
		t.Errorf("shares sum to %v, missing %v", share, d.MissingStages)
	}
}

func TestDeriveNeedsDesiredSet(t *testing.T) {
	t.Parallel()
	d := &TTotal{Stages: []Stage{{Name: StageReady, At: time.Unix(10, 0)}}}
	if err := d.Derive(); err == nil {
		t.Error("derived a T_total without a clock start")
	}
	d = &TTotal{Stages: []Stage{{Name: StageDesiredSet, At: time.Unix(0, 0)}, {Name: StageInService, At: time.Unix(100, 0)}}}
	if err := d.Derive(); err != nil {
		t.Fatal(err)
	}
	if d.MeasuredS != 100 || len(d.MissingStages) != 8 || d.MissingStages[0] != StageLoadApplied {
		t.Errorf("T_total %v missing %v", d.MeasuredS, d.MissingStages)
	}
}

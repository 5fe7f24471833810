package planner

import "testing"

// BenchmarkSurgeSimulation measures the simulator on a parallel server that never reaches
// its limit, so every trial runs the whole horizon: the worst case per trial.
func BenchmarkSurgeSimulation(b *testing.B) {
	linear := curve{{1, 1}, {1000, 1000}}
	var events float64
	for b.Loop() {
		s := simulateSurge(linear, 300, 400, 1.0, 10, 100, 1)
		events += (s.ArrivalRPS + s.ServiceRPS) * s.HorizonS * float64(s.Trials)
	}
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkMakeReference is a whole plan from the reference artifacts, 1000 surge trials.
func BenchmarkMakeReference(b *testing.B) {
	in := refInputs(b)
	sc := refScenario()
	sc.SurgeTrials = DefaultSurgeTrials
	for b.Loop() {
		if _, err := Make(in, sc); err != nil {
			b.Fatal(err)
		}
	}
}

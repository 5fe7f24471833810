package planner

import (
	"os"
	"testing"

	"github.com/kokoro-sm/kokoro/artifact"
)

// FuzzMake plans from arbitrary qmax artifacts: whatever parses must plan without a panic,
// and the plan must be self-consistent.
func FuzzMake(f *testing.F) {
	data, err := os.ReadFile(refQmax)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, 1.25, 5000.0, 10.0)
	f.Add([]byte(`{"schema_version":1,"kind":"qmax","target":{"model":"m","transport":"http"},"slo_ms":1000,"q_max":3,"s_p95_s":0.1,"steps":[{"concurrency":1,"achieved_rps":5,"usable":true,"ttfab_p95_ms":100}]}`), 1.1, 10.0, 0.0)
	f.Fuzz(func(t *testing.T, data []byte, surge, peak, trough float64) {
		q, err := artifact.ParseQmax(data)
		if err != nil {
			return
		}
		sc := Scenario{Surge: surge, PeakRPS: peak, TroughRPS: trough, AssumeTTotalS: 100, SurgeTrials: 20, Seed: 1}
		p, err := Make(Inputs{Qmax: q}, sc)
		if err != nil {
			return
		}
		if (p.Stops > 0) != (p.Verdict == VerdictStop) || (p.Stops > 0) != (p.Documents.TargetTracking == nil) {
			t.Errorf("verdict %s with %d stops, documents %v", p.Verdict, p.Stops, p.Documents.TargetTracking != nil)
		}
		if p.Fleet.MaxInstances < p.Fleet.MinInstances || p.Fleet.MinInstances < 1 {
			t.Errorf("fleet min %d max %d", p.Fleet.MinInstances, p.Fleet.MaxInstances)
		}
		if _, err := p.Files(Page{Ladder: q}); err != nil {
			t.Errorf("files: %v", err)
		}
	})
}

package workflow

import (
	"time"

	"github.com/kokoro-sm/kokoro/planner"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runPlanReplay runs the plan replay job and returns what it printed.
func runPlanReplay(r PlanReplay) (string, error) {
	var out strings.Builder
	err := r.Run(&out)
	return out.String(), err
}

// refReplay replays a plan on the reference artifacts for the given load.
func refReplay(peak, trough float64) PlanReplay {
	r := NewPlanReplay()
	r.Plan = refPlan(peak, trough, 100)
	return r
}

type replayFile struct {
	Trace    string
	Requests int
	Replays  []struct {
		Policy  string
		Summary struct {
			Requests       int
			OK             int
			Shed           int     `json:"shed_503"`
			ShareWithinSLO float64 `json:"share_within_slo"`
			MinutesOverSLO int     `json:"minutes_over_slo"`
			ScaleOuts      int     `json:"scale_outs"`
		}
	}
}

// On the reference artifacts, a 1.25× step from the trough replayed against both policies:
// the arithmetic's target of 37.5 sheds and misses the SLO for minutes, the proposal keeps
// every request within it.
func TestRealPlanReplayOfTheReference(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rp := refReplay(5000, 100)
	rp.Plan.Scenario.Surge, rp.Traffic.Length, rp.Out = 1.25, 25*time.Minute, dir
	out, err := runPlanReplay(rp)
	if err != nil {
		t.Fatalf("plan replay: %v\n%s", err, out)
	}
	var r replayFile
	readJSON(t, filepath.Join(dir, FileReplaySummary), &r)
	if len(r.Replays) != 2 || !strings.HasPrefix(r.Replays[0].Policy, "reference") || !strings.HasPrefix(r.Replays[1].Policy, "proposal") {
		t.Fatalf("replays %+v\n%s", r.Replays, out)
	}
	ref, pro := r.Replays[0].Summary, r.Replays[1].Summary
	if ref.Requests != r.Requests || ref.OK+ref.Shed != ref.Requests || pro.Requests != r.Requests {
		t.Errorf("counts: %+v %+v of %d", ref, pro, r.Requests)
	}
	if ref.Shed == 0 || ref.MinutesOverSLO == 0 {
		t.Errorf("the reference policy neither shed nor missed the SLO: %+v", ref)
	}
	if pro.Shed != 0 || pro.MinutesOverSLO != 0 || pro.ScaleOuts == 0 {
		t.Errorf("the proposal shed %d or missed the SLO in %d minutes (scale-outs %d)", pro.Shed, pro.MinutesOverSLO, pro.ScaleOuts)
	}
	if st, err := os.Stat(filepath.Join(dir, FileReplayTimeline)); err != nil || st.Size() == 0 {
		t.Errorf("timeline: %v", err)
	}
}

// A trace file of rates replays as well, and a bad one is refused with the line it is on.
func TestRealPlanReplayTraceFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.csv")
	if err := os.WriteFile(trace, []byte("t_s,rps\n0,50\n300,50\n301,80\n600,80\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rp := refReplay(5000, 50)
	rp.Traffic.Trace, rp.Policies, rp.Out = trace, []string{"proposal"}, dir
	out, err := runPlanReplay(rp)
	if err != nil {
		t.Fatalf("plan replay: %v\n%s", err, out)
	}
	var r replayFile
	readJSON(t, filepath.Join(dir, FileReplaySummary), &r)
	if len(r.Replays) != 1 || r.Requests < 30000 || r.Requests > 40000 {
		t.Errorf("%d requests in %d replays (want about 15 000 + 24 000)", r.Requests, len(r.Replays))
	}
	if err := os.WriteFile(trace, []byte("t_s,rps\n0,50\n-3,80\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rp = refReplay(5000, 50)
	rp.Plan.Scenario.SurgeTrials = planner.DefaultSurgeTrials
	rp.Traffic.Trace = trace
	_, err = runPlanReplay(rp)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad trace: %v", err)
	}
}

// Any candidate of the search replays by its kind; a name that is none is refused with the
// kinds there are. --time-scale compresses AWS's clock and the scale-out time, so a trace
// compressed by the same factor tells the same story in a tenth of the time.
func TestRealPlanReplayCandidatesAndTimeScale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	replayWith := func(edit func(*PlanReplay)) (string, error) {
		rp := refReplay(5000, 100)
		rp.Plan.Scenario.Surge = 1.25
		edit(&rp)
		return runPlanReplay(rp)
	}
	out, err := replayWith(func(rp *PlanReplay) {
		rp.Traffic.Length, rp.Policies, rp.Out = 25*time.Minute, []string{"floor", "step-concurrency"}, dir
	})
	if err != nil {
		t.Fatalf("plan replay: %v\n%s", err, out)
	}
	var r replayFile
	readJSON(t, filepath.Join(dir, FileReplaySummary), &r)
	if len(r.Replays) != 2 || !strings.HasPrefix(r.Replays[0].Policy, "floor: fixed") || !strings.HasPrefix(r.Replays[1].Policy, "step-concurrency: step") {
		t.Fatalf("replays %+v", r.Replays)
	}
	if fl := r.Replays[0].Summary; fl.Shed != 0 || fl.ScaleOuts != 0 {
		t.Errorf("a fixed fleet sized for the surge shed %d or scaled %d times", fl.Shed, fl.ScaleOuts)
	}
	if _, err := replayWith(func(rp *PlanReplay) { rp.Policies = []string{"bogus"} }); err == nil || !strings.Contains(err.Error(), "target-tracking-invocations") {
		t.Errorf("an unknown policy: %v", err)
	}
	if _, err := replayWith(func(rp *PlanReplay) { rp.TimeScale = 0 }); err == nil || !strings.Contains(err.Error(), "--time-scale") {
		t.Errorf("--time-scale 0: %v", err)
	}

	fast := t.TempDir()
	out, err = replayWith(func(rp *PlanReplay) {
		rp.TimeScale, rp.Traffic.At, rp.Traffic.Length, rp.Out = 0.1, time.Minute, 150*time.Second, fast
	})
	if err != nil {
		t.Fatalf("plan replay --time-scale: %v\n%s", err, out)
	}
	readJSON(t, filepath.Join(fast, FileReplaySummary), &r)
	ref, pro := r.Replays[0].Summary, r.Replays[1].Summary
	if ref.Shed == 0 || pro.Shed != 0 || pro.ScaleOuts == 0 {
		t.Errorf("compressed tenfold: reference shed %d, proposal shed %d after %d scale-outs\n%s", ref.Shed, pro.Shed, pro.ScaleOuts, out)
	}
}

package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

const (
	planRefQmax   = "../planner/testdata/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json"
	planRefTTotal = "../planner/testdata/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json"
)

// refPlan is a plan on the reference artifacts for the given load, with surge trials few
// enough for a test.
func refPlan(peak, trough float64, trials int) Plan {
	p := NewPlan()
	p.Qmax, p.TTotal = planRefQmax, planRefTTotal
	p.Scenario.PeakRPS, p.Scenario.TroughRPS, p.Scenario.SurgeTrials = peak, trough, trials
	return p
}

// runPlan runs the plan job and returns what it printed.
func runPlan(p Plan) (string, error) {
	var out bytes.Buffer
	err := p.Run(&out)
	return out.String(), err
}

// sharedPlan is one plan on the reference artifacts (peak 5000 rps, trough 100), made once for
// the tests that only need a plan.json to read; TestMain removes its directory.
var sharedPlan struct {
	once     sync.Once
	dir, out string
	err      error
}

// referencePlan returns the path of sharedPlan's plan.json, making it on first use.
func referencePlan(t *testing.T) string {
	t.Helper()
	sharedPlan.once.Do(func() {
		if sharedPlan.dir, sharedPlan.err = os.MkdirTemp("", "kokoro-plan-"); sharedPlan.err != nil {
			return
		}
		p := refPlan(5000, 100, 100)
		p.Out = sharedPlan.dir
		sharedPlan.out, sharedPlan.err = runPlan(p)
	})
	if sharedPlan.err != nil {
		t.Fatalf("plan: %v\n%s", sharedPlan.err, sharedPlan.out)
	}
	return filepath.Join(sharedPlan.dir, "plan.json")
}

func TestRealPlanReferenceArtifacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := refPlan(5000, 10, 200)
	p.Out = dir
	out, err := runPlan(p)
	if err != nil {
		t.Fatalf("plan failed: %v\n%s", err, out)
	}
	for _, want := range []string{"= 37.5", "= 25", "min_safe         3", "2.934 s", "= 30 s", "= 960 s",
		"MAX_QUEUE_DEPTH  50", "min 1 / max 280", "= 9 (not used)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The documents written are the proposal's; the arithmetic's (target 37.5) stay in plan.json
	// beside them.
	var plan struct {
		Policy struct {
			Proposal   int
			Candidates []struct {
				Kind    string
				Target  float64
				Refused float64 `json:"refused_share"`
			}
		}
		ReferenceDocuments struct {
			TargetTracking struct {
				TargetTrackingScalingPolicyConfiguration struct{ TargetValue float64 }
			} `json:"target_tracking"`
		} `json:"reference_documents"`
	}
	readJSON(t, filepath.Join(dir, "plan.json"), &plan)
	if plan.ReferenceDocuments.TargetTracking.TargetTrackingScalingPolicyConfiguration.TargetValue != 37.5 {
		t.Errorf("reference documents %+v", plan.ReferenceDocuments)
	}
	ps := plan.Policy
	if ps.Proposal < 1 || ps.Proposal >= len(ps.Candidates) || ps.Candidates[ps.Proposal].Refused > 0.001 || !strings.Contains(out, "PROPOSED") {
		t.Fatalf("policy search %+v\n%s", ps, out)
	}
	var tt struct {
		TargetTrackingScalingPolicyConfiguration struct {
			TargetValue      float64
			ScaleOutCooldown int
			ScaleInCooldown  int
			DisableScaleIn   bool
		}
	}
	readJSON(t, filepath.Join(dir, "policy-target-tracking.json"), &tt)
	c := tt.TargetTrackingScalingPolicyConfiguration
	if c.TargetValue != ps.Candidates[ps.Proposal].Target || c.ScaleOutCooldown != 30 || c.ScaleInCooldown != 960 || !c.DisableScaleIn {
		t.Errorf("target tracking document %+v; the proposal's target is %v", c, ps.Candidates[ps.Proposal].Target)
	}
	for _, name := range []string{"plan.json", "report.txt", "report.html", "scalable-target.json", "policy-step-scale-in.json", "alarm-scale-in.json", "container-env.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	// report.html draws the ladder and the default replay of the reference and the proposal.
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<svg id="ladder"`, `<svg id="candidates"`, `<svg id="timeline-in-service"`,
		`data-series="reference: target tracking ConcurrentRequestsPerModel 37.5`, `data-series="proposal: target tracking InvocationsPerInstance`,
		"The replay of a step from 10 to 12.5 rps"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// Without a trough in requests a second there is no step to replay: report.html says so.
func TestPlanPageWithoutTrough(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := refPlan(5000, 0, 20)
	p.Out = dir
	if out, err := runPlan(p); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("No replay timeline: no trough in requests a second")) || !bytes.Contains(page, []byte(`<svg id="ladder"`)) {
		t.Error("report.html should draw the ladder and say why it has no replay")
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestPlanExitsOneOnStop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// An SLO of 50 ms is below the measured S_p95 of 66 ms: slo_budget is STOP.
	p := refPlan(100, 0, 10)
	p.Scenario.SLOms, p.Out = 50, dir
	out, err := runPlan(p)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 1 {
		t.Fatalf("err = %v, want exit status 1\n%s", err, out)
	}
	if !strings.Contains(out, "STOP") {
		t.Errorf("report does not show the STOP finding:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "policy-target-tracking.json")); !os.IsNotExist(err) {
		t.Errorf("a STOP plan wrote deployable documents (stat err %v)", err)
	}
}

// A plan the job cannot make is refused with an error, not a STOP finding: the command exits 2.
// (A missing --qmax and both T_total flags at once are the command line's, in cmd/kokoro.)
func TestPlanRefusals(t *testing.T) {
	t.Parallel()
	for name, edit := range map[string]func(*Plan){
		"no T_total": func(p *Plan) { p.TTotal = "" },
		"no peak":    func(p *Plan) { p.Scenario.PeakRPS = 0 },
		"surge < 1":  func(p *Plan) { p.Scenario.Surge = 0.9 },
		"wrong kind": func(p *Plan) { p.Qmax = planRefTTotal },
	} {
		p := refPlan(1, 0, 10)
		edit(&p)
		_, err := runPlan(p)
		var ee *ExitError
		if err == nil || errors.As(err, &ee) {
			t.Errorf("%s: err = %v, want a usage error (exit 2)", name, err)
		}
	}
}

// The self-benchmark kept in testdata/selfbench replans to the report and policy stored beside
// it, byte for byte (but for the path of the artifact, which the report quotes).
func TestPlanReplansTheSelfBenchmark(t *testing.T) {
	t.Parallel()
	const sb = "../testdata/selfbench"
	dir := t.TempDir()
	qmax := filepath.Join(sb, "qmax-kokoro-82m-http-local-e61fb50a.json")
	p := NewPlan()
	p.Qmax, p.Out = qmax, dir
	p.Scenario.AssumeTTotalS, p.Scenario.PeakRPS, p.Scenario.TroughRPS = 180, 20, 1
	if _, err := runPlan(p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ got, want string }{
		{"report.txt", "plan-report.txt"},
		{"policy-target-tracking.json", "policy-target-tracking.json"},
	} {
		got, err := os.ReadFile(filepath.Join(dir, f.got))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(sb, f.want))
		if err != nil {
			t.Fatal(err)
		}
		pathLine := regexp.MustCompile(`(?m)^  qmax: .*/(qmax-[^/]+\.json)`)
		got, want = pathLine.ReplaceAll(got, []byte("  qmax: $1")), pathLine.ReplaceAll(want, []byte("  qmax: $1"))
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s:\n%s", f.got, f.want, got)
		}
	}
}

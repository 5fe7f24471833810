package artifact

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	refQmaxFile   = "testdata/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json"
	refTTotalFile = "testdata/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json"
	refDigest     = "8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced"
)

func TestSlug(t *testing.T) {
	t.Parallel()
	cases := []struct{ it, digest, want string }{
		{"ml.g5.xlarge", refDigest, "g5xlarge-8b1b96bc"},
		{"ml.g5.xlarge", "sha256:" + refDigest, "g5xlarge-8b1b96bc"},
		{"ml.g6e.2xlarge", "123.dkr.ecr.us-east-1.amazonaws.com/kokoro@sha256:" + refDigest, "g6e2xlarge-8b1b96bc"},
		{"ML.C7I.4XLARGE", "ABCDEF0123", "c7i4xlarge-abcdef01"},
		{"ml.g5.xlarge", "", "g5xlarge"},
		{"", "", "unknown"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			if got := Slug(c.it, c.digest); got != c.want {
				t.Errorf("Slug(%q, %q) = %q, want %q", c.it, c.digest, got, c.want)
			}
		})
	}
}

func TestLocalSlugChangesWithEveryInput(t *testing.T) {
	t.Parallel()
	base := LocalSlug("box", "v1.2.3", "kokoro-82m")
	if !strings.HasPrefix(base, "local-") || len(base) != len("local-")+8 {
		t.Fatalf("LocalSlug = %q, want local-<8 hex>", base)
	}
	if again := LocalSlug("box", "v1.2.3", "kokoro-82m"); again != base {
		t.Errorf("LocalSlug not deterministic: %q then %q", base, again)
	}
	for _, other := range []string{
		LocalSlug("box2", "v1.2.3", "kokoro-82m"),
		LocalSlug("box", "v1.2.4", "kokoro-82m"),
		LocalSlug("box", "v1.2.3", "kokoro-82m-fp16"),
		LocalSlug("boxv", "1.2.3", "kokoro-82m"), // no ambiguity at the field boundary
	} {
		if other == base {
			t.Errorf("LocalSlug collision: %q", other)
		}
	}
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	a := Target{Kind: TargetSageMaker, InstanceType: "ml.g5.xlarge", ImageDigest: refDigest}
	b := a
	b.ImageDigest = "sha256:" + refDigest // same image, other spelling
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("digest spelling changed the fingerprint")
	}
	c := a
	c.ContainerEnv = map[string]string{"MAX_QUEUE_DEPTH": "50"}
	if a.Fingerprint() == c.Fingerprint() {
		t.Error("container env did not change the fingerprint")
	}
	d := a
	d.Transport, d.Endpoint = "http", "other" // not configuration of the instance
	if a.Fingerprint() != d.Fingerprint() {
		t.Error("transport/endpoint changed the fingerprint")
	}
	l := Target{Kind: TargetLocal, Host: "h", Build: "b", Model: "m"}
	if l.Slug() != LocalSlug("h", "b", "m") {
		t.Errorf("local Target.Slug = %q, want LocalSlug", l.Slug())
	}
	l2 := l
	l2.ModelID = "sha256-of-model"
	if l.Fingerprint() == l2.Fingerprint() || l.Slug() == l2.Slug() {
		t.Error("model id did not change the local fingerprint")
	}
}

func TestReadReferenceQmax(t *testing.T) {
	t.Parallel()
	q, err := ReadQmax(refQmaxFile)
	if err != nil {
		t.Fatal(err)
	}
	if q.QMax != 50 || !q.QMaxBracketed || q.SLOms != 3000 {
		t.Errorf("q_max %d bracketed %v slo %v, want 50 true 3000", q.QMax, q.QMaxBracketed, q.SLOms)
	}
	if q.SMeanS != 0.06132258724884511 || q.SP95S != 0.06613509664312005 {
		t.Errorf("S_mean %v S_p95 %v", q.SMeanS, q.SP95S)
	}
	if q.Slug != "g5xlarge-8b1b96bc" || q.Target.Transport != TransportSageMakerStream {
		t.Errorf("slug %q transport %q", q.Slug, q.Target.Transport)
	}
	if got := filepath.Base(refQmaxFile); q.FileName() != strings.Replace(got, "response-stream", "sagemaker-stream", 1) {
		t.Errorf("FileName %q", q.FileName())
	}
	if want := []int{1, 5, 10, 20, 30, 40, 50, 60}; !reflect.DeepEqual(q.Config.Ladder, want) {
		t.Errorf("ladder %v, want %v", q.Config.Ladder, want)
	}
	if q.Provenance.SourceFormat != FormatTTSBench || q.Provenance.CreatedAt.IsZero() {
		t.Errorf("provenance %+v", q.Provenance)
	}
	if len(q.Steps) != 8 {
		t.Fatalf("%d steps, want 8", len(q.Steps))
	}
	top := q.Steps[7]
	if top.Concurrency != 60 || top.MeetsSLO || top.OutcomeCounts["model_error"] != 1 || top.OK != 1073 ||
		top.ConcurrencyPeak != 60 || top.ServerConcurrencyMean != 60 || top.TTFABP95Ms != 3374.7788213193417 {
		t.Errorf("rung 60 decoded as %+v", top)
	}
	if q.Steps[1].AchievedRPS != 17.9 {
		t.Errorf("rung 5 rps %v", q.Steps[1].AchievedRPS)
	}
}

func TestReadReferenceTTotal(t *testing.T) {
	t.Parallel()
	tt, err := ReadTTotal(refTTotalFile)
	if err != nil {
		t.Fatal(err)
	}
	if tt.MeasuredS != 260.248496 || tt.PlanningS != 320.248496 || tt.PolicyLagBoundS != 60 {
		t.Errorf("T_total %v planning %v lag %v", tt.MeasuredS, tt.PlanningS, tt.PolicyLagBoundS)
	}
	if tt.FileName() != filepath.Base(refTTotalFile) {
		t.Errorf("FileName %q, want %q", tt.FileName(), filepath.Base(refTTotalFile))
	}
	// The listed durations add up to 290.2 s because load_applied→desired_set happens before
	// the clock starts; only the clocked ones make T_total.
	var all float64
	for _, d := range tt.Durations {
		all += d.Seconds
	}
	if math.Abs(all-290.25) > 0.01 {
		t.Errorf("sum of all durations %v, want ≈290.25", all)
	}
	if math.Abs(tt.ClockedSeconds()-tt.MeasuredS) > 0.01 {
		t.Errorf("clocked durations %v, want T_total %v", tt.ClockedSeconds(), tt.MeasuredS)
	}
	if !tt.Durations[0].BeforeClock || tt.Durations[1].BeforeClock {
		t.Errorf("before-clock flags wrong: %+v %+v", tt.Durations[0], tt.Durations[1])
	}
	ds, ok := tt.Stage(StageDesiredSet)
	if !ok || !ds.At.Equal(time.Date(2026, 8, 4, 14, 44, 51, 707868000, time.UTC)) {
		t.Errorf("desired_set = %v, %v", ds.At, ok)
	}
	q, err := ReadQmax(refQmaxFile)
	if err != nil {
		t.Fatal(err)
	}
	if q.Fingerprint != tt.Fingerprint {
		t.Error("reference qmax and ttotal of the same deployment have different fingerprints")
	}
}

// Writing an artifact and reading it back must give back the same values, floats and
// timestamps included.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	q, err := ReadQmax(refQmaxFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Write(dir, q)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "qmax-kokoro-82m-sagemaker-stream-g5xlarge-8b1b96bc.json" {
		t.Errorf("written as %s", p)
	}
	back, err := ReadQmax(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q, back) {
		t.Errorf("qmax changed in a round trip:\n%+v\n%+v", q, back)
	}

	tt, err := ReadTTotal(refTTotalFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err = Write(dir, tt)
	if err != nil {
		t.Fatal(err)
	}
	tback, err := ReadTTotal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tt, tback) {
		t.Errorf("ttotal changed in a round trip:\n%+v\n%+v", tt, tback)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("dir holds %d entries, want the 2 artifacts (no temp files)", len(entries))
	}
}

func TestWriteFillsDefaultsWithoutMutating(t *testing.T) {
	t.Parallel()
	q := &Qmax{
		Header: Header{Target: Target{Kind: TargetLocal, Transport: TransportHTTP, Model: "kokoro-82m", Host: "h", Build: "b"}},
		SLOms:  3000, QMax: 4,
		Steps: []Rung{{Concurrency: 1, OK: 10, Completed: 10}},
	}
	p, err := Write(t.TempDir(), q)
	if err != nil {
		t.Fatal(err)
	}
	if q.SchemaVersion != 0 || q.Slug != "" {
		t.Error("Write modified its argument")
	}
	if want := "qmax-kokoro-82m-http-" + LocalSlug("h", "b", "kokoro-82m") + ".json"; filepath.Base(p) != want {
		t.Errorf("written as %s, want %s", filepath.Base(p), want)
	}
	back, err := ReadQmax(p)
	if err != nil {
		t.Fatal(err)
	}
	if back.SchemaVersion != SchemaVersion || back.Kind != KindQmax || back.Fingerprint != q.Target.Fingerprint() {
		t.Errorf("defaults not filled: %+v", back)
	}
}

func TestRejects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, json string
		ttotal     bool
	}{
		{"not json", `nope`, false},
		{"array", `[]`, false},
		{"future schema", `{"schema_version": 99, "kind": "qmax"}`, false},
		{"wrong kind", `{"schema_version": 1, "kind": "ttotal", "target": {"model":"m","transport":"http"}, "slo_ms": 3000, "steps":[{"concurrency":1}]}`, false},
		{"no slo", `{"schema_version": 1, "kind": "qmax", "target": {"model":"m","transport":"http"}, "steps":[{"concurrency":1}]}`, false},
		{"zero concurrency", `{"schema_version": 1, "kind": "qmax", "target": {"model":"m","transport":"http"}, "slo_ms": 3000, "steps":[{"concurrency":0}]}`, false},
		{"ttotal given as qmax", `{"t_total_s": 3, "timeline": []}`, false},
		{"qmax given as ttotal", `{"q_max": 3, "steps": []}`, true},
		{"ttotal without time", `{"schema_version": 1, "kind": "ttotal", "target": {"model":"m"}, "trigger":"x"}`, true},
		{"ttotal bound below measured", `{"schema_version": 1, "kind": "ttotal", "target": {"model":"m"}, "trigger":"x", "t_total_s": 10, "t_total_with_policy_bound_s": 5}`, true},
		{"reference slug mismatch", `{"model_name":"m","trigger":"x","t_total_s":10,"t_total_with_policy_bound_s":10,"config_slug":"g5xlarge-00000000","deployed_config":{"instance_type":"ml.g5.xlarge","image_digest":"` + refDigest + `"}}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.ttotal {
				_, err = ParseTTotal([]byte(c.json))
			} else {
				_, err = ParseQmax([]byte(c.json))
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", c.name, err)
			}
		})
	}
}

// FuzzParse feeds arbitrary bytes to both parsers: no panic, and whatever they accept validates.
func FuzzParse(f *testing.F) {
	for _, p := range []string{refQmaxFile, refTTotalFile} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"schema_version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := ParseQmax(data)
		if err == nil && q.Validate() != nil {
			t.Error("ParseQmax returned an artifact that does not validate")
		}
		tt, err := ParseTTotal(data)
		if err == nil && tt.Validate() != nil {
			t.Error("ParseTTotal returned an artifact that does not validate")
		}
	})
}

// Two local runs of one build on one host with different server settings measure different
// things, so they must not share a fingerprint.
func TestLocalFingerprintCoversServerConfiguration(t *testing.T) {
	t.Parallel()
	a := Target{Kind: TargetLocal, Model: "kokoro-82m", Host: "h", Build: "b", ContainerEnv: map[string]string{"SLOTS": "1"}}
	b := a
	b.ContainerEnv = map[string]string{"SLOTS": "2"}
	if a.Fingerprint() == b.Fingerprint() {
		t.Fatal("SLOTS=1 and SLOTS=2 share a fingerprint")
	}
	if a.Slug() != b.Slug() {
		t.Fatal("the slug names host, build and model only (docs/bench.md)")
	}
}

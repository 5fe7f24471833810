package workflow

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// TestRealBenchSelf: the quick way to size a machine runs end to end on the real model:
// bench --self serves the model in-process, runs the ladder and writes the artifact with the
// engine's configuration as resolved, the raw results and the plot. What a rung measured
// depends on the machine's speed, so only what does not is checked here; the ladder's
// arithmetic and the plan from it are checked against a server of known speed
// (TestTransportsFindTheSameQmax).
func TestRealBenchSelf(t *testing.T) {
	a := testenv.RealModel(t)
	out := t.TempDir()
	job := NewQmax()
	job.Self, job.Ladder, job.Hold, job.Window, job.Settle, job.SLOms, job.Out = true, []int{1, 2}, 4*time.Second, 3*time.Second, 0, 40000, out
	job.Engine = tts.LoadConfig{Assets: a, Provider: "cpu", Threads: 2}
	log, err := runQmax(job)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log)
	}
	arts, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-http-local-*.json"))
	pngs, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-http-local-*.png"))
	raws, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-http-local-*.jsonl"))
	if len(arts) != 1 || len(pngs) != 1 || len(raws) != 1 {
		t.Fatalf("outputs: %v %v %v\n%s", arts, pngs, raws, log)
	}
	q, err := artifact.ReadQmax(arts[0])
	if err != nil {
		t.Fatal(err)
	}
	// Slots 0, the default, is the adaptive shape: recorded as the engine resolved it.
	shape := tts.AutoShape(runtime.NumCPU())
	env := q.Target.ContainerEnv
	if env["SLOTS"] != strconv.Itoa(len(shape)) || env["THREADS"] != strconv.Itoa(slices.Max(shape)) ||
		env["SLOT_THREADS"] != FormatInts(shape) || env["CORES"] != strconv.Itoa(runtime.NumCPU()) {
		t.Errorf("server configuration not recorded as resolved (shape %v): %v", shape, env)
	}
	if env["FIRST_CHUNK_AT"] != "punctuation" {
		t.Errorf("the first-chunk rule is not recorded: %v", env)
	}
	if len(q.Steps) != 2 || q.Partial {
		t.Fatalf("%d rungs, partial %v", len(q.Steps), q.Partial)
	}
	// Every rung sent its N requests at once, whatever became of them.
	fh, err := os.Open(raws[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	results, err := bench.ReadResults(fh)
	if err != nil {
		t.Fatal(err)
	}
	sent := map[int]int{}
	for _, r := range results {
		sent[r.Rung]++
	}
	if sent[1] < 1 || sent[2] < 2 {
		t.Errorf("raw results per rung: %v; want every rung's first requests", sent)
	}
}

// TestRealBenchSelfCopies: --copies 2 serves two engines behind one port, each on half the
// cores; the ladder runs over the WebSocket through it, the server-side concurrency is the
// copies' sum, and the artifact names the copies in its fingerprint and slug.
func TestRealBenchSelfCopies(t *testing.T) {
	a := testenv.RealModel(t)
	if runtime.NumCPU() < 2 {
		t.Skip("two copies need two cores")
	}
	out := t.TempDir()
	job := NewQmax()
	job.Self, job.Copies, job.Transport = true, 2, "ws"
	job.Ladder, job.Hold, job.Window, job.Settle, job.SLOms, job.Out = []int{2}, 6*time.Second, 5*time.Second, 0, 40000, out
	job.Engine = tts.LoadConfig{Assets: a, Provider: "cpu"}
	log, err := runQmax(job)
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, log)
	}
	arts, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-ws-local-*-x2.json"))
	if len(arts) != 1 {
		t.Fatalf("artifacts %v, want one whose slug names the two copies\n%s", arts, log)
	}
	q, err := artifact.ReadQmax(arts[0])
	if err != nil {
		t.Fatal(err)
	}
	one := q.Target
	one.Copies = 0
	if q.Target.Copies != 2 || q.Fingerprint == one.Fingerprint() {
		t.Errorf("copies %d, fingerprint %.12s: want 2, and a fingerprint other than one copy's", q.Target.Copies, q.Fingerprint)
	}
	if cores := q.Target.ContainerEnv["CORES"]; cores != strconv.Itoa(runtime.NumCPU()/2) {
		t.Errorf("each copy's CORES %s, want half of %d", cores, runtime.NumCPU())
	}
	// Two requests are always in flight at rung 2, however fast the machine: the gauge the
	// port sums over the copies sees them.
	if len(q.Steps) != 1 || !(q.Steps[0].ServerConcurrencyMean > 0) {
		t.Fatalf("rungs %+v: want one, with the copies' in-flight gauge read\n%s", q.Steps, log)
	}
}

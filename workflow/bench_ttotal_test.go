package workflow

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	logtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs/types"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/server"
)

// ttotalQmax writes a qmax artifact of the endpoint's configuration measured over transport.
func ttotalQmax(t *testing.T, c *sagemaker.Control, endpoint, tr string) string {
	t.Helper()
	target, err := c.EndpointTarget(context.Background(), endpoint, sagemaker.DefaultVariant, tr, "kokoro-82m")
	if err != nil {
		t.Fatal(err)
	}
	q := &artifact.Qmax{
		Header: artifact.Header{SchemaVersion: artifact.SchemaVersion, Kind: artifact.KindQmax,
			Provenance: artifact.Provenance{Tool: "kokoro", SourceFormat: artifact.FormatKokoro}, Target: target},
		SLOms: 3000, QMax: 4, Config: artifact.LadderConfig{Ladder: []int{1, 2, 4, 8}},
	}
	for i, c := range []int{1, 2, 4, 8} {
		q.Steps = append(q.Steps, artifact.Rung{StepIndex: i, Concurrency: c, OK: 100, Completed: 100, TTFABP95Ms: 20 * float64(c), Usable: true})
	}
	path, err := artifact.Write(t.TempDir(), q)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// motoGate is moto behind a proxy, for the command under test: once a call has raised the
// desired count (UpdateEndpointWeightsAndCapacities answered), every later call waits until
// the test opens the gate. moto counts the new instance in service at once; the gate lets the
// test choose when the command can see it. The test's own view of moto goes around the gate.
type motoGate struct {
	URL    string
	raised chan struct{} // closed once the desired count is raised, before the command hears so
	opened chan struct{}
	open   sync.Once
}

func gateMoto(t *testing.T, moto string) *motoGate {
	t.Helper()
	u, err := url.Parse(moto)
	if err != nil {
		t.Fatal(err)
	}
	g := &motoGate{raised: make(chan struct{}), opened: make(chan struct{})}
	var raise sync.Once
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Header.Get("X-Amz-Target") == "SageMaker.UpdateEndpointWeightsAndCapacities" && resp.StatusCode == http.StatusOK {
			raise.Do(func() { close(g.raised) })
		}
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-g.raised:
			select {
			case <-g.opened:
			case <-r.Context().Done():
				return
			}
		default:
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(g.Open) // runs first: nothing is left waiting when the proxy closes
	g.URL = srv.URL
	return g
}

// Open lets every call through from now on.
func (g *motoGate) Open() { g.open.Do(func() { close(g.opened) }) }

// countingStandIn is standIn whose asked closes once more than n requests have reached
// /invocations: with a probe of n workers, each keeping one request outstanding, the one
// past n is a worker asking again, so that worker's earlier request has come back.
func countingStandIn(t *testing.T, delay *atomic.Int64, n int64) (addr string, asked <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{})
	var count atomic.Int64
	var once sync.Once
	h := standInHandler(delay, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/invocations" && count.Add(1) > n {
			once.Do(func() { close(ch) })
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, ch
}

// waitOutput waits until out contains s; false when ctx ends first or two minutes pass, a
// ceiling that only catches a hang.
func waitOutput(ctx context.Context, out *testenv.Buffer, s string) bool {
	return ctxtime.PollUntil(ctx, time.Millisecond, time.Now().Add(2*time.Minute), func() (bool, error) {
		return strings.Contains(out.String(), s), nil
	}) == nil
}

// newInstance plays SageMaker bringing up the second instance behind the gate: once the
// desired count rises, the new instance's log stream appears with its container's stage
// markers; once the probe has had an answer (asked), the gate opens and the command sees the
// instance in service; once it has printed in_service, the stand-in serves fast (the load is
// now split over two instances). So every probe request that came back before in_service was
// served slow, and at least one did.
func newInstance(t *testing.T, ctx context.Context, c *sagemaker.Control, g *motoGate, endpoint string, delay *atomic.Int64, asked <-chan struct{}, output *testenv.Buffer) {
	select {
	case <-g.raised:
	case <-ctx.Done():
		return
	}
	logs := c.Logs.(*cloudwatchlogs.Client)
	group, stream := sagemaker.LogGroup(endpoint), "AllTraffic/i-0new"
	_, _ = logs.CreateLogGroup(ctx, &cloudwatchlogs.CreateLogGroupInput{LogGroupName: aws.String(group)})
	if _, err := logs.CreateLogStream(ctx, &cloudwatchlogs.CreateLogStreamInput{LogGroupName: aws.String(group), LogStreamName: aws.String(stream)}); err != nil {
		t.Error(err)
		return
	}
	start := time.Now().UTC()
	var ev []logtypes.InputLogEvent
	for i, name := range []string{"framework_init", "weights_ready", "warmup_done", "ready"} {
		at := start.Add(time.Duration(10+20*i) * time.Millisecond)
		ev = append(ev, logtypes.InputLogEvent{Timestamp: aws.Int64(at.UnixMilli()), Message: aws.String(server.FormatStage(name, at, start))})
	}
	if _, err := logs.PutLogEvents(ctx, &cloudwatchlogs.PutLogEventsInput{LogGroupName: aws.String(group), LogStreamName: aws.String(stream), LogEvents: ev}); err != nil {
		t.Error(err)
		return
	}
	select {
	case <-asked:
	case <-ctx.Done():
		return
	}
	g.Open()
	if waitOutput(ctx, output, "in_service: ") {
		delay.Store(int64(time.Millisecond))
	}
}

// ttotalProbe is the probe concurrency of the scale-out tests.
const ttotalProbe = 4

// scaleOutJob runs the scale-out timer with a probe of 4 against a stand-in that answers in 1 s
// before the new instance and at once after it. Recovery is a p95 within 600 ms over a 1 s
// window of at least 5 requests: the law puts every request before at 1 s or more, and a busy
// machine would have to add over half a second to each request after to hide the recovery.
func scaleOutJob(url, qmax, standin, out string) TTotal {
	j := NewTTotal()
	j.AWS, j.Endpoint, j.Qmax, j.Probe.URL, j.Out = cloudAWS(url), "tts-tt", qmax, standin, out
	j.Concurrency, j.RecoveredMs, j.Lead, j.Poll = ttotalProbe, 600, time.Second, 50*time.Millisecond
	j.RecoverWindow, j.Hold, j.LogWait = time.Second, 20*time.Second, 10*time.Second
	return j
}

// runTTotal runs j with its output going to out.
func runTTotal(out *testenv.Buffer, j TTotal) (string, error) {
	return runTo(out, func(out, errw io.Writer) error { return j.Run(context.Background(), out, errw) })
}

func TestBenchTTotal(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-tt", 1)
	c := testControl(t, url)
	var delay atomic.Int64
	delay.Store(int64(time.Second))
	standin, asked := countingStandIn(t, &delay, ttotalProbe)
	qmax := ttotalQmax(t, c, "tts-tt", "http")
	out := t.TempDir()

	// Refusals: a qmax of another transport, of another configuration; nothing is touched.
	other := scaleOutJob(url, ttotalQmax(t, c, "tts-tt", "ws"), standin, out)
	other.Transport = "http"
	if _, err := runTTotal(&testenv.Buffer{}, other); err == nil || !strings.Contains(err.Error(), "measured over ws") {
		t.Fatalf("another transport: %v", err)
	}
	otherQ, _ := artifact.ReadQmax(qmax)
	otherQ.Target.ContainerEnv = map[string]string{"SLOTS": "9"}
	otherQ.Fingerprint, otherQ.Slug = "", ""
	otherPath, err := artifact.Write(t.TempDir(), otherQ)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runTTotal(&testenv.Buffer{}, scaleOutJob(url, otherPath, standin, out)); err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("another configuration: %v", err)
	}
	dryJob := scaleOutJob(url, qmax, standin, out)
	dryJob.DryRun = true
	dry, err := runTTotal(&testenv.Buffer{}, dryJob)
	if err != nil || !strings.Contains(dry, "DesiredInstanceCount + 1") {
		t.Fatalf("dry run: %v\n%s", err, dry)
	}

	g := gateMoto(t, url)
	a, text := scaleOut(t, c, g, &delay, asked, scaleOutJob(g.URL, qmax, standin, out), out)
	for _, s := range []string{artifact.StageLoadApplied, artifact.StageDesiredSet, artifact.StageInstanceLogging, artifact.StageContainerStarted,
		artifact.StageFrameworkInit, artifact.StageReady, artifact.StageInService, artifact.StageTrafficRecovered} {
		if _, ok := a.Stage(s); !ok {
			t.Fatalf("stage %s missing: %+v\n%s", s, a.Stages, text)
		}
	}
	if math.Abs(a.ClockedSeconds()-a.MeasuredS) > 1e-9 || a.PreClockS < 1 || a.PlanningS != a.MeasuredS+60 || a.Pairs == nil || a.Pairs.Transport != "http" {
		t.Fatalf("artifact: t_total %v, clocked sum %v, pre-clock %v, planning %v, pairs %+v", a.MeasuredS, a.ClockedSeconds(), a.PreClockS, a.PlanningS, a.Pairs)
	}
	// Recovery itself is the traffic_recovered stage above (p95 within --recovered-ms over the
	// window). p95 after in_service is not compared with p95 before: it counts requests by
	// their first byte, so one that started slow before the new instance and ended after it
	// counts as after, and on a busy machine those can be the slowest of all.
	if a.FromInstances != 1 || a.ToInstances != 2 || a.InstanceID != "i-0new" || a.P95BeforeMs < 1000 || a.RequestsAfter == 0 {
		t.Fatalf("artifact: %d → %d on %s, p95 %v → %v over %d requests after", a.FromInstances, a.ToInstances, a.InstanceID, a.P95BeforeMs, a.P95AfterMs, a.RequestsAfter)
	}
	if !strings.Contains(text, "pre-clock (load_applied → desired_set)") || !strings.Contains(text, "T_total (desired_set → last stage)") {
		t.Fatalf("table:\n%s", text)
	}
	if tg, n := liveState(t, c, "tts-tt"); tg != before || n != 1 {
		t.Fatalf("after ttotal: %+v with %d instances, want %+v with 1", tg, n, before)
	}
}

// scaleOut runs the scale-out timer j (pointed at g) while newInstance plays
// SageMaker, and reads the artifact it wrote into out.
func scaleOut(t *testing.T, c *sagemaker.Control, g *motoGate, delay *atomic.Int64, asked <-chan struct{}, j TTotal, out string) (*artifact.TTotal, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var output testenv.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		newInstance(t, ctx, c, g, "tts-tt", delay, asked, &output)
	}()
	text, err := runTTotal(&output, j)
	cancel()
	<-done
	if err != nil {
		t.Fatalf("ttotal: %v\n%s", err, text)
	}
	matches, _ := filepath.Glob(filepath.Join(out, "ttotal-kokoro-82m-force-desired-*.json"))
	if len(matches) != 1 {
		t.Fatalf("artifacts %v\n%s", matches, text)
	}
	a, err := artifact.ReadTTotal(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return a, text
}

// The probe of a scale-out reaches the endpoint's containers through the runtime API when the
// qmax artifact was measured that way: here through the emulator in front of the stand-in,
// with moto as the control plane.
func TestBenchTTotalThroughTheRuntimeAPI(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-tt", 1)
	c := testControl(t, url)
	var delay atomic.Int64
	delay.Store(int64(time.Second))
	standin, asked := countingStandIn(t, &delay, ttotalProbe)
	emu := emulatetest.Start(t, emulate.Config{EndpointName: "tts-tt", Region: cloudRegion,
		Variants: []emulate.Variant{{Name: sagemaker.DefaultVariant, Instances: []string{standin}}}})
	qmax := ttotalQmax(t, c, "tts-tt", artifact.TransportSageMakerStream)
	out := t.TempDir()
	g := gateMoto(t, url)
	j := scaleOutJob(g.URL, qmax, "", out)
	j.Probe.Runtime.URL = emu
	a, text := scaleOut(t, c, g, &delay, asked, j, out)
	if _, ok := a.Stage(artifact.StageTrafficRecovered); !ok || a.Pairs == nil || a.Pairs.Transport != artifact.TransportSageMakerStream {
		t.Fatalf("artifact: stages %+v, pairs %+v\n%s", a.Stages, a.Pairs, text)
	}
	if a.RequestsBefore == 0 || a.P95BeforeMs < 1000 || a.RequestsAfter == 0 {
		t.Fatalf("probe through the emulator: %d requests before, %d after, p95 %v → %v ms\n%s", a.RequestsBefore, a.RequestsAfter, a.P95BeforeMs, a.P95AfterMs, text)
	}
	if tg, n := liveState(t, c, "tts-tt"); tg != before || n != 1 {
		t.Fatalf("after ttotal: %+v with %d instances, want %+v with 1", tg, n, before)
	}
}

// Ctrl-C during the scale-out, then Ctrl-C again while restoring: the run stops, the count
// and the scaling are back, and no artifact is written. The command reaches moto through a
// gate that holds every call after the scale-out's until the second Ctrl-C has been handled:
// the run never sees the new instance, and the restore cannot end (and the command cannot
// drop its signal handler) before the second signal is in.
func TestBenchTTotalInterrupted(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-tt", 1)
	c := testControl(t, url)
	var delay atomic.Int64
	delay.Store(int64(50 * time.Millisecond))
	standin := standIn(t, &delay, nil)
	qmax := ttotalQmax(t, c, "tts-tt", "http")
	out := t.TempDir()
	g := gateMoto(t, url)

	ctx, cancel := context.WithCancel(context.Background())
	var output testenv.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer g.Open()
		// The first while the run waits for the new instance.
		if !waitOutput(ctx, &output, "desired_set: ") {
			return
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
		// The second only once the first is handled: two signals sent before the process
		// takes the first would arrive as one.
		if !waitOutput(ctx, &output, "interrupted:") {
			t.Error("the first interrupt was not handled")
			return
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
		if !waitOutput(ctx, &output, "still restoring") {
			t.Error("the second interrupt was not handled")
		}
	}()
	j := scaleOutJob(g.URL, qmax, standin, out)
	j.MaxWait = 5 * time.Minute
	text, err := runTTotal(&output, j)
	cancel()
	<-done
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 130 {
		t.Fatalf("interrupted ttotal: %v\n%s", err, text)
	}
	select {
	case <-g.raised:
	default:
		t.Fatal("the run ended before the scale-out began")
	}
	if tg, n := liveState(t, c, "tts-tt"); tg != before || n != 1 {
		t.Fatalf("after the interrupt: %+v with %d instances, want %+v with 1\n%s", tg, n, before, text)
	}
	if m, _ := filepath.Glob(filepath.Join(out, "*.json")); len(m) != 0 {
		t.Fatalf("an interrupted run wrote %v", m)
	}
	if !strings.Contains(text, "interrupted") || !strings.Contains(text, "still restoring") {
		t.Fatalf("output:\n%s", text)
	}
}

package emulate_test

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
	"github.com/kokoro-sm/kokoro/scaling"
	"github.com/kokoro-sm/kokoro/server/servertest"
)

// surgePolicy adds one instance (up to two) when the busiest instance held more than 6
// requests in a period.
func surgePolicy() scaling.Documents {
	d := stepPolicy()
	d.ScaleOutAlarm.Threshold = 6
	return d
}

// TestReplayPredictsTheEmulatedRun drives one trace through the emulated endpoint, which scales
// with a policy in compressed time over stand-in containers, and through the simulation of the
// same endpoint: the simulation's share of requests within the SLO and share shed match the
// run's within 5 points, and both scale out once.
//
// Each container serves 4 requests at once for 2 s each, refusing past 8 in it (2 rps); the
// trace sends 1 rps for 10 s, then 3 rps for 40 s, every request at its exact time. One
// instance falls behind at once, its queue reaches 8 and it refuses a request a second until
// the second instance, asked for when the busiest held more than 6, serves 10 s later. Arrivals
// and service times are fixed, so the two differ only by what the real run adds: the
// stand-in's overhead on each 2 s request, the autoscaler's 50 ms samples of concurrency,
// the moment the scale-out lands within a tick. Five points are 6 of the 130 requests.
func TestReplayPredictsTheEmulatedRun(t *testing.T) {
	t.Parallel()
	const service, slots, depth = 2 * time.Second, 4, 8
	const provision = 10 * time.Second
	slo := 5 * time.Second
	model := scaling.DefaultModel()
	model.TimeScale = 0.05
	var arrivals []replay.Arrival
	for at := time.Duration(0); at < 10*time.Second; at += time.Second {
		arrivals = append(arrivals, replay.Arrival{At: at})
	}
	for at := 10 * time.Second; at < 50*time.Second; at += time.Second / 3 {
		arrivals = append(arrivals, replay.Arrival{At: at})
	}

	// The simulation.
	predicted, err := replay.Run(replay.Config{
		Service:       replay.Service{Servers: slots, Mean: service, FirstAudio: service},
		MaxQueueDepth: depth, SLO: slo, Documents: surgePolicy(), Model: model,
		Provision: []time.Duration{provision}, Routing: replay.RoutingLeastOutstanding, Seed: 1,
	}, arrivals)
	if err != nil {
		t.Fatal(err)
	}

	// The run: the emulator scaling stand-in containers, the trace sent open-loop.
	engine := func() *servertest.Engine { return &servertest.Engine{Service: service, Slots: slots} }
	first := servertest.Start(t, engine(), depth)
	em, err := emulate.New(emulate.Config{EndpointName: testEndpoint, Region: testRegion,
		Variants: []emulate.Variant{{Name: "AllTraffic", Instances: []string{first}}},
		Autoscale: &emulate.Autoscale{Documents: surgePolicy(), Model: model, Provision: provision,
			Spawn: func(ctx context.Context) (string, func() error, error) {
				return servertest.StartLocal(ctx, engine(), depth)
			}}})
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := em.StartLocal()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	})
	sc, err := smruntime.NewStreamClient(awsConfig(testRegion), smruntime.Options{Endpoint: smruntime.Endpoint{Name: testEndpoint}, EndpointURL: url, MaxConns: 64})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transport.New(artifact.TransportSageMakerStream, transport.Options{MaxConns: 64, SageMaker: &transport.SageMaker{InvokeStream: sc.InvokeStream}})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	sent := make([]bench.Arrival, len(arrivals))
	for i, a := range arrivals {
		sent[i] = bench.Arrival{At: a.At}
	}
	var mu sync.Mutex
	var measured []replay.Request
	rp := &bench.Replayer{Transport: tr, Texts: []string{"Hello there."}, OnResult: func(r bench.Result) error {
		q := replay.Request{At: r.Start, TTFAB: r.TTFAB, Latency: r.End - r.Start}
		switch r.Outcome {
		case artifact.OutcomeOK:
			q.Outcome = replay.OutcomeOK
		case artifact.OutcomeSaturated503:
			q.Outcome = replay.OutcomeShed
		default:
			t.Errorf("request %d: %s %s", r.Seq, r.Outcome, r.Error)
			return nil
		}
		mu.Lock()
		measured = append(measured, q)
		mu.Unlock()
		return nil
	}}
	st, err := rp.Run(context.Background(), sent)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := replay.Tally(measured, slo)
	want := predicted.Summary
	acts, capacity := em.Scaling()
	t.Logf("predicted: %d requests, %.3f within the SLO, %.3f shed, scale-outs %v", want.Requests, want.ShareWithinSLO, want.ShedShare, predicted.Activities)
	t.Logf("measured:  %d requests, %.3f within the SLO, %.3f shed, scale-outs %v (capacity %v; %d sent late, at most %.0f ms)",
		got.Requests, got.ShareWithinSLO, got.ShedShare, acts, capacity, st.Late, st.MaxLateMs)
	if got.Requests != len(arrivals) || want.Requests != len(arrivals) {
		t.Fatalf("%d measured and %d simulated of %d requests", got.Requests, want.Requests, len(arrivals))
	}
	if want.Shed == 0 || want.ShareWithinSLO > 0.95 {
		t.Fatalf("the simulation neither shed nor missed the SLO (%+v): the comparison would prove nothing", want)
	}
	if d := math.Abs(got.ShedShare - want.ShedShare); d > 0.05 {
		t.Errorf("shed share: measured %.3f, simulated %.3f", got.ShedShare, want.ShedShare)
	}
	if d := math.Abs(got.ShareWithinSLO - want.ShareWithinSLO); d > 0.05 {
		t.Errorf("share within the SLO: measured %.3f, simulated %.3f", got.ShareWithinSLO, want.ShareWithinSLO)
	}
	if len(acts) != 1 || len(predicted.Activities) != 1 || acts[0].To != 2 {
		t.Errorf("scale-outs: measured %v, simulated %v; want one to 2 in each", acts, predicted.Activities)
	}
}

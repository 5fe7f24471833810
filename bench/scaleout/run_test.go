package scaleout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// fakeClock advances only when slept on, so a run's every instant is the test's choice.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

// fakeCloud is an endpoint that brings a new instance up at a scripted time after the
// desired count rises, with that instance's log stream and markers.
type fakeCloud struct {
	clk            interface{ Now() time.Time }
	current        int
	setAt          time.Time
	upAfter        time.Duration // desired_set → current count rises
	logAfter       time.Duration // desired_set → the new stream's first event
	markers        []string
	set            []int
	failSetDesired error
	// ready, when set, also holds the new instance back until it returns true.
	ready func() bool
}

func (f *fakeCloud) Counts(context.Context) (int, int, string, error) {
	if !f.setAt.IsZero() && !f.clk.Now().Before(f.setAt.Add(f.upAfter)) && (f.ready == nil || f.ready()) {
		return f.current + 1, f.current + 1, "InService", nil
	}
	if !f.setAt.IsZero() {
		return f.current + 1, f.current, "Updating", nil
	}
	return f.current, f.current, "InService", nil
}

func (f *fakeCloud) SetDesired(_ context.Context, n int) error {
	if f.failSetDesired != nil {
		return f.failSetDesired
	}
	f.set = append(f.set, n)
	f.setAt = f.clk.Now()
	return nil
}

func (f *fakeCloud) Streams(context.Context) ([]Stream, error) {
	s := []Stream{{Name: "AllTraffic/i-old", Instance: "i-old", FirstEvent: t0.Add(-time.Hour)}}
	if !f.setAt.IsZero() && !f.clk.Now().Before(f.setAt.Add(f.logAfter)) {
		s = append(s, Stream{Name: "AllTraffic/i-new", Instance: "i-new", FirstEvent: f.setAt.Add(f.logAfter)})
	}
	return s, nil
}

func (f *fakeCloud) Events(_ context.Context, stream string) ([]Event, error) {
	if stream != "AllTraffic/i-new" {
		return nil, fmt.Errorf("read of %s", stream)
	}
	ev := []Event{{At: f.setAt.Add(f.logAfter), Message: "booting"}}
	for _, m := range f.markers {
		ev = append(ev, Event{At: f.setAt.Add(f.logAfter), Message: m})
	}
	return ev, nil
}

func TestRunScriptedScaleOut(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	set := t0 // no probe: no lead, the clock starts at once
	cloud := &fakeCloud{clk: clk, current: 1, upAfter: 205 * time.Second, logAfter: 180*time.Second + 835*time.Millisecond,
		markers: []string{
			"=== STAGE framework_init t=" + set.Add(184_573*time.Millisecond).Format("2006-01-02T15:04:05.000") + "Z elapsed_s=0.014 ===",
			"=== STAGE ready t=" + set.Add(192_094*time.Millisecond).Format("2006-01-02T15:04:05.000") + "Z elapsed_s=7.535 ===",
		}}
	var events []string
	res, err := Run(context.Background(), cloud, Config{Poll: 10 * time.Second, Now: clk.Now, Sleep: clk.Sleep, OnEvent: func(s string) { events = append(events, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cloud.set) != 1 || cloud.set[0] != 2 || res.From != 1 || res.To != 2 {
		t.Fatalf("set %v, from %d to %d", cloud.set, res.From, res.To)
	}
	o := res.Obs
	// The new instance is in service at 205 s; the 10 s polls see it at 210 s.
	if !o.DesiredSet.Equal(set) || !o.InService.Equal(set.Add(210*time.Second)) || !o.FirstEvent.Equal(set.Add(180835*time.Millisecond)) || o.Instance != "i-new" {
		t.Fatalf("observed %+v", o)
	}
	if len(o.Markers) != 2 || !o.LoadApplied.IsZero() || !o.Recovered.IsZero() {
		t.Fatalf("markers %v, load %v, recovered %v", o.Markers, o.LoadApplied, o.Recovered)
	}
	tab, err := NewTable(Stages(o))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Clocked != 210*time.Second || tab.PreClock != 0 || tab.Wall != tab.Clocked {
		t.Fatalf("table: clocked %v pre %v wall %v", tab.Clocked, tab.PreClock, tab.Wall)
	}
	a, err := res.Artifact(Meta{Trigger: TriggerForceDesired, PolicyLagBoundS: 60})
	if err != nil {
		t.Fatal(err)
	}
	if a.MeasuredS != 210 || a.PlanningS != 270 || !contains(a.MissingStages, artifact.StageTrafficRecovered) {
		t.Fatalf("artifact: %v / %v, missing %v", a.MeasuredS, a.PlanningS, a.MissingStages)
	}
	if !strings.Contains(strings.Join(events, "\n"), "in_service: 2 instances after 210.0 s") {
		t.Fatalf("progress: %v", events)
	}
}

func TestRunGivesUp(t *testing.T) {
	t.Parallel()
	clk := &fakeClock{now: t0}
	cloud := &fakeCloud{clk: clk, current: 1, upAfter: time.Hour}
	_, err := Run(context.Background(), cloud, Config{Poll: 10 * time.Second, MaxWait: 5 * time.Minute, Now: clk.Now, Sleep: clk.Sleep})
	if err == nil || !strings.Contains(err.Error(), "within 5m0s") {
		t.Fatalf("got %v", err)
	}
	cloud = &fakeCloud{clk: clk, current: 1, failSetDesired: errors.New("refused")}
	if _, err := Run(context.Background(), cloud, Config{Now: clk.Now, Sleep: clk.Sleep}); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("got %v", err)
	}
	if _, err := (Result{}).Artifact(Meta{}); err == nil {
		t.Fatal("an artifact of a run that saw no scale-out")
	}
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

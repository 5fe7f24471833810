package scaleout

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestScaleOutWatch(t *testing.T) {
	t.Parallel()
	start := t0
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	alarm := func(state string) []AlarmReading { return []AlarmReading{{Name: "hi", State: state}} }
	cases := []struct {
		name     string
		readings []Reading
		doneAt   int // index of the reading that reports in service; -1: none
		ok       bool
		want     []string
	}{
		{name: "scales out", doneAt: 3, ok: true, readings: []Reading{
			{At: at(10), Desired: 1, Current: 1, Alarms: alarm("OK")},
			{At: at(70), Desired: 1, Current: 1, Alarms: alarm("ALARM")},
			{At: at(80), Desired: 2, Current: 1, Alarms: alarm("ALARM")},
			{At: at(300), Desired: 2, Current: 2, Alarms: alarm("ALARM")},
		}, want: []string{"+   70 s  alarm hi: ALARM", "+   80 s  desired count 1 → 2", "+  300 s  in service: 2 instance(s)",
			"OK    scale-out               alarm after 70 s, desired count after 80 s, new capacity in service after 300 s"}},
		{name: "no alarm", doneAt: -1, readings: []Reading{{At: at(10), Desired: 1, Current: 1, Alarms: alarm("OK")}},
			want: []string{"FAIL  scale-out               no alarm fired within 10m0s of load above the target"}},
		{name: "alarm without capacity", doneAt: -1, readings: []Reading{
			{At: at(60), Desired: 1, Current: 1, Alarms: alarm("ALARM")},
			{At: at(70), Desired: 2, Current: 1, Alarms: alarm("ALARM")},
		}, want: []string{"+   60 s  alarm hi: ALARM", "+   70 s  desired count 1 → 2",
			"FAIL  scale-out               hi fired after 60 s, but capacity did not come into service within 10m0s"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			w := &ScaleOutWatch{Start: start, Desired: 1, Current: 1, Out: &out}
			for i, r := range tc.readings {
				if done := w.Observe(r); done != (i == tc.doneAt) {
					t.Fatalf("reading %d: done %v", i, done)
				}
			}
			if ok := w.Verdict(10 * time.Minute); ok != tc.ok {
				t.Fatalf("verdict %v, want %v\n%s", ok, tc.ok, out.String())
			}
			got := strings.Split(strings.TrimSpace(out.String()), "\n")
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// scriptedWatch hands its readings over, then waits for the probe's end.
type scriptedWatch struct {
	alarms   []string
	readings []Reading
	readErr  error
	desired  int
}

func (s *scriptedWatch) Counts(context.Context) (int, int, error) { return s.desired, s.desired, nil }
func (s *scriptedWatch) ScaleOutAlarms(context.Context) ([]string, error) {
	return s.alarms, nil
}
func (s *scriptedWatch) Watch(ctx context.Context, _ []string, _ time.Duration, on func(Reading)) error {
	for _, r := range s.readings {
		on(r)
	}
	if s.readErr != nil {
		return s.readErr
	}
	<-ctx.Done()
	return nil
}

func TestPolicyProbeJob(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	cases := []struct {
		name    string
		watch   *scriptedWatch
		ok      bool
		wantErr string
		want    string
	}{
		{name: "the policy scales out", ok: true, want: "OK    scale-out", watch: &scriptedWatch{desired: 1, alarms: []string{"hi"}, readings: []Reading{
			{At: now, Desired: 2, Current: 1, Alarms: []AlarmReading{{Name: "hi", State: "ALARM"}}},
			{At: now, Desired: 2, Current: 2, Alarms: []AlarmReading{{Name: "hi", State: "ALARM"}}},
		}}},
		{name: "nothing acts", want: "FAIL  scale-out               no alarm fired", watch: &scriptedWatch{desired: 1, alarms: []string{"hi"}}},
		{name: "no alarm to watch", wantErr: "no alarm to watch", watch: &scriptedWatch{desired: 1}},
		{name: "a read fails", wantErr: "describe refused", watch: &scriptedWatch{desired: 1, alarms: []string{"hi"}, readErr: errors.New("describe refused")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opened, closed atomic.Int32
			var out strings.Builder
			job := &PolicyProbeJob{
				Scaling: tc.watch, OpenProbe: jobProbe(t, &opened, &closed), Transport: "http",
				CScaleMax: 2, Duration: 200 * time.Millisecond, Every: time.Second, Out: &out,
			}
			ok, err := job.Run(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
			} else if err != nil || ok != tc.ok || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("ok %v, err %v; want %v and %q in:\n%s", ok, err, tc.ok, tc.want, out.String())
			}
			if opened.Load() != closed.Load() {
				t.Fatalf("probe opened %d, closed %d", opened.Load(), closed.Load())
			}
			if tc.watch.alarms != nil && !strings.Contains(out.String(), "probe: 3 in flight over http") {
				t.Fatalf("probe line: 1.5 × 2 × 1 instance = 3 in flight:\n%s", out.String())
			}
		})
	}
}

package bench_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/server/servertest"
)

// An open-loop replay sends every request at its time whatever the ones before it do: against
// one slot of 200 ms and MAX_QUEUE_DEPTH 3, ten requests a second fill the instance within the
// first second, so some are refused and the first is served; each request is recorded once,
// with the text nearest its length.
func TestReplayerSendsOpenLoop(t *testing.T) {
	t.Parallel()
	url := servertest.Start(t, &servertest.Engine{Service: 200 * time.Millisecond}, 3)
	tr, err := transport.New("http", transport.Options{BaseURL: url, MaxConns: 32})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var arrivals []bench.Arrival
	for i := range 20 {
		arrivals = append(arrivals, bench.Arrival{At: time.Duration(i) * 100 * time.Millisecond, Chars: 5 + 40*(i%2)})
	}
	var mu sync.Mutex
	var got []bench.Result
	r := &bench.Replayer{Transport: tr, Texts: []string{"Hello there.", "This one is a good deal longer than the other one."},
		OnResult: func(res bench.Result) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, res)
			return nil
		}}
	st, err := r.Run(context.Background(), arrivals)
	if err != nil {
		t.Fatal(err)
	}
	if st.Sent != 20 || len(got) != 20 {
		t.Fatalf("sent %d, recorded %d; want 20", st.Sent, len(got))
	}
	seen := map[uint64]bool{}
	ok, shed := 0, 0
	for _, res := range got {
		if seen[res.Seq] {
			t.Errorf("request %d recorded twice", res.Seq)
		}
		seen[res.Seq] = true
		switch res.Outcome {
		case artifact.OutcomeOK:
			ok++
			if res.TTFAB < 200*time.Millisecond {
				t.Errorf("request %d: first audio after %v, before the service time", res.Seq, res.TTFAB)
			}
		case artifact.OutcomeSaturated503:
			shed++
		default:
			t.Errorf("request %d: %s %s", res.Seq, res.Outcome, res.Error)
		}
		if want := 12; res.Seq%2 == 1 && res.TextChars != want {
			t.Errorf("request %d asked for 5 chars and got a text of %d", res.Seq, res.TextChars)
		}
	}
	if ok == 0 || shed == 0 {
		t.Errorf("%d ok, %d refused; want both", ok, shed)
	}
}

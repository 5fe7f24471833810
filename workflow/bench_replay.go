package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/replay"
)

// BenchReplay is `kokoro bench replay`: a traffic trace sent open-loop to a server or an
// endpoint, every request recorded beside the summary plan replay simulates.
type BenchReplay struct {
	URL, Transport, Texts, Voice, Out string
	SLOms                             float64
	RequestTimeout                    time.Duration
	MaxConns                          int
	Traffic                           Trace
	SageMaker                         SageMaker
}

// NewBenchReplay returns a BenchReplay with the command's defaults: http to 127.0.0.1:8080, a
// 3 s SLO, 256 connections, the default traffic, the files written here.
func NewBenchReplay() BenchReplay {
	return BenchReplay{
		URL: "http://127.0.0.1:8080", Transport: artifact.TransportHTTP, SLOms: 3000,
		RequestTimeout: 65 * time.Second, MaxConns: 256, Out: ".", Traffic: NewTrace(), SageMaker: SageMaker{Freeze: true},
	}
}

// BenchReplayResult is bench-replay.json: the trace, what the client sent, the outcomes that
// were neither served nor refused, and the summary and minutes plan replay also writes.
type BenchReplayResult struct {
	Trace     string                   `json:"trace"`
	Transport string                   `json:"transport"`
	SLOms     float64                  `json:"slo_ms"`
	Sent      bench.ReplayStats        `json:"sent"`
	Others    map[artifact.Outcome]int `json:"other_outcomes,omitempty"`
	Summary   replay.Summary           `json:"summary"`
	Minutes   []replay.Minute          `json:"minutes"`
}

// Files bench replay writes.
const (
	FileBenchReplay         = "bench-replay.json"
	FileBenchReplayRequests = "bench-replay-requests.jsonl"
)

// Run replays the trace and writes bench-replay.json and the requests into Out. An interrupt
// ends the replay early; what was recorded is still written.
func (f BenchReplay) Run(ctx context.Context, w, stderr io.Writer) error {
	if err := transport.Check(f.Transport); err != nil {
		return err
	}
	arrivals, desc, err := f.Traffic.arrivals(0, 0)
	if err != nil {
		return err
	}
	texts, err := readTexts(f.Texts, bench.DefaultTexts())
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	f.SageMaker.Freeze = false // the endpoint must scale: that is what a replay measures
	tr, _, closeTransport, err := openTransport(ctx, f.Transport, transport.Options{BaseURL: f.URL, MaxConns: f.MaxConns}, f.SageMaker)
	if err != nil {
		return err
	}
	defer closeTransport()
	if err := os.MkdirAll(f.Out, 0o755); err != nil {
		return err
	}
	raw, err := os.Create(filepath.Join(f.Out, FileBenchReplayRequests))
	if err != nil {
		return err
	}
	defer raw.Close()
	jw := bench.NewJSONLWriter(raw)
	var mu sync.Mutex
	var reqs []replay.Request
	others := map[artifact.Outcome]int{}
	fmt.Fprintf(stderr, "replaying %s: %d requests over %s…\n", desc, len(arrivals), f.Transport)
	rp := &bench.Replayer{Transport: tr, Texts: texts, Voice: f.Voice, RequestTimeout: f.RequestTimeout,
		OnResult: func(r bench.Result) error {
			mu.Lock()
			defer mu.Unlock()
			q := replay.Request{At: r.Start, Chars: r.TextChars, Instance: -1, TTFAB: r.TTFAB, Latency: r.End - r.Start}
			switch r.Outcome {
			case artifact.OutcomeOK:
				q.Outcome = replay.OutcomeOK
			case artifact.OutcomeSaturated503:
				q.Outcome = replay.OutcomeShed
			default:
				// Neither served nor refused by the gate: counted as shed, and named below.
				q.Outcome = string(r.Outcome)
				others[r.Outcome]++
			}
			reqs = append(reqs, q)
			return jw.Add(r)
		}}
	sent := make([]bench.Arrival, len(arrivals))
	for i, a := range arrivals {
		sent[i] = bench.Arrival{At: a.At, Chars: a.Chars}
	}
	st, err := rp.Run(ctx, sent)
	if err != nil && ctx.Err() == nil {
		return err
	}
	sum, minutes := replay.Tally(reqs, time.Duration(f.SLOms*float64(time.Millisecond)))
	fmt.Fprintf(w, "%d requests: %.2f %% within %g ms, %.2f %% shed (503), p95 first audio %.0f ms, %d minute(s) over the SLO\n",
		sum.Requests, 100*sum.ShareWithinSLO, f.SLOms, 100*sum.ShedShare, sum.TTFABP95Ms, sum.MinutesOverSLO)
	if len(others) > 0 {
		var parts []string
		for o, n := range others {
			parts = append(parts, fmt.Sprintf("%d %s", n, o))
		}
		fmt.Fprintf(w, "neither served nor refused: %s\n", strings.Join(parts, ", "))
	}
	if st.Late > 0 {
		fmt.Fprintf(w, "the client sent %d request(s) over 100 ms late (at most %.0f ms): it could not keep the trace's time\n", st.Late, st.MaxLateMs)
	}
	data, err := json.MarshalIndent(BenchReplayResult{desc, f.Transport, f.SLOms, st, others, sum, minutes}, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(f.Out, FileBenchReplay)
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", path, "and", filepath.Join(f.Out, FileBenchReplayRequests))
	return ctx.Err()
}

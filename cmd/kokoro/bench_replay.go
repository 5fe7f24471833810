package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/replay"
)

// benchReplayFlags are the flags of `kokoro bench replay`.
type benchReplayFlags struct {
	url, transport, texts, voice, out string
	sloMs                             float64
	requestTimeout                    time.Duration
	maxConns                          int
	traffic                           traceFlags
	sm                                sageMakerFlags
}

// Files bench replay writes.
const (
	fileBenchReplay         = "bench-replay.json"
	fileBenchReplayRequests = "bench-replay-requests.jsonl"
)

func newBenchReplayCmd() *cobra.Command {
	var f benchReplayFlags
	cmd := &cobra.Command{
		Use:   "replay (--trace FILE | --shape SHAPE --from RPS --to RPS) [--url URL | --transport sagemaker-… --endpoint-name E]",
		Short: "Send a traffic trace to a server or an endpoint open-loop and record every request",
		Long: `Replay sends each request of a trace at its time, whatever the ones before it are doing, over
any bench transport, and records every request: the real run beside ` + "`kokoro plan replay`" + `'s
simulation of the same trace (same summary: share within --slo-ms, share shed, p95 time to
first audio, minute by minute). Against ` + "`kokoro emulate --autoscale`" + ` the endpoint scales as
the policy says, so the two can be compared. The trace flags are plan replay's.

Writes bench-replay.json (the summary and the minutes) and bench-replay-requests.jsonl
(every request) into --out.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBenchReplay(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.url, "url", "http://127.0.0.1:8080", "base URL of the server (http, ws)")
	fl.StringVar(&f.transport, "transport", artifact.TransportHTTP, "transport: "+transport.Help())
	fl.StringVar(&f.texts, "texts", "", "file of utterances, one per line; a request takes the one nearest its length (default: the built-in pool)")
	fl.StringVar(&f.voice, "voice", "", "voice to request (default: the server's)")
	fl.Float64Var(&f.sloMs, "slo-ms", 3000, "time to first audio a request should have within, for the summary")
	fl.DurationVar(&f.requestTimeout, "request-timeout", 65*time.Second, "longest a single request may take")
	fl.IntVar(&f.maxConns, "max-conns", 256, "connections the client may hold at once")
	fl.StringVar(&f.out, "out", ".", "directory for bench-replay.json and the requests")
	addTraceFlags(fl, &f.traffic)
	addSageMakerFlags(fl, &f.sm)
	return cmd
}

func runBenchReplay(cmd *cobra.Command, f benchReplayFlags) error {
	if err := transport.Check(f.transport); err != nil {
		return err
	}
	arrivals, desc, err := f.traffic.arrivals(0, 0)
	if err != nil {
		return err
	}
	texts := bench.DefaultTexts()
	if f.texts != "" {
		fh, err := os.Open(f.texts)
		if err != nil {
			return err
		}
		texts, err = bench.LoadTexts(fh)
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.texts, err)
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o := transport.Options{BaseURL: f.url, MaxConns: f.maxConns}
	if isSageMakerTransport(f.transport) {
		f.sm.freeze = false // the endpoint must scale: that is what a replay measures
		sm, _, closeFn, err := f.sm.open(ctx, f.transport, f.maxConns)
		if err != nil {
			return err
		}
		defer closeFn()
		o.SageMaker = sm
	}
	tr, err := transport.New(f.transport, o)
	if err != nil {
		return err
	}
	defer tr.Close()
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	raw, err := os.Create(filepath.Join(f.out, fileBenchReplayRequests))
	if err != nil {
		return err
	}
	defer raw.Close()
	jw := bench.NewJSONLWriter(raw)
	var mu sync.Mutex
	var reqs []replay.Request
	others := map[artifact.Outcome]int{}
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "replaying %s: %d requests over %s…\n", desc, len(arrivals), f.transport)
	rp := &bench.Replayer{Transport: tr, Texts: texts, Voice: f.voice, RequestTimeout: f.requestTimeout,
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
	sum, minutes := replay.Tally(reqs, time.Duration(f.sloMs*float64(time.Millisecond)))
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%d requests: %.2f %% within %g ms, %.2f %% shed (503), p95 first audio %.0f ms, %d minute(s) over the SLO\n",
		sum.Requests, 100*sum.ShareWithinSLO, f.sloMs, 100*sum.ShedShare, sum.TTFABP95Ms, sum.MinutesOverSLO)
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
	data, err := json.MarshalIndent(struct {
		Trace     string                   `json:"trace"`
		Transport string                   `json:"transport"`
		SLOms     float64                  `json:"slo_ms"`
		Sent      bench.ReplayStats        `json:"sent"`
		Others    map[artifact.Outcome]int `json:"other_outcomes,omitempty"`
		Summary   replay.Summary           `json:"summary"`
		Minutes   []replay.Minute          `json:"minutes"`
	}{desc, f.transport, f.sloMs, st, others, sum, minutes}, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(f.out, fileBenchReplay)
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", path, "and", filepath.Join(f.out, fileBenchReplayRequests))
	return ctx.Err()
}

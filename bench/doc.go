// Package bench is kokoro's client side: the closed-loop Q_max concurrency ladder, per-request
// playback-stall accounting, per-rung statistics, raw JSONL results and the text reports.
//
// The parts are kept apart so each can be tested on its own; by file:
//
//   - config.go, schedule.go: Config and its defaults; Schedule is a pure function of the
//     configuration, so the dry run prints it and estimates the wall clock without touching
//     the network.
//   - ladder.go, rung.go: Ladder runs the schedule. At rung N exactly N workers each keep one
//     request outstanding; a rung value carries a running rung's clock, texts and results.
//     Hooks add control-plane steps without changing the ladder: Freeze/thaw around it (the
//     thaw runs even after Ctrl-C), capacity reads around every rung, and AfterRung to attach
//     the server side's view of concurrency (servergauge.go, or CloudWatch).
//   - transport.go, outcome.go: the Transport and Conn interfaces the ladder drives, and how a
//     request's end is classified into an artifact.Outcome. The transports themselves (http,
//     ws, and how to add one) are in the sub-package bench/transport.
//   - result.go, playback.go: Result is one request as a typed value; times are offsets from
//     the start of its rung's hold, so a raw JSONL file recomputes the same statistics on any
//     machine. Playback measures stalls as a listener would hear them.
//   - stats.go, qmax.go: RungAggregator turns the results of one rung into RungStats by Add
//     and Close, Judge applies the usability checks; SummarizeRun and Summarize pick Q_max,
//     its bracket and S_mean/S_p95.
//   - job.go, artifact.go, recompute.go: QmaxJob ties it together for `kokoro bench qmax`:
//     raw JSONL as results arrive, then the artifact (marked partial after an interrupt), the
//     plot and the per-rung table; Recompute rebuilds the rungs of an artifact from its raw
//     results.
//   - report.go, progress.go: the per-rung table and the live progress line. The PNG plot is in
//     the sub-package bench/plot, so that the plotting library stays out of this package.
//
// bench knows only the wire protocols in package
// api, never the server's internals.
package bench

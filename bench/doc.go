// Package bench is kokoro's client side: the closed-loop Q_max concurrency ladder, the
// transports that drive a server through its wire protocols, per-request playback-stall
// accounting, per-rung statistics, raw JSONL results, reports and the latency plot.
//
// The parts are kept apart so each can be tested on its own:
//
//   - Transport and Conn carry one request at a time and report audio as it arrives; HTTP and
//     WebSocket are built in, and the SageMaker transports plug in through the same interface.
//   - Ladder runs the schedule: at rung N exactly N workers each keep one request outstanding.
//   - Result is one request as a typed value; times are offsets from the ladder's epoch so a
//     raw JSONL file recomputes the same statistics on any machine.
//   - RungAggregator turns the results of one rung into RungStats by Add and Close.
//   - Summarize picks Q_max, its bracket and S_mean/S_p95 from the rungs of every run.
//   - Schedule is a pure function of the configuration: the dry run prints it and estimates
//     the wall clock without touching the network.
//   - Hooks add control-plane steps without changing the ladder: Freeze/thaw around it (the
//     thaw runs even after Ctrl-C), capacity reads around every rung, and AfterRung to attach
//     the server side's view of concurrency.
//   - QmaxJob ties it together for `kokoro bench qmax`: raw JSONL as results arrive, then the
//     artifact (marked partial after an interrupt), the PNG plot and the per-rung table;
//     Recompute rebuilds the rungs of an artifact from its raw results.
//
// bench knows only the wire protocols in package api, never the server's internals.
package bench

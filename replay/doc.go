// Package replay simulates one SageMaker endpoint variant under a traffic trace, event by event,
// to show before production what an autoscaling policy does with that traffic.
//
// Requests arrive as the trace says and are routed to the variant's instances; each instance
// serves as the qmax artifact measured (Service, fitted by FromQmax) behind the admission gate
// at MAX_QUEUE_DEPTH, which answers 503 past it. The instances' concurrency and invocations
// feed package scaling's model of CloudWatch and Application Auto Scaling, which asks for
// capacity; new instances serve after the scale-out time the ttotal artifact measured, and
// instances removed by a scale-in drain first. The result is every request's outcome and
// time to first audio, per-minute figures and a summary (share within the SLO, share shed,
// instance-hours). Time and randomness are the simulation's own: the same inputs and seed
// give the same result. docs/replay.md describes the model and its sources.
package replay

// Package planner turns benchmark artifacts into an autoscaling plan by arithmetic (docs/planner.md).
//
// Plan is a pure function of a qmax artifact, an optional ttotal artifact and a Scenario:
// it reads no clock and no global randomness (the time stamp and the seed of the surge
// simulation come in through the Scenario), so the same inputs always give the same plan,
// byte for byte. From the measured Q_max, service time and scale-out time it derives the
// scale-out and scale-in thresholds, the queue-wait budget W_max, the smallest fleet that
// can scale in safely, cooldowns, the admission bound and, from the ladder's measured
// throughput, the fleet size. Each conclusion that could be wrong is a Finding with a
// verdict (ok, warn, stop, suppressed), and the plan carries the documents that deploy
// it: an Application Auto Scaling target-tracking policy that only scales out, a
// step-scaling scale-in policy with its CloudWatch alarm, and the container's
// MAX_QUEUE_DEPTH.
//
// The plan is reported as text (WriteReport) and as one self-contained HTML page
// (WriteHTML): the ladder against the SLO, the candidates' cost against their risk and the
// timeline of replays the caller ran, drawn as inline SVG.
package planner

// Package scaling holds what an autoscaling policy for a SageMaker endpoint variant is, and what
// AWS does with one.
//
// The documents are the request shapes of the APIs that deploy a policy: Application Auto
// Scaling's RegisterScalableTarget and PutScalingPolicy (target tracking or step scaling) and
// CloudWatch's PutMetricAlarm. `kokoro plan` writes them, `kokoro policy apply` sends them, and
// the replay simulator and the emulator's autoscaler act on them.
//
// Scaler is a model of how Application Auto Scaling and CloudWatch act on those documents:
// metrics aggregated per period, alarms over evaluation periods, target tracking's
// proportional scale-out, step adjustments, cooldowns and the capacity bounds. It reads no
// clock: the caller feeds it observations and times, so the same model runs in virtual time
// (package replay) and in real time (the emulator). docs/replay.md names the public document
// each behaviour follows.
package scaling

// Package scaleout times a forced scale-out (`kokoro bench ttotal`) and drives the probe load
// that scale-out and policy validation both need.
//
// The stage timeline is pure: Timeline turns observed instants (the probe's start, the
// DesiredInstanceCount call, the new instance's first log event and the stage markers its
// container printed, the poll that saw the new instance in service, the probe's recovery)
// into stages, and Table lays them end to end so that every instant between the first and
// the last stage belongs to exactly one interval. The interval before desired_set is the
// pre-clock stage: shown, but never part of T_total. Run drives a scale-out through a Cloud
// interface with injected time, so a test controls every stage's instant.
//
// TTotalJob is `kokoro bench ttotal` around Run: the pairing with a qmax artifact, the probe's
// size, the freeze and its restore on every exit, the artifact. PolicyProbeJob is the probe of
// `kokoro policy validate --probe`: load above the scale-out target while ScaleOutWatch follows
// the alarm, the desired count and the capacity. Both reach the cloud through interfaces the
// CLI implements over package sagemaker.
package scaleout

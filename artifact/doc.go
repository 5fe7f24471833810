// Package artifact defines kokoro's benchmark artifacts — the Q_max ladder (Qmax) and the
// forced scale-out timer (TTotal) — and reads and writes them as versioned JSON.
//
// The artifacts are the contract between `kokoro bench` and `kokoro plan`: everything the
// planner concludes must be traceable to a field here, so every per-rung measurement is kept,
// together with provenance (when, by which build, with which command) and a fingerprint of
// the measured configuration (instance type and image digest on SageMaker; host, build and
// model for a local server).
//
// ReadQmax and ReadTTotal also accept the JSON written by the reference tool (tts-bench) and
// convert it into the same Go types, so measurements taken with that tool can be re-planned.
// Writing an artifact and reading it back yields values equal to the original, floats
// included: encoding/json writes the shortest representation that parses back to the same
// float64.
package artifact

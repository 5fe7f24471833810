// Package model runs the Kokoro-82M ONNX export through ONNX Runtime and loads voice packs.
//
// A Model holds N independent sessions ("slots"), each with its own intra-op thread pool on CPU
// or its own CUDA stream on GPU; one caller uses a slot at a time. Input and output names and
// dtypes are read from the model file, because the public exports disagree (input_ids or
// tokens, float32 or int32 speed, waveform or audio). All cgo stays inside this package.
//
// The package also writes a tiny stand-in ONNX graph with the same I/O contract (WriteStandIn),
// so tests of everything above the model run in milliseconds.
package model

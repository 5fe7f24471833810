// Package workflow holds kokoro's long commands as jobs a program or a test can run without
// the command line: the self-benchmark (bench qmax, bench ttotal, bench replay), the planner's
// runs (plan, plan replay), the local SageMaker runtime (emulate), the endpoint's life cycle
// (endpoint, policy, thaw), the shape search (tune) and synth. Each job is a struct of exported
// fields, the command's settings, with a New… function that returns the command's defaults and
// a Run method that takes the writers its output goes to (and a context, where the job waits
// on anything). A job that sends load gets its transport from one resolver, openTransport.
//
// It also owns the configuration table (Setting): one row per engine, server or cloud setting,
// from which the command line binds its flags, --help and the README's table are written, and
// the environment that describes an in-process server (EngineEnv), its benchmark fingerprint,
// is derived.
//
// The package sits between the command line and the packages it composes: cmd/kokoro imports
// it, and nothing below it (bench, planner, sagemaker, emulate, server, tts) does.
package workflow

// Package transport holds the wire protocols the bench drives a server through, each a
// bench.Transport, and the registry that names them for `kokoro bench qmax --transport`.
//
//   - http: POST /invocations with a streamed WAV response (http.go)
//   - ws: the bidirectional WebSocket protocol, one session per worker (ws.go)
//   - sagemaker-stream: InvokeEndpointWithResponseStream (sagemaker_stream.go)
//   - sagemaker-bidi: InvokeEndpointWithBidirectionalStream carrying the WebSocket protocol,
//     one session per worker (sagemaker_bidi.go)
//
// The SageMaker transports reach AWS through the SageMaker calls of Options (sagemaker.go),
// which the CLI fills from package sagemaker, so that the AWS SDK stays out of the bench; how
// SageMaker's errors map onto outcomes is documented there and in docs/emulator.md.
//
// The ladder in package bench knows only the bench.Transport and bench.Conn interfaces; a
// transport knows only the wire protocol (package api), never the server's internals. It
// reports audio as it arrives and returns a *bench.ServerError for a refusal or failure the
// server reported through its protocol, so that outcomes classify alike on every transport.
//
// # Adding a transport
//
// A new transport is one file and one line:
//
//  1. In a file of its own, a type that implements Transport (bench.Transport plus Close) and a
//     constructor func(Options) (Transport, error). Read what it needs from Options; add a
//     field there if no existing one fits (a client interface the transport defines and the
//     caller fills, for instance, so that SDKs stay out of this package).
//  2. One entry in the registry table in registry.go: the name as the artifact records it
//     (the artifact.Transport* constants), a one-line description for --help, and the
//     constructor.
//
// docs/extending.md has the same recipe with the tests to write. Test it against the stand-in
// server of this package's tests and against the real server, as
// http and ws are (ladder_test.go, server_test.go).
package transport

// Package server is the HTTP and WebSocket transport of `kokoro serve`: the SageMaker
// custom-container contract (/ping, /invocations, /invocations-bidirectional-stream), an
// OpenAI-compatible speech route, Prometheus metrics and the stage markers that time a
// scale-out.
//
// The server listens and accepts at once; the engine is loaded in the background and /ping
// answers 503 until it is loaded and warmed. Every request is decoded and validated before an
// admission gate (MaxQueueDepth) lets it in, so a client error or a rejection is a status code
// and costs no model work; after the first audio byte an error can only cut the stream short.
// All transports stream through one callback, func(tts.Chunk) error: chunked HTTP writes,
// WebSocket binary frames and the buffer behind a complete WAV.
package server

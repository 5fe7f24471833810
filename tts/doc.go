// Package tts composes the pipeline: a request is phonemized into chunks, each chunk is
// scheduled onto a model slot by earliest playback deadline, and the resulting PCM is handed
// to one callback per chunk, in order. Transports (HTTP, WebSocket, the CLI) all stream
// through that callback.
package tts

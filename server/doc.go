// Package server is the HTTP and WebSocket transport of `kokoro serve`: the SageMaker
// custom-container contract (/ping, /invocations, /invocations-bidirectional-stream), an
// OpenAI-compatible speech route, Prometheus metrics and the stage markers that time a
// scale-out. docs/server.md is the contract in full: routes, bodies, error codes, the
// WebSocket protocol.
//
// The server listens and accepts at once; the engine is loaded in the background and /ping
// answers 503 until it is loaded and warmed. Every request is decoded and validated before an
// admission gate (MaxQueueDepth) lets it in, so a client error or a rejection is a status code
// and costs no model work; after the first audio byte an error can only cut the stream short.
// All transports stream through one callback, func(tts.Chunk) error: chunked HTTP writes
// through the format's encoder (audio/codec: wav, pcm, mp3, opus, flac), WebSocket binary
// frames of PCM, and the buffer behind a complete file. voices.go maps OpenAI's voice names;
// drain.go shuts down within the drain budget, cutting what does not fit detectably.
//
// # WebSocket sessions
//
// A session speaks utterances one after another, in the order they arrive, so binary PCM
// frames never interleave; each admitted utterance is framed by a synthesis_start and a
// synthesis_complete (with cancelled set when it was stopped, in the queue too) or an error
// message, and a message refused before admission gets one error message. A text frame that
// is not UTF-8 closes the session with 1007. Client
// messages arrive as text or binary frames holding JSON:
//
//	{"text":"…","voice":"…","speed":1,"request_id":"a"}   speak a complete text (type "speak")
//	{"type":"text","text":"Hel","request_id":"b"}         streamed text: sentences are spoken
//	{"type":"text","text":"lo. How"}                      as they complete, before the flush
//	{"type":"flush","request_id":"b"}                     speak the rest and end utterance b
//	{"type":"cancel","request_id":"a"}                    stop a (no id: stop everything)
//	{"type":"close"}                                      finish what is queued, then close
//
// Every utterance holds one slot of the admission gate from its first message to its end,
// exactly like an HTTP request; a rejected one gets an error message whose message is
// "queue_saturated". A streamed utterance that was refused, cancelled or stopped for length is
// dead until the client flushes its id: the pieces still sent for it are dropped. WebSocket
// pings are answered; a session with no traffic either way for WSIdleTimeout is closed.
//
// The session is split by idea: ws.go reads and dispatches (the only goroutine that reads the
// socket), wsspeak.go speaks, wsconn.go writes and times the session out, wsqueue.go holds the
// admitted utterances, wsutterance.go one utterance's text, wstext.go text streamed in pieces.
// Sentences of streamed text are cut by phonemize.CutSentences.
//
// # Compatibility sockets
//
// A session speaks through a dialect (wsdialect.go): kokoro's own protocol above, or the
// socket of a TTS provider that voice-agent frameworks already speak, on the provider's own
// path: Cartesia's contexts (cartesia.go, /tts/websocket), ElevenLabs' multi-context socket
// (elevenlabs.go, /v1/text-to-speech/{voice}/multi-stream-input) and Deepgram's speak socket
// as Pipecat's SageMaker service sends it (deepgram.go, /v1/speak). A dialect only translates
// messages: admission, queueing, cancellation and metrics are the session's.
//
// # Rates, encodings and fields
//
// Every route answers at the sample rate a request asks for (rate.go: the engine's chunks
// through audio.Resampler, word places mapped exactly), and in G.711 for telephone lines. A
// field a route does not have is refused by name (fields.go) unless
// Config.AllowUnknownFields. Errors on /v1/* take OpenAI's shape (errors.go).
package server

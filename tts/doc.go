// Package tts composes the pipeline: a request is phonemized into chunks, each chunk is
// scheduled onto a model slot by least slack (its playback deadline less its expected model
// time; slots of different widths share the cores), and the resulting PCM is handed
// to one callback per chunk, in order. Transports (HTTP, WebSocket, the CLI) all stream
// through that callback.
//
// Check holds every rule a request must follow (text, length, speed, voice, language), so
// transports answer client errors before any model work, and reads the request once into a
// Resolved: the voice's pack, the language's code, the speed, the text as it is spoken. Stream
// and StreamMarkup speak a Resolved and read no voice spec or language name again. Load builds the engine from the installed assets
// (phonemizer, voices, model, warm-up, chunk budgets) for the CLI and the real-model tests alike;
// New builds one on parts the caller provides, as the unit tests do with stand-ins. Tune and
// ModelThroughput measure slot shapes and the model-only limit (`kokoro tune`).
package tts

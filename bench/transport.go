package bench

import (
	"context"
)

// Request is one utterance the ladder asks a server to synthesize.
type Request struct {
	ID    string
	Text  string
	Voice string  // empty: the server's default
	Speed float64 // 0: the server's default
}

// Transport connects the ladder to one target. Each worker dials its own Conn once and reuses
// it, so a transport with sessions (WebSocket, SageMaker bidirectional streams) keeps one session
// per worker, as a real client would.
type Transport interface {
	// Name is the transport's name in artifacts and file names ("http", "ws", …).
	Name() string
	// Dial opens a connection. The ladder calls it before a worker's first request and again
	// after a request failed at the transport level.
	Dial(ctx context.Context) (Conn, error)
}

// Conn carries one request at a time.
type Conn interface {
	// Synthesize sends req and calls onAudio with the audio payload bytes (PCM16
	// little-endian samples, container headers already stripped) each time some arrive, in
	// arrival order; the slice is only valid during the call.
	// It returns nil once the server completed the utterance, a *ServerError when the server
	// refused or failed it through its protocol, and any other error for transport failures.
	// Cancelling ctx must make it return promptly.
	Synthesize(ctx context.Context, req Request, onAudio func(pcm []byte)) error
	// Close releases the connection.
	Close() error
}

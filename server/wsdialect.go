package server

import (
	"github.com/kokoro-sm/kokoro/api"
)

// dialect is a socket protocol spoken over one session's machinery: kokoro's own, or a
// compatibility mode on its own path (Cartesia's contexts, ElevenLabs' multi-context). A
// dialect only translates: every utterance is admitted, queued, spoken, cancelled and counted
// by the session exactly as one of kokoro's own (the same gate, metrics and barge-in
// accounting). The reader goroutine calls read and, for refusals, send; the speaker calls
// send and audio for the utterance it speaks.
type dialect interface {
	// read turns one client frame into the session's messages, in order. On an error the
	// messages may hold one whose RequestID names the request the error is about.
	read(b []byte, unknownOK bool) ([]api.WSClientMessage, error)
	// send writes one of the session's control messages (synthesis_start, a cancelled or
	// finished synthesis_complete, error) in the dialect's shape, or nothing where the
	// dialect has no such message.
	send(w *wsConn, m api.WSServerMessage) error
	// audio writes encoded samples of u, width bytes each; head, set when u asked for
	// timestamps, describes its samples [from, to) and names the words in them.
	audio(w *wsConn, u *utterance, frame []byte, width int, head func(from, to int) api.WSServerMessage) error
}

// kokoroDialect is kokoro's own protocol (the server package's doc).
type kokoroDialect struct{}

func (kokoroDialect) read(b []byte, unknownOK bool) ([]api.WSClientMessage, error) {
	m, err := parseClientMessage(b, unknownOK)
	return []api.WSClientMessage{m}, err
}

func (kokoroDialect) send(w *wsConn, m api.WSServerMessage) error { return w.sendJSON(m) }

func (kokoroDialect) audio(w *wsConn, _ *utterance, frame []byte, width int, head func(from, to int) api.WSServerMessage) error {
	return w.sendAudio(frame, width, head)
}

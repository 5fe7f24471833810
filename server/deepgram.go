package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
)

// deepgramRequest is a client message of Deepgram's speak socket.
type deepgramRequest struct {
	Type string `json:"type"` // Speak, Flush, Clear, Close
	Text string `json:"text"`
}

// deepgramMessage is a server control message; audio travels in binary frames.
type deepgramMessage struct {
	Type       string `json:"type"` // Flushed, Cleared, Warning
	SequenceID int    `json:"sequence_id"`
	// Description (Warning) says why an utterance was refused, with Code kokoro's code.
	Description string `json:"description,omitempty"`
	Code        string `json:"code,omitempty"`
}

// deepgramEncodings maps the query's encoding to kokoro's formats.
var deepgramEncodings = map[string]string{"linear16": api.FormatPCM, "mulaw": api.FormatMulaw, "alaw": api.FormatAlaw}

// deepgramDialect speaks Deepgram's speak socket: Speak appends text to the utterance being
// built (spoken sentence by sentence as it completes), Flush speaks the rest and ends it (then
// Flushed), Clear stops everything (barge-in; Cleared), Close closes. The voice is the query's
// model, a Kokoro voice or blend.
type deepgramDialect struct {
	voice, format string
	rate          *int
	// The reader's: the utterance being built ("" when none) and how many were started.
	current string
	started int
	// The speaker's: the number of the last Flushed or Cleared (a Warning, which the reader
	// may send too, carries none).
	sequence int
}

func newDeepgram(r *http.Request) (dialect, error) {
	q := r.URL.Query()
	d := &deepgramDialect{voice: q.Get("model"), format: api.FormatPCM}
	if e := q.Get("encoding"); e != "" {
		f, ok := deepgramEncodings[e]
		if !ok {
			return nil, fmt.Errorf("%w: encoding %s; this socket sends linear16, mulaw or alaw", errBadFormat, clip(e))
		}
		d.format = f
	}
	if v := q.Get("sample_rate"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%w: sample_rate %s is not a number", errBadSampleRate, clip(v))
		}
		d.rate = &n
	}
	return d, nil
}

func (d *deepgramDialect) read(b []byte, unknownOK bool) ([]api.WSClientMessage, error) {
	var in deepgramRequest
	if err := decodeStrict(b, &in, unknownOK); err != nil {
		return nil, err
	}
	switch strings.ToLower(in.Type) {
	case "speak":
		if d.current == "" {
			d.started++
			d.current = "utterance-" + strconv.Itoa(d.started)
		}
		return []api.WSClientMessage{{Type: api.WSTypeText, RequestID: d.current, Text: in.Text, Voice: d.voice, Format: d.format, SampleRate: d.rate}}, nil
	case "flush":
		id := d.current
		d.current = ""
		if id == "" {
			return nil, nil
		}
		return []api.WSClientMessage{{Type: api.WSTypeFlush, RequestID: id}}, nil
	case "clear":
		d.current = ""
		return []api.WSClientMessage{{Type: api.WSTypeCancel}}, nil
	case "close":
		return []api.WSClientMessage{{Type: api.WSTypeFlush, RequestID: d.current}, {Type: api.WSTypeClose}}, nil
	}
	return nil, fmt.Errorf("%w: %s; expected Speak, Flush, Clear or Close", errUnknownMessage, clip(in.Type))
}

func (d *deepgramDialect) send(w *wsConn, m api.WSServerMessage) error {
	switch {
	case m.Type == api.WSTypeSynthesisComplete && m.Cancelled:
		d.sequence++
		return w.sendJSON(deepgramMessage{Type: "Cleared", SequenceID: d.sequence})
	case m.Type == api.WSTypeSynthesisComplete:
		d.sequence++
		return w.sendJSON(deepgramMessage{Type: "Flushed", SequenceID: d.sequence})
	case m.Type == api.WSTypeError:
		return w.sendJSON(deepgramMessage{Type: "Warning", Description: m.Message, Code: m.Code})
	}
	return nil
}

func (d *deepgramDialect) audio(w *wsConn, _ *utterance, frame []byte, width int, _ func(from, to int) api.WSServerMessage) error {
	return w.sendAudio(frame, width, nil)
}

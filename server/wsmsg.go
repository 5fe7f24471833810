package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/tts"
)

// parseClientMessage decodes one WebSocket frame's payload, text or binary alike, and
// normalizes its type: a message with text and no type is a complete utterance ("speak").
// unknownOK ignores fields the message does not have, which are otherwise refused.
func parseClientMessage(b []byte, unknownOK bool) (api.WSClientMessage, error) {
	var m api.WSClientMessage
	if err := decodeStrict(b, &m, unknownOK); errors.Is(err, errUnknownField) {
		// The message was read whole: its error can name its request.
		if checkRequestID(m.RequestID) != nil {
			m.RequestID = ""
		}
		return m, err
	} else if err != nil {
		return api.WSClientMessage{}, err
	}
	if err := checkRequestID(m.RequestID); err != nil {
		m.RequestID = "" // never echoed
		return m, err
	}
	m.Type = strings.ToLower(strings.TrimSpace(m.Type))
	switch m.Type {
	case "":
		if m.Text == "" {
			return m, fmt.Errorf("%w: a message needs a type or a text", errUnknownMessage)
		}
		m.Type = api.WSTypeSpeak
	case api.WSTypeSpeak, api.WSTypeText, api.WSTypeFlush, api.WSTypeCancel, api.WSTypeClose:
	default:
		return m, fmt.Errorf("%w: %s; expected one of speak, text, flush, cancel, close", errUnknownMessage, clip(m.Type))
	}
	if m.Type == api.WSTypeSpeak && strings.TrimSpace(m.Text) == "" {
		return m, fmt.Errorf("%w: the text field is missing or blank", tts.ErrEmptyText)
	}
	return m, nil
}

// wsFormats are the encodings of the WebSocket's binary frames: raw samples, whose frames can
// be cut anywhere.
var wsFormats = []string{api.FormatPCM, api.FormatMulaw, api.FormatAlaw}

// wsEncoding is the format and rate of an utterance's binary frames, as its first message
// asks.
func wsEncoding(m api.WSClientMessage) (codec.Format, int, error) {
	name := strings.ToLower(m.Format)
	if name == "" {
		name = api.FormatPCM
	}
	if !slices.Contains(wsFormats, name) {
		return codec.Format{}, 0, fmt.Errorf("%w: %s; the WebSocket's frames are %s", errBadFormat, clip(m.Format), strings.Join(wsFormats, ", "))
	}
	f, err := codec.Lookup(name)
	if err != nil {
		return codec.Format{}, 0, err
	}
	rate, err := checkRate(m.SampleRate, f)
	return f, rate, err
}

// sampleBytes is the size of one sample in a frame of format f (one of wsFormats).
func sampleBytes(f codec.Format) int {
	if f.Name == api.FormatPCM {
		return 2
	}
	return 1 // G.711
}

package server

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// parseClientMessage decodes one WebSocket frame's payload, text or binary alike, and
// normalizes its type: a message with text and no type is a complete utterance ("speak").
func parseClientMessage(b []byte) (api.WSClientMessage, error) {
	var m api.WSClientMessage
	if err := decodeStrict(b, &m); err != nil {
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

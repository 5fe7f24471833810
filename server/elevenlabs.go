package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
)

// elevenLabsPrefix and elevenLabsSuffix frame the path of the ElevenLabs-style socket,
// /v1/text-to-speech/{voice_id}/multi-stream-input, ElevenLabs' own.
const (
	elevenLabsPrefix = "/v1/text-to-speech/"
	elevenLabsSuffix = "/multi-stream-input"
)

// elevenLabsRequest is a client message of ElevenLabs' multi-context socket. Fields kokoro has
// no use for are read and ignored: voice settings, generation config, pronunciation
// dictionaries, keys (a key in the message is not checked).
type elevenLabsRequest struct {
	Text         *string         `json:"text"`
	ContextID    string          `json:"context_id"`
	Flush        bool            `json:"flush"`
	CloseContext bool            `json:"close_context"`
	CloseSocket  bool            `json:"close_socket"`
	VoiceSet     json.RawMessage `json:"voice_settings"`
	GenConfig    json.RawMessage `json:"generation_config"`
	Dictionaries json.RawMessage `json:"pronunciation_dictionary_locators"`
	APIKey       json.RawMessage `json:"xi_api_key"`
	Auth         json.RawMessage `json:"authorization"`
	TryTrigger   json.RawMessage `json:"try_trigger_generation"`
}

// elevenLabsMessage is a server message: audio with its alignment, a context's final
// message, or an error.
type elevenLabsMessage struct {
	Audio     string               `json:"audio,omitempty"`
	Alignment *elevenLabsAlignment `json:"alignment,omitempty"`
	ContextID string               `json:"contextId"`
	IsFinal   *bool                `json:"isFinal"`
	Error     string               `json:"error,omitempty"`
	Message   string               `json:"message,omitempty"`
}

// elevenLabsAlignment times the characters of a message's audio, in milliseconds from its
// first sample; the last character ends where the audio does, so a client that adds up the
// messages' spans (as ElevenLabs' clients do) stays on the audio's clock.
type elevenLabsAlignment struct {
	Chars       []string  `json:"chars"`
	StartsMS    []float64 `json:"charStartTimesMs"`
	DurationsMS []float64 `json:"charDurationsMs"`
}

// elevenLabsFormat maps an output_format query values to kokoro's formats and rates.
func elevenLabsFormat(v string) (string, int, error) {
	if v == "" {
		return api.FormatPCM, api.SampleRate, nil
	}
	enc, rate, ok := strings.Cut(v, "_")
	n, err := strconv.Atoi(rate)
	names := map[string]string{"pcm": api.FormatPCM, "ulaw": api.FormatMulaw, "alaw": api.FormatAlaw}
	if f, known := names[enc]; ok && err == nil && known {
		return f, n, nil
	}
	return "", 0, fmt.Errorf("%w: output_format %s; this socket sends pcm_<rate>, ulaw_8000 or alaw_8000", errBadFormat, clip(v))
}

// elevenLabsDialect speaks ElevenLabs' multi-context socket: a context is one of the session's
// streamed utterances, its context_id the request id; text is spoken sentence by sentence as
// it completes, close_context speaks the rest and ends it (isFinal), and a context that opens
// while an earlier one is still being spoken stops the earlier one, as a voice agent's next
// turn interrupts its last (contexts are spoken one at a time). The voice is the path's, the
// format and rate the output_format query's.
type elevenLabsDialect struct {
	voice, lang, format string
	rate                int
	// The reader's: the last context opened, and the last contexts closed (their late
	// keep-alives must not open them again).
	current string
	closed  []string
}

// maxClosed bounds the closed contexts an ElevenLabs-style session remembers.
const maxClosed = 16

func newElevenLabs(r *http.Request) (dialect, error) {
	voice, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, elevenLabsPrefix), elevenLabsSuffix)
	if !ok || voice == "" || strings.Contains(voice, "/") {
		return nil, fmt.Errorf("%w: no route %s; the ElevenLabs-style socket is %s{voice_id}%s", errNotFound, clip(r.URL.Path), elevenLabsPrefix, elevenLabsSuffix)
	}
	q := r.URL.Query()
	format, rate, err := elevenLabsFormat(q.Get("output_format"))
	if err != nil {
		return nil, err
	}
	return &elevenLabsDialect{voice: voice, lang: q.Get("language_code"), format: format, rate: rate}, nil
}

func (d *elevenLabsDialect) read(b []byte, unknownOK bool) ([]api.WSClientMessage, error) {
	var in elevenLabsRequest
	id, err := decodeContext(b, &in, &in.ContextID, unknownOK)
	if err != nil {
		return id, err
	}
	if in.CloseSocket {
		return []api.WSClientMessage{{Type: api.WSTypeClose}}, nil
	}
	var out []api.WSClientMessage
	// An empty text is a keep-alive; text for a closed context is too late to speak.
	if in.Text != nil && *in.Text != "" && !slices.Contains(d.closed, in.ContextID) {
		if in.ContextID != d.current {
			if d.current != "" {
				out = append(out, api.WSClientMessage{Type: api.WSTypeCancel, RequestID: d.current})
			}
			d.current = in.ContextID
		}
		rate := d.rate
		out = append(out, api.WSClientMessage{Type: api.WSTypeText, RequestID: in.ContextID, Text: *in.Text,
			Voice: d.voice, Lang: d.lang, Format: d.format, SampleRate: &rate, Timestamps: true})
	}
	if in.CloseContext && !slices.Contains(d.closed, in.ContextID) {
		out = append(out, api.WSClientMessage{Type: api.WSTypeFlush, RequestID: in.ContextID})
		if d.closed = append(d.closed, in.ContextID); len(d.closed) > maxClosed {
			d.closed = d.closed[1:]
		}
	}
	return out, nil
}

func (d *elevenLabsDialect) send(w *wsConn, m api.WSServerMessage) error {
	final := true
	switch m.Type {
	case api.WSTypeSynthesisComplete:
		return w.sendJSON(elevenLabsMessage{ContextID: m.RequestID, IsFinal: &final})
	case api.WSTypeError:
		return w.sendJSON(elevenLabsMessage{ContextID: m.RequestID, IsFinal: &final, Error: m.Code, Message: m.Message})
	}
	return nil
}

func (d *elevenLabsDialect) audio(w *wsConn, u *utterance, frame []byte, width int, head func(from, to int) api.WSServerMessage) error {
	for at := 0; at < len(frame); at += maxFrame {
		piece := frame[at:min(at+maxFrame, len(frame))]
		m := elevenLabsMessage{Audio: base64.StdEncoding.EncodeToString(piece), ContextID: u.id()}
		if head != nil {
			h := head(at/width, (at+len(piece))/width)
			m.Alignment = elevenLabsAlign(h, u.syn.rate)
		}
		if err := w.sendJSON(m); err != nil {
			return fmt.Errorf("%w: %v", errClientWrite, err)
		}
		w.timer.touch()
	}
	return nil
}

// elevenLabsAlign is the alignment of the audio h describes (its samples [Offset,
// Offset+Samples) at rate, and the words in them): each word spread over its sound a character
// at a time, a space between two words, and in it the characters that start in this audio.
func elevenLabsAlign(h api.WSServerMessage, rate int) *elevenLabsAlignment {
	ms := func(n int) float64 { return float64(n) * 1000 / float64(rate) }
	from, to := ms(*h.Offset), ms(*h.Offset+*h.Samples)
	a := &elevenLabsAlignment{}
	add := func(ch string, start, end float64) {
		if start >= from && start < to {
			a.Chars = append(a.Chars, ch)
			a.StartsMS = append(a.StartsMS, start-from)
			a.DurationsMS = append(a.DurationsMS, end-start)
		}
	}
	for i, w := range h.Words {
		runes := []rune(w.Word)
		step := (w.EndMS - w.StartMS) / float64(len(runes))
		for k, r := range runes {
			add(string(r), w.StartMS+float64(k)*step, w.StartMS+float64(k+1)*step)
		}
		next := to
		if i+1 < len(h.Words) {
			next = h.Words[i+1].StartMS
		}
		add(" ", w.EndMS, max(next, w.EndMS))
	}
	// The last character ends where the audio does.
	if n := len(a.Chars); n == 0 {
		add(" ", from, to)
	} else if end := a.StartsMS[n-1] + a.DurationsMS[n-1]; end > to-from {
		a.DurationsMS[n-1] = to - from - a.StartsMS[n-1]
	} else if end < to-from {
		a.Chars = append(a.Chars, " ")
		a.StartsMS = append(a.StartsMS, end)
		a.DurationsMS = append(a.DurationsMS, to-from-end)
	}
	return a
}

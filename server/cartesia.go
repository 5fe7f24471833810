package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// cartesiaRequest is a client message of Cartesia's TTS WebSocket: a generation request (a
// piece of a context's transcript) or a cancel. Fields kokoro has no use for are read and
// ignored: model_id (one model serves every name), max_buffer_delay_ms (sentences are spoken
// as they complete), timestamp and pronunciation options.
type cartesiaRequest struct {
	ContextID     string          `json:"context_id"`
	Transcript    *string         `json:"transcript"`
	Continue      bool            `json:"continue"`
	Cancel        bool            `json:"cancel"`
	ModelID       string          `json:"model_id"`
	Voice         *cartesiaVoice  `json:"voice"`
	Language      string          `json:"language"`
	OutputFormat  *cartesiaFormat `json:"output_format"`
	AddTimestamps bool            `json:"add_timestamps"`
	// GenerationConfig's speed (0.6 to 1.5 in Cartesia's range) is the speaking rate.
	GenerationConfig *struct {
		Speed   *float64        `json:"speed"`
		Volume  json.RawMessage `json:"volume"`
		Emotion json.RawMessage `json:"emotion"`
	} `json:"generation_config"`
	Duration                *float64        `json:"duration"`
	MaxBufferDelayMS        *int            `json:"max_buffer_delay_ms"`
	AddPhonemeTimestamps    bool            `json:"add_phoneme_timestamps"`
	UseNormalizedTimestamps bool            `json:"use_normalized_timestamps"`
	UseOriginalTimestamps   bool            `json:"use_original_timestamps"`
	PronunciationDictID     json.RawMessage `json:"pronunciation_dict_id"`
	Speed                   json.RawMessage `json:"speed"`
}

type cartesiaVoice struct {
	Mode string `json:"mode"` // "id": a Kokoro voice or blend
	ID   string `json:"id"`
}

type cartesiaFormat struct {
	Container  string `json:"container"` // "raw"
	Encoding   string `json:"encoding"`  // pcm_s16le, pcm_mulaw or pcm_alaw
	SampleRate *int   `json:"sample_rate"`
}

// cartesiaEncodings maps Cartesia's raw encodings to kokoro's formats.
var cartesiaEncodings = map[string]string{"pcm_s16le": api.FormatPCM, "pcm_mulaw": api.FormatMulaw, "pcm_alaw": api.FormatAlaw}

// cartesiaMessage is a server message of Cartesia's TTS WebSocket.
type cartesiaMessage struct {
	Type       string `json:"type"` // chunk, timestamps, done, error
	ContextID  string `json:"context_id"`
	Done       bool   `json:"done"`
	StatusCode int    `json:"status_code"`
	Data       string `json:"data,omitempty"` // chunk: the audio in base64
	// WordTimestamps (timestamps): each word once, seconds from the context's first sample.
	WordTimestamps *cartesiaWords `json:"word_timestamps,omitempty"`
	Error          string         `json:"error,omitempty"`
	ErrorCode      string         `json:"error_code,omitempty"`
}

type cartesiaWords struct {
	Words []string  `json:"words"`
	Start []float64 `json:"start"`
	End   []float64 `json:"end"`
}

// cartesiaDialect speaks Cartesia's TTS WebSocket: contexts (several on one socket, spoken one
// after another in the order they start), a context's transcript streamed in pieces with
// continue, word timestamps, cancel. A context is one of the session's streamed utterances,
// its context_id the request id.
type cartesiaDialect struct {
	// Only the speaker touches these: the context whose words were sent, and how many.
	wordsOf string
	words   int
}

func newCartesia(*http.Request) (dialect, error) { return &cartesiaDialect{}, nil }

func (*cartesiaDialect) read(b []byte, unknownOK bool) ([]api.WSClientMessage, error) {
	var in cartesiaRequest
	id, err := decodeContext(b, &in, &in.ContextID, unknownOK)
	if err != nil {
		return id, err
	}
	if in.Cancel {
		return []api.WSClientMessage{{Type: api.WSTypeCancel, RequestID: in.ContextID}}, nil
	}
	m := api.WSClientMessage{Type: api.WSTypeText, RequestID: in.ContextID, Timestamps: in.AddTimestamps}
	if in.Transcript != nil {
		m.Text = *in.Transcript
	}
	if v := in.Voice; v != nil {
		if v.Mode != "" && v.Mode != "id" {
			return id, fmt.Errorf("%w: voice mode %s; this server takes a voice by id (a Kokoro voice or blend)", tts.ErrUnknownVoice, clip(v.Mode))
		}
		m.Voice = v.ID
	}
	// "en" leaves the English accent to the voice, as a Kokoro request without lang does.
	if l := strings.ToLower(in.Language); l != "en" {
		m.Lang = in.Language
	}
	if f := in.OutputFormat; f != nil {
		if f.Container != "" && f.Container != "raw" {
			return id, fmt.Errorf("%w: container %s; this socket sends raw samples", errBadFormat, clip(f.Container))
		}
		if f.Encoding != "" {
			name, ok := cartesiaEncodings[f.Encoding]
			if !ok {
				return id, fmt.Errorf("%w: encoding %s; supported: pcm_s16le, pcm_mulaw, pcm_alaw", errBadFormat, clip(f.Encoding))
			}
			m.Format = name
		}
		m.SampleRate = f.SampleRate
	}
	if g := in.GenerationConfig; g != nil && g.Speed != nil {
		s := min(max(*g.Speed, api.MinSpeed), api.MaxSpeed)
		m.Speed = &s
	}
	msgs := []api.WSClientMessage{m}
	if !in.Continue {
		msgs = append(msgs, api.WSClientMessage{Type: api.WSTypeFlush, RequestID: in.ContextID})
	}
	return msgs, nil
}

func (d *cartesiaDialect) send(w *wsConn, m api.WSServerMessage) error {
	switch m.Type {
	case api.WSTypeSynthesisComplete:
		return w.sendJSON(cartesiaMessage{Type: "done", ContextID: m.RequestID, Done: true, StatusCode: http.StatusPartialContent})
	case api.WSTypeError:
		return w.sendJSON(cartesiaMessage{Type: "error", ContextID: m.RequestID, Done: true, StatusCode: errorStatus(m.Code), Error: m.Message, ErrorCode: m.Code})
	}
	return nil // synthesis_start has no counterpart: audio opens a context
}

func (d *cartesiaDialect) audio(w *wsConn, u *utterance, frame []byte, width int, head func(from, to int) api.WSServerMessage) error {
	if head != nil {
		if d.wordsOf != u.id() {
			d.wordsOf, d.words = u.id(), 0
		}
		var ts cartesiaWords
		for _, wd := range head(0, len(frame)/width).Words {
			if wd.Index < d.words {
				continue // sent with the frame before, which it began in
			}
			d.words = wd.Index + 1
			ts.Words = append(ts.Words, wd.Word)
			ts.Start = append(ts.Start, wd.StartMS/1000)
			ts.End = append(ts.End, wd.EndMS/1000)
		}
		if len(ts.Words) > 0 {
			if err := w.sendJSON(cartesiaMessage{Type: "timestamps", ContextID: u.id(), StatusCode: http.StatusPartialContent, WordTimestamps: &ts}); err != nil {
				return fmt.Errorf("%w: %v", errClientWrite, err)
			}
		}
	}
	for at := 0; at < len(frame); at += maxFrame {
		piece := frame[at:min(at+maxFrame, len(frame))]
		m := cartesiaMessage{Type: "chunk", ContextID: u.id(), StatusCode: http.StatusPartialContent, Data: base64.StdEncoding.EncodeToString(piece)}
		if err := w.sendJSON(m); err != nil {
			return fmt.Errorf("%w: %v", errClientWrite, err)
		}
		w.timer.touch()
	}
	return nil
}

// errorStatus is the HTTP status of an error code, for the protocols whose error messages
// carry one: 503 for the server's refusals a client retries elsewhere, 500 for its failures,
// 400 for the client's.
func errorStatus(code string) int {
	switch code {
	case api.ErrQueueSaturated, api.ErrShuttingDown, api.ErrNotReady:
		return http.StatusServiceUnavailable
	case api.ErrInternal:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// decodeContext decodes a context socket's message b into v, whose context id ctxID points
// into. It returns the message naming that context (no context where the id is invalid), for
// the answer to an error to name it too, and an error for a bad message or context id.
func decodeContext(b []byte, v any, ctxID *string, unknownOK bool) ([]api.WSClientMessage, error) {
	err := decodeStrict(b, v, unknownOK)
	id := []api.WSClientMessage{{RequestID: *ctxID}}
	if checkRequestID(*ctxID) != nil {
		id[0].RequestID = ""
	}
	if err != nil {
		return id, err
	}
	if err := checkRequestID(*ctxID); err != nil {
		return id, fmt.Errorf("context_id: %w", err)
	}
	return id, nil
}

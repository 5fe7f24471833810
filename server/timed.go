package server

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/captions"
	"github.com/kokoro-sm/kokoro/tts"
)

// wordClock places each chunk's words in its utterance: offsets and indices run on across the
// chunks and, on the WebSocket, across the segments of streamed text.
type wordClock struct {
	rate  int        // samples per second of the audio handed out
	at    int        // samples of the utterance handed out so far
	words []api.Word // every word placed so far, in order
	// markTypes are the speech marks asked for; marks holds them, placed as words are, and
	// taken how many of them took has handed out.
	markTypes []string
	marks     []api.SpeechMark
	taken     int
}

// ms is n samples at the clock's rate in milliseconds.
func (k *wordClock) ms(n int) float64 { return float64(n) * 1000 / float64(k.rate) }

// add places c's words after the audio before it and returns them.
func (k *wordClock) add(c tts.Chunk) []api.Word {
	from := len(k.words)
	for _, w := range c.Words {
		s, e := k.at+w.Start, k.at+w.End
		k.words = append(k.words, api.Word{Word: w.Text, Index: len(k.words), Start: s, End: e,
			StartMS: k.ms(s), EndMS: k.ms(e)})
	}
	k.marks = appendMarks(k.marks, c.Marks, k.markTypes, k.at, k.ms)
	k.at += len(c.PCM)
	return k.words[from:]
}

// sent reports what was handed out, with next the first word not handed out ("" for none).
func (k *wordClock) sent(next string) *api.SentAudio {
	s := &api.SentAudio{Samples: k.at, MS: k.ms(k.at), Words: len(k.words)}
	if n := len(k.words); n > 0 {
		last := k.words[n-1]
		s.LastWord = &last
	}
	if next != "" {
		s.CutWord = &api.CutWord{Word: next, Index: len(k.words)}
	}
	return s
}

// within lists the words of ws whose sound overlaps samples [from, to).
func within(ws []api.Word, from, to int) []api.Word {
	var out []api.Word
	for _, w := range ws {
		if w.Start < to && w.End > from {
			out = append(out, w)
		}
	}
	return out
}

// captionsOf renders words as captions in format, nil when none were asked for.
func captionsOf(format string, words []api.Word) (*string, error) {
	if format == "" {
		return nil, nil
	}
	s, err := captions.Write(format, captions.Cues(words))
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// framing is how a route sends audio with its words as JSON: kokoro's events on /invocations,
// Kokoro-FastAPI's objects on /dev/captioned_speech.
type framing interface {
	contentType(stream bool) string
	// piece is one line of a stream: the next encoded bytes, which carry the utterance's
	// samples [offset, offset+samples), and the words in them.
	piece(audio []byte, offset, samples int, words []api.Word, marks []api.SpeechMark) any
	// end is the stream's last line, nil for none.
	end(samples int, words []api.Word) (any, error)
	// whole is the answer of a complete (stream: false) request.
	whole(file []byte, samples int, words []api.Word) (any, error)
}

// invocationFraming is POST /invocations with "timestamps": newline-delimited JSON events,
// InvocationEvent, closed by a "done" event; a complete answer is an InvocationTimed.
//
// Newline-delimited JSON because a plain client reads it incrementally with what it has: a
// line reader (Python's iter_lines, a JavaScript stream split on "\n", `jq --stream`), where
// a length-prefixed binary framing needs a parser of its own and multipart a MIME library;
// base64 and JSON never hold a raw newline, so a line is an event whatever bytes SageMaker's
// response stream split it at. Server-sent events would add only their "data: " prefix here:
// EventSource, their one reader that needs no parsing, cannot POST.
type invocationFraming struct {
	format   string // the audio format's name
	captions string // "" or a caption format
}

func (invocationFraming) contentType(stream bool) string {
	if stream {
		return api.EventsContentType
	}
	return "application/json"
}

func (invocationFraming) piece(audio []byte, offset, samples int, words []api.Word, marks []api.SpeechMark) any {
	return api.InvocationEvent{Type: api.EventAudio, Audio: base64.StdEncoding.EncodeToString(audio),
		Offset: offset, Samples: samples, Words: words, Marks: marks}
}

func (f invocationFraming) end(samples int, words []api.Word) (any, error) {
	c, err := captionsOf(f.captions, words)
	n := len(words)
	return api.InvocationEvent{Type: api.EventDone, Samples: samples, WordsN: &n, Captions: c}, err
}

func (f invocationFraming) whole(file []byte, samples int, words []api.Word) (any, error) {
	c, err := captionsOf(f.captions, words)
	if words == nil {
		words = []api.Word{}
	}
	return api.InvocationTimed{Audio: base64.StdEncoding.EncodeToString(file), Format: f.format,
		Samples: samples, Words: words, Captions: c}, err
}

// captionedFraming is Kokoro-FastAPI's /dev/captioned_speech: one CaptionedSpeechResponse per
// piece of audio, one JSON object a line, and no closing line; a complete answer is one.
type captionedFraming struct {
	mediaType  string // the audio's Content-Type, as audio_format
	timestamps bool   // return_timestamps
}

func (captionedFraming) contentType(bool) string { return "application/json" }

func (f captionedFraming) piece(audio []byte, _, _ int, words []api.Word, _ []api.SpeechMark) any {
	return api.CaptionedSpeechResponse{Audio: base64.StdEncoding.EncodeToString(audio), AudioFormat: f.mediaType, Timestamps: f.stamps(words)}
}

func (captionedFraming) end(int, []api.Word) (any, error) { return nil, nil }

func (f captionedFraming) whole(file []byte, _ int, words []api.Word) (any, error) {
	return f.piece(file, 0, 0, words, nil), nil
}

// stamps are words in Kokoro-FastAPI's form, seconds from the start of the audio.
func (f captionedFraming) stamps(words []api.Word) []api.WordTimestamp {
	out := []api.WordTimestamp{}
	if !f.timestamps {
		return out
	}
	for _, w := range words {
		out = append(out, api.WordTimestamp{Word: w.Word, StartTime: w.StartMS / 1000, EndTime: w.EndMS / 1000})
	}
	return out
}

// checkCaptions refuses a caption format there is no writer for.
func checkCaptions(format string) (string, error) {
	f := strings.ToLower(strings.TrimSpace(format))
	switch f {
	case "", captions.FormatSRT, captions.FormatWebVTT:
		return f, nil
	case "webvtt":
		return captions.FormatWebVTT, nil
	}
	return "", fmt.Errorf("%w: %s; supported: %s", errBadCaptions, clip(format), strings.Join(captions.Formats, ", "))
}

package server

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// checkSpeechMarks refuses a speech mark type Polly does not have.
func checkSpeechMarks(types []string) error {
	for _, t := range types {
		if !slices.Contains(tts.MarkTypes, t) {
			return fmt.Errorf("%w: %s; supported: %v", errBadSpeechMarks, clip(t), tts.MarkTypes)
		}
	}
	return nil
}

// checkPlain checks a plain text that asks for speech marks or lexicons, or that norm
// rewrites, spoken as how resolved, and speaks it as one document of markup, read with lxs and
// norm, so that its marks are placed.
func checkPlain(eng Engine, how tts.Resolved, text string, lxs []*markup.Lexicon, norm markup.Normalization) (tts.Resolved, error) {
	r, err := eng.CheckText(how, text)
	if err != nil {
		return r, err
	}
	doc := markup.PlainDoc(text)
	doc.ApplyLexicons(lxs)
	doc.Normalize(norm)
	r.Markup = doc.Segments()
	return tts.CheckMarkup(eng, r)
}

// appendMarks appends the marks of a chunk that starts at sample at of the utterance, of the
// types asked for, in Polly's form; msOf turns a sample of the utterance into milliseconds.
func appendMarks(to []api.SpeechMark, ms []tts.Mark, types []string, at int, msOf func(int) float64) []api.SpeechMark {
	for _, m := range ms {
		if !slices.Contains(types, m.Type) {
			continue
		}
		sm := api.SpeechMark{Time: int(math.Round(msOf(at + m.At))), Type: m.Type, Value: m.Value}
		if m.Type != tts.MarkViseme {
			start, end := m.Start, m.End
			sm.Start, sm.End = &start, &end
		}
		to = append(to, sm)
	}
	return to
}

// take hands out the marks placed since the last take.
func (k *wordClock) take() []api.SpeechMark {
	ms := k.marks[k.taken:]
	k.taken = len(k.marks)
	return ms
}

// marksWithin are the marks of a chunk (ms) that one frame of it carries: those whose time
// lies in the frame's samples [from, to) of the utterance; the chunk's first frame takes those
// before it too and its last those after it, so every mark rides on exactly one frame. msOf
// turns a sample of the utterance into milliseconds.
func marksWithin(ms []api.SpeechMark, from, to int, first, last bool, msOf func(int) float64) []api.SpeechMark {
	var out []api.SpeechMark
	lo, hi := msOf(from), msOf(to)
	for _, m := range ms {
		t := float64(m.Time)
		if (t >= lo || first) && (t < hi || last) {
			out = append(out, m)
		}
	}
	return out
}

// marksFraming is POST /invocations with speech_marks and no timestamps: the marks alone, one
// JSON object a line, as Polly's json output format answers them; no audio.
type marksFraming struct{}

// lines is several JSON values, sent one a line.
type lines []api.SpeechMark

func (marksFraming) contentType(bool) string { return api.EventsContentType }

func (marksFraming) piece(_ []byte, _, _ int, _ []api.Word, marks []api.SpeechMark) any {
	return lines(marks)
}

func (marksFraming) end(int, []api.Word) (any, error) { return nil, nil }

func (marksFraming) whole([]byte, int, []api.Word) (any, error) { return lines(nil), nil }

// jsonLines is v as a line of JSON; lines as one line each, nothing for none.
func jsonLines(v any) ([]byte, error) {
	ls, ok := v.(lines)
	if !ok {
		b, err := json.Marshal(v)
		return append(b, '\n'), err
	}
	var out []byte
	for _, l := range ls {
		b, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		out = append(append(out, b...), '\n')
	}
	return out, nil
}

package tts

import (
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Word is one spoken word of a Chunk: its text as the request wrote it ("$5" for "five
// dollars") and where its speech lies in the chunk's PCM, samples [Start, End). Start is the
// first sample of its first sound and End follows its last sound: the pause after a word, and
// the punctuation that asks for it, are not the word.
//
// The times come from the model's own durations (Aligner): each id lasts a whole number of
// frames, and the chunk's cuts (context, trimmed and padded silence) move them sample for
// sample. The sound of a word begins SoundLead before its first id's frames. A synthesizer
// that cannot say where its ids lie gets times spread over the chunk's audible speech in
// proportion to its ids.
type Word struct {
	Text       string
	Start, End int
}

// SoundLead is how much earlier than its first phoneme's duration frames the model's sound of
// a word begins: its decoder starts the onset of a sound in the frames before it. At the first
// word of a chunk, where silence precedes it, the audio rose above audio.SilenceFloorDB a
// median 38 ms before the first phoneme's frames (16 chunks: 8 sentences of
// testdata/listen/sentences.txt spoken whole by af_heart and am_michael; TestRealSoundLead
// measures it). A word's start is moved this much earlier, never before the end of the word
// before it.
const SoundLead = 38 * time.Millisecond

// idBounds are the samples of a chunk's PCM at which each of its own ids starts, and after
// them the end of the last: len(ids)+1 ascending values. nil when unknown.
type idBounds []int

// boundsFromSpans turns a model run's samples per padded id (a pad, before context ids, the
// chunk's n own ids, after context ids, a pad) into the bounds of the own ids in the PCM that
// starts at sample from of the run's.
func boundsFromSpans(spans []int, before, n, from int) idBounds {
	if len(spans) < before+n+2 {
		return nil
	}
	b := make(idBounds, n+1)
	at := 0
	for i, s := range spans[:1+before+n] {
		if i >= 1+before {
			b[i-1-before] = at - from
		}
		at += s
	}
	b[n] = at - from
	return b
}

// spreadBounds estimates the bounds of n ids in pcm, for a synthesizer that does not align:
// the ids share its audible span evenly.
func spreadBounds(pcm []float32, n int) idBounds {
	span, ok := audio.AudibleSpan(pcm, api.SampleRate)
	if !ok {
		span = audio.Span{End: len(pcm)}
	}
	b := make(idBounds, n+1)
	for k := range b {
		b[k] = span.Start + k*span.Len()/max(n, 1)
	}
	return b
}

// placeWords places chunk c's words in the PCM it was reframed into: bounds are its ids' in the
// PCM before the reframe, from is where the reframe started (audio.Reframe), n the reframed
// length; each word's sound starts lead samples before its first id. A word with no id of
// speech (only punctuation) is not spoken and not listed.
func placeWords(c chunk.Chunk, bounds idBounds, from, n int, lead int) []Word {
	if len(bounds) != len(c.IDs)+1 {
		return nil
	}
	prevEnd := 0
	words := chunkWords(c)
	out := make([]Word, 0, len(words))
	for _, w := range words {
		first, last := -1, -1
		for k := w.Start; k < w.End; k++ {
			if !phonemize.Silent(c.IDs[k]) {
				if first < 0 {
					first = k
				}
				last = k
			}
		}
		if first < 0 {
			continue
		}
		start := min(max(bounds[first]-from-lead, prevEnd), n)
		end := min(max(bounds[last+1]-from, start), n)
		out = append(out, Word{Text: w.Text, Start: start, End: end})
		prevEnd = end
	}
	return out
}

// chunkWords are c's words; a chunk made without them (by a phonemizer that does not group
// words) is read as its text's white-space separated words, sharing its ids evenly.
func chunkWords(c chunk.Chunk) []chunk.Word {
	if len(c.Words) > 0 || len(c.IDs) == 0 {
		return c.Words
	}
	fields := strings.Fields(c.Text)
	if len(fields) == 0 {
		fields = []string{c.Text}
	}
	words := make([]chunk.Word, len(fields))
	n := len(c.IDs)
	for i, f := range fields {
		words[i] = chunk.Word{Text: f, Start: i * n / len(fields), End: (i + 1) * n / len(fields)}
	}
	return words
}

// firstWord is the text of the first word chunk c speaks, "" when it has none.
func firstWord(c chunk.Chunk) string {
	if w := chunkWords(c); len(w) > 0 {
		return w[0].Text
	}
	return ""
}

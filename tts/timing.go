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
// dollars") and where its speech lies in the chunk's PCM, samples [Start, End). End follows its
// last sound: the pause after a word, and the punctuation that asks for it, are not the word.
// Start is where its sound begins: after silence (at the chunk's start, or after punctuation)
// its first sound's; in running speech, where only a space parts it from the word before, the
// end of that word, for the model speaks the space as the joint into the next word. So words
// in running speech abut, and words never overlap.
//
// The times come from the model's own durations (Aligner): each id lasts a whole number of
// frames, and the chunk's cuts (context, trimmed and padded silence) move them sample for
// sample. The model's sound of every id runs SoundLead ahead of its frames, so every start
// and end is that much earlier than its id's frames. A synthesizer that cannot say where its
// ids lie gets times spread over the chunk's audible speech in proportion to its ids.
type Word struct {
	Text       string
	Start, End int
	// Sounds are the word's phonemes, each where its sound starts, in the same samples as
	// Start, from the model's own durations; nil where the synthesizer does not align.
	Sounds []Sound
}

// Sound is one phoneme of a word and the sample its sound starts at.
type Sound struct {
	Phoneme rune
	Start   int
}

// shifted is w with its samples moved by -by and kept in [0, n].
func (w Word) shifted(by, n int) Word {
	at := func(s int) int { return min(max(s-by, 0), n) }
	out := Word{Text: w.Text, Start: at(w.Start), End: at(w.End)}
	for _, s := range w.Sounds {
		out.Sounds = append(out.Sounds, Sound{Phoneme: s.Phoneme, Start: at(s.Start)})
	}
	return out
}

// SoundLead is how far the model's sound runs ahead of its duration frames: its decoder
// starts each sound in the frames before the sound's own. Where silence precedes a word, the
// audio rises above audio.SilenceFloorDB that long before its first phoneme's frames
// (TestRealSoundLead measures it); every word's start and end is placed that much earlier
// than its ids' frames.
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
// length; every id's sound lies lead samples before its bounds. A word starts at its first
// sound, or, when only spaces part it from the word before, where that word's last sound
// ends; it ends where its last sound ends. The words are in order, never overlap and lie in
// [0, n]. A word with no id of speech (only punctuation) is not spoken and not listed.
func placeWords(c chunk.Chunk, bounds idBounds, from, n int, lead int) []Word {
	if len(bounds) != len(c.IDs)+1 {
		return nil
	}
	at := func(k int) int { return min(max(bounds[k]-from-lead, 0), n) }
	prevEnd, prevLast := 0, -1 // prevLast: the last sound of the word before, -1 for none
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
		begin := first
		if prevLast >= 0 && onlySpaces(c.IDs[prevLast+1:first]) {
			begin = prevLast + 1
		}
		start := max(at(begin), prevEnd)
		end := max(at(last+1), start)
		word := Word{Text: w.Text, Start: start, End: end}
		for k := first; k <= last; k++ {
			if r, ok := phonemize.Symbol(c.IDs[k]); ok && !phonemize.Silent(c.IDs[k]) {
				word.Sounds = append(word.Sounds, Sound{Phoneme: r, Start: min(max(at(k), start), end)})
			}
		}
		out = append(out, word)
		prevEnd, prevLast = end, last
	}
	return out
}

// onlySpaces reports whether ids are all spaces between words: no punctuation, so no pause.
func onlySpaces(ids []int64) bool {
	for _, id := range ids {
		if id != phonemize.SpaceID {
			return false
		}
	}
	return true
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

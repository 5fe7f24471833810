package chunk

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// Options is how Chunks cuts one text: a Policy as it applies to one request (Policy.For
// resolves it), with the request's language and the pace of its later chunks. Read here,
// MaxChunkIDs bounds every chunk (0 = model.MaxIDs), Ramp bounds each later chunk to Ramp
// times the ids before it with 0 meaning no bound but MaxChunkIDs (For turns a policy's 0,
// paced, into Pace or DefaultRamp), FirstChunkAt's auto reads as punctuation, and
// ChunkContext is not read: Context says whether this text's cuts carry context.
type Options struct {
	Policy
	Lang string // a code of phonemize.LangCodes; "" = en-us
	// Switches turn off rewrites the reader makes before reading (phonemize.Switches), for a
	// Reader that takes them (Switchable).
	Switches phonemize.Switches
	// FirstChunkWholeSentence ends the first chunk at the end of the first sentence, as the
	// chunks after it end, instead of at its first phrase (FirstChunkMinIDs and
	// FirstChunkMaxIDs are then not used; only a sentence longer than MaxChunkIDs is cut).
	FirstChunkWholeSentence bool
	// Pace, when above 0, bounds each later chunk instead of Ramp, by what the model makes
	// while the audio before it plays. The unit is the model's time per id: a chunk of n ids
	// plays for Pace×n units and costs the model n+PaceOverhead units to make. Each later
	// chunk is cut to fit in the audio still to play when the chunk before it is made; when
	// no chunk of FirstChunkMinIDs would fit, the listener waits whatever the cut, and the
	// chunk may be as long as MaxChunkIDs.
	Pace         float64
	PaceOverhead int
	// PaceWhole, when above 0, lets a later chunk take the rest of its sentence whole when
	// that costs at most PaceWhole times the audio ahead (in Pace's units): Pace carries a
	// margin against a slow chunk, and a cut would cost more than the margin buys. It also
	// keeps a chunk cut between two words in the second half of its budget.
	PaceWhole float64
	// Context, when set, gives each chunk that a sentence is cut into between two words (a
	// BreakWord join) the word after the cut as Chunk.After and the next chunk the word
	// before it as Chunk.Before: a synthesizer that can say where each id's audio lies runs a
	// chunk with its neighbours' words and keeps only its own, so neither side of the cut is
	// spoken as an utterance's end or start.
	Context bool
}

// The first chunk ends at the first punctuation (comma or stronger) after at least
// DefaultFirstChunkMinIDs ids: the first phrase of the text, so that the first audio leaves as
// soon as one phrase is synthesized. A first phrase longer than DefaultFirstChunkMaxIDs (a
// second or two of speech) is cut between words. A first chunk cut where the text has no
// punctuation (FirstAtPhrase, FirstAtWord) is heard worse (docs/performance.md).
const (
	DefaultFirstChunkMaxIDs = 80
	DefaultFirstChunkMinIDs = 12
	// DefaultEarlyFirstChunkMaxIDs is the first chunk's budget when it may end without
	// punctuation (FirstAtPhrase, FirstAtWord): a few words, which the model makes in about
	// half the time of a whole short sentence.
	DefaultEarlyFirstChunkMaxIDs = 30
)

// FirstAt is the weakest boundary the first chunk may end on: how early the first audio may
// leave, against how much of the sentence's prosody the cut costs.
type FirstAt int

// First-chunk boundaries, latest and safest first.
const (
	// FirstAtPunctuation ends the first chunk at the first comma or stronger after
	// FirstChunkMinIDs ids.
	FirstAtPunctuation FirstAt = iota
	// FirstAtPhrase also ends it before a word that opens a phrase ("and", "at", "which"),
	// within two thirds of FirstChunkMaxIDs; else at a comma within FirstChunkMaxIDs.
	FirstAtPhrase
	// FirstAtWord, failing both, also ends it between two words that do not split a phrase
	// ("Your order | shipped"), within two thirds of FirstChunkMaxIDs.
	FirstAtWord
	// FirstAtAuto leaves the choice to the caller, which knows the load (tts's engine: word
	// while it is idle and cuts are heard with context, punctuation otherwise); Chunks reads
	// it as FirstAtPunctuation.
	FirstAtAuto
)

// ParseFirstAt reads punctuation, phrase or word.
func ParseFirstAt(s string) (FirstAt, error) {
	for f := FirstAtPunctuation; f <= FirstAtAuto; f++ {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("first chunk boundary %q: want punctuation, phrase, word or auto", s)
}

func (f FirstAt) String() string {
	switch f {
	case FirstAtPunctuation:
		return "punctuation"
	case FirstAtPhrase:
		return "phrase"
	case FirstAtWord:
		return "word"
	case FirstAtAuto:
		return "auto"
	}
	return fmt.Sprintf("FirstAt(%d)", int(f))
}

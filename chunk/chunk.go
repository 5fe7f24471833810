package chunk

import (
	"fmt"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// Chunk is one model call's worth of text.
type Chunk struct {
	Text     string  // the source text this chunk speaks
	Phonemes string  // phonemes, as Phonemize would print them
	IDs      []int64 // vocabulary ids WITHOUT the two pads; 1 <= len <= model.MaxIDs
	Break    Break   // how the text goes on after this chunk: the pause its join calls for
	// SentenceIDs is how many ids the sentences this chunk speaks (whole or in part) have
	// together, at most model.MaxIDs: len(IDs) for a chunk of whole sentences, more for a part of one.
	SentenceIDs int
	// Before and After (Options.Context) are the ids of the word before and after the chunk
	// when a cut between two words bounds it, with the space between: Before ends and After
	// starts with phonemize.SpaceID. The model hears Before+IDs+After; the listener hears IDs.
	Before, After []int64
	// Words are the chunk's words as written, each with the ids of IDs that speak it.
	Words []Word
}

// maxContextIDs bounds one side's context: a longer word is not worth the model's time.
const maxContextIDs = 16

// Break is the boundary a chunk ends on, weakest first. The model ends every chunk as if the
// utterance ended there, so whoever joins chunks needs to know what pause the text asks for.
type Break int

// Boundaries a chunk can end on.
const (
	BreakWord      Break = iota // between two words of a clause: the chunk was full
	BreakComma                  // , —
	BreakClause                 // : ;
	BreakSentence               // . ! ? …
	BreakParagraph              // a blank line: a paragraph always ends a chunk
	BreakEnd                    // the end of the text
)

func (b Break) String() string {
	switch b {
	case BreakWord:
		return "word"
	case BreakComma:
		return "comma"
	case BreakClause:
		return "clause"
	case BreakSentence:
		return "sentence"
	case BreakParagraph:
		return "paragraph"
	case BreakEnd:
		return "end"
	}
	return fmt.Sprintf("Break(%d)", int(b))
}

// Reader reads text into the pieces Chunks cuts: *phonemize.Phonemizer.
type Reader interface {
	Pieces(text, lang string) ([]phonemize.Piece, error)
}

// Switchable is a Reader that can read with some rewrites turned off: *phonemize.Phonemizer.
type Switchable interface {
	With(phonemize.Switches) *phonemize.Phonemizer
}

// Chunks reads text with r and cuts it into model-sized chunks: whole sentences packed up to
// MaxChunkIDs, a sentence too long split at : ; then , — then between words; the first chunk is the
// text's first phrase (see FirstChunkMinIDs and FirstChunkMaxIDs), or its first sentence with
// FirstChunkWholeSentence. A paragraph (text between blank lines) always ends a chunk, so that
// its longer pause can be put back at the join.
func Chunks(r Reader, text string, opt Options) ([]Chunk, error) {
	if s, ok := r.(Switchable); ok && opt.Switches != (phonemize.Switches{}) {
		r = s.With(opt.Switches)
	}
	k, err := newCutter(r, text, opt)
	if err != nil {
		return nil, err
	}
	chunks, _ := k.plan()
	if len(chunks) == 0 {
		return nil, fmt.Errorf("chunks: nothing speakable in the text: %w", phonemize.ErrEmptyText)
	}
	return chunks, nil
}

// Chunker cuts the text its Reader reads into chunks.
type Chunker struct{ Reader Reader }

// Chunks is Chunks(c.Reader, text, opt).
func (c Chunker) Chunks(text string, opt Options) ([]Chunk, error) {
	return Chunks(c.Reader, text, opt)
}

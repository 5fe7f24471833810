package chunk

import (
	"slices"
	"strings"
	"unicode"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// Word is one word of a chunk as the text wrote it, and the ids of Chunk.IDs that speak it.
// The text is the source's, so a word the phonemizer expands keeps its written form: "$5.50,"
// is one word spoken as "five dollars and fifty cents". Punctuation written against a word
// belongs to it ("think?", "(parens)"); the ids of a word include that punctuation and the space
// after it, which the model hears as pauses, not as speech (phonemize.Silent).
type Word struct {
	Text       string
	Start, End int // ids [Start, End) of Chunk.IDs
}

// chunkWords groups the pieces of one chunk into words, with the ids each covers in the chunk's
// IDs (n of them: the pieces' phonemes joined and trimmed, as makeChunk tokenizes them).
//
// A word runs from a piece that follows white space or punctuation to the next piece that
// white space or punctuation follows (pieces written together, "$" "5.50" or "do" "n't", make
// one word). A piece with no letter or digit (a comma, a dash, a closing quote) joins the word
// it is written against (unless it is read out, "❤"): the one still open, else the next one when nothing separates them
// (an opening quote), else the one before. Pieces with no text at all join the word they are
// part of (piece.Of): the next piece that has text, for a phrase whose text its last word
// carries, or the one before, for a word too long for one chunk. A word or phrase a chunk cut
// divides is a word of both chunks, with its whole text in each.
func chunkWords(ps []piece, n int) []Word {
	var joined strings.Builder
	for _, p := range ps {
		joined.WriteString(p.Phonemes)
	}
	// makeChunk trims the joined phonemes; a leading space is an id the chunk does not have.
	lead := 0
	for _, r := range joined.String() {
		if r != ' ' && unicode.IsSpace(r) {
			continue
		}
		if r != ' ' {
			break
		}
		lead++
	}
	clip := func(i int) int { return min(max(i-lead, 0), n) }

	var words []Word
	var text strings.Builder
	open := false    // words[len(words)-1] still takes pieces
	pending := false // it holds only pieces with no text of their own so far
	at := 0          // ids of the pieces so far, untrimmed
	for _, p := range ps {
		from, to := clip(at), clip(at+p.IDs)
		at += p.IDs
		switch {
		case p.Text == "" && p.Cont && len(words) > 0:
			// The rest of a word too long for a chunk.
			words[len(words)-1].End = to
			continue
		case p.Text == "" && p.Cont:
			words = append(words, Word{Text: p.Of, Start: from, End: to})
			open, pending = false, false
			continue
		case p.Text == "":
			// A reading with no text of its own: a reader that cannot pair its words with
			// the text's (Japanese, or espeak-ng's words where they differ in number) puts a
			// phrase's text on its last word, so the words before it join that one. Where
			// the chunk ends first, the part here is named by the phrase's text too.
			if !pending {
				words = append(words, Word{Text: p.Of, Start: from})
				text.Reset()
				pending = true
			}
			words[len(words)-1].End = to
			open = false
			continue
		case pending:
			words[len(words)-1].End = to
			pending = false
		case open:
			words[len(words)-1].End = to
		case !hasWordRune(p.Text) && !spoken(p.Phonemes) && p.Cut != cutNone && len(words) > 0:
			// Punctuation after a finished word, spaced apart from the next one.
			w := &words[len(words)-1]
			w.Text += strings.TrimSpace(p.Text)
			w.End = to
			continue
		default:
			words = append(words, Word{Start: from, End: to})
			text.Reset()
			open = true
		}
		text.WriteString(p.Text)
		words[len(words)-1].Text = strings.TrimSpace(text.String())
		if p.Cut != cutNone {
			open = false
		}
	}
	return words
}

// spoken reports whether phonemes ps have a sound of speech: a symbol read out ("❤", "red
// heart") is a word, where punctuation is a pause.
func spoken(ps string) bool {
	return slices.ContainsFunc(phonemize.Tokenize(ps), func(id int64) bool { return !phonemize.Silent(id) })
}

// hasWordRune reports whether s has a letter or a digit: a word, not only punctuation.
func hasWordRune(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

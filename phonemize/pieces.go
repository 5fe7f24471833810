package phonemize

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Boundary is how strongly the text is divided after a piece, weakest first: where a chunker
// may cut it, and what pause the cut calls for.
type Boundary int

// Boundary strengths, weakest first.
const (
	BoundaryNone      Boundary = cutNone     // inside a written-together word: no cut
	BoundaryInside    Boundary = cutInside   // between two words, after one that leans on the next ("the | order")
	BoundaryWord      Boundary = cutWord     // between two words
	BoundaryPhrase    Boundary = cutPhrase   // between two words, before one that opens a phrase ("| and", "| at")
	BoundaryComma     Boundary = cutComma    // , —
	BoundaryClause    Boundary = cutClause   // : ;
	BoundarySentence  Boundary = cutSentence // . ! ? … (and each language's sentence marks)
	BoundaryParagraph Boundary = cutPara     // a blank line
)

// Boundary strengths as the reading code computes them.
const (
	cutNone     = -1 // inside a written-together word
	cutInside   = 0  // between two words, after one that leans on the next (see leansOn)
	cutWord     = 1  // between two words
	cutPhrase   = 2  // between two words, before one that opens a phrase (see opensPhrase)
	cutComma    = 3  // , —
	cutClause   = 4  // : ;
	cutSentence = 5  // . ! ? …
	cutPara     = 6  // a blank line: always cut
)

// Piece is one word of the text as read (or a part of one: "do" "n't"), with its phonemes and
// the boundary after it.
type Piece struct {
	Text     string   // source text with its trailing whitespace; "" for a reading with no text of its own
	Phonemes string   // phonemes with trailing whitespace
	IDs      int      // vocabulary ids of Phonemes (Tokenize)
	Cut      Boundary // strength of the boundary after this piece
	// A piece with no text of its own is part of a word or phrase whose text another piece
	// carries: Of is that text, the word before's when Cont (a part of a word too long for a
	// chunk), else the next piece's that has text (a reader that puts a phrase's text on its
	// last word).
	Of   string
	Cont bool
}

// paragraphBreak is a blank line (spaces allowed on it) between two paragraphs.
var paragraphBreak = regexp.MustCompile(`\r?\n[ \t\r]*\n`)

// Pieces reads text in lang (a code of LangCodes; "" = en-us) into its words with their
// phonemes and the boundary strength after each. The English boundaries between words come
// from the words' tags (PhraseCues); the last piece of each paragraph (text between blank
// lines) ends on BoundaryParagraph. A blank text is ErrEmptyText.
func (p *Phonemizer) Pieces(text, lang string) ([]Piece, error) {
	g, err := p.readerFor(lang)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyText
	}
	var pieces []Piece
	for _, para := range paragraphBreak.Split(text, -1) {
		_, toks, err := g.read(para)
		if err != nil {
			return nil, err
		}
		prev := &word{} // the word before t
		for _, t := range toks {
			ps := t.ps + t.ws
			if n := len(pieces); n > 0 {
				pieces[n-1].Cut = Boundary(cutBefore(int(pieces[n-1].Cut), prev, t))
			}
			prev = t
			cut := cutStrength(t)
			if cut == cutWord && leansOn(t) {
				cut = cutInside
			}
			text := t.text
			if text != "" {
				text += t.ws // a word with no text of its own (another script's reading) adds no space
			}
			pieces = append(pieces, Piece{Text: text, Phonemes: ps, IDs: len(Tokenize(ps)), Cut: Boundary(cut)})
		}
		if len(pieces) > 0 {
			pieces[len(pieces)-1].Cut = BoundaryParagraph
		}
	}
	next := ""
	for i := len(pieces) - 1; i >= 0; i-- {
		if pieces[i].Text != "" {
			next = strings.TrimSpace(pieces[i].Text)
		} else {
			pieces[i].Of = next
		}
	}
	return pieces, nil
}

// PhraseCues reports whether Pieces tells phrase boundaries from other ones between words in
// lang: the cues (a word that opens a phrase, one that leans on the next) are English tags.
func PhraseCues(lang string) bool { return isEnglish(lang) }

// leansOn reports whether a word tagged tag belongs with the word after it: a determiner, a
// possessive, an adjective, a number, a preposition, a conjunction, "to" or a modal ("the |
// order", "your | card", "at | noon", "can | book"). A cut after it splits a phrase.
func leansOn(t *word) bool {
	switch t.tag {
	case "DT", "PDT", "PRP$", "WP$", "JJ", "JJR", "JJS", "CD", "IN", "TO", "CC", "MD", "POS", "EX", "WDT", "WP", "WRB":
		return true
	}
	return false
}

// opensPhrase reports whether a word tagged tag begins a phrase of its own inside a clause: a
// conjunction ("and", "because"), a preposition ("at", "between"), "to", or a wh-word
// ("which", "when"). Cut before such a word, each side is still a phrase a speaker might pause
// between; cut elsewhere, the cut falls inside one. "of" binds to the noun before it ("the end
// of the day") and does not count.
func opensPhrase(t *word) bool {
	switch t.tag {
	case "CC", "TO", "WDT", "WP", "WP$", "WRB", "IN":
		return !strings.EqualFold(t.text, "of")
	}
	return false
}

// cutBefore is the strength of a cut between words prev and t, cut as prev alone makes it:
// stronger before a word that opens a phrase, after a word that ends one (a noun, a verb, an
// adverb, or a demonstrative standing alone: "book that | for you"); weaker between two nouns
// of one compound ("the front | desk").
func cutBefore(cut int, prev, t *word) int {
	switch {
	case opensPhrase(t) && (cut == cutWord || cut == cutInside && prev.tag == "DT" && demonstrative(prev.text)):
		return cutPhrase
	case cut == cutWord && strings.HasPrefix(t.tag, "NN") && strings.HasPrefix(prev.tag, "NN"):
		return cutInside
	}
	return cut
}

func demonstrative(w string) bool {
	switch strings.ToLower(w) {
	case "that", "this", "these", "those":
		return true
	}
	return false
}

func cutStrength(t *word) int {
	ps := strings.TrimRight(t.ps, " ")
	if t.ws == "" && !strings.ContainsAny(lastRuneStr(ps), nonQuotePuncts) {
		return cutNone
	}
	if c, ok := textCut(t); ok {
		return c
	}
	switch lastRuneStr(ps) {
	case ".", "!", "?", "…":
		return cutSentence
	case ":", ";":
		return cutClause
	case ",", "—":
		return cutComma
	}
	if t.ws == "" {
		return cutNone
	}
	return cutWord
}

// nonQuotePuncts are the reference's punctuation marks, quotes aside: the marks a word's
// phonemes may end with.
const nonQuotePuncts = ";:,.!?—…"

// lastRune is the last rune of s, 0 for "".
func lastRune(s string) rune {
	if s == "" {
		return 0
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func lastRuneStr(s string) string {
	if s == "" {
		return ""
	}
	return string(lastRune(s))
}

package phonemize

import (
	"fmt"
	"regexp"
	"strings"
)

// Options configures Chunks.
type Options struct {
	Lang             string // "en-us" | "en-gb"; "" = en-us
	FirstChunkMaxIDs int    // 0 = DefaultFirstChunkMaxIDs
	// FirstChunkMinIDs is the shortest first chunk that may end at punctuation: a comma after
	// one word is not yet a phrase worth its own pitch contour. 0 = DefaultFirstChunkMinIDs.
	FirstChunkMinIDs int
	MaxIDs           int // 0 = MaxIDs (510)
	// FirstChunkWholeSentence ends the first chunk at the end of the first sentence, as the
	// chunks after it end, instead of at its first phrase (FirstChunkMinIDs and
	// FirstChunkMaxIDs are then not used; only a sentence longer than MaxIDs is cut).
	FirstChunkWholeSentence bool
	// Ramp bounds each later chunk to Ramp times the ids before it (0 = no bound but MaxIDs),
	// so that each chunk is synthesized while the audio before it plays.
	Ramp float64
}

// The first chunk ends at the first punctuation (comma or stronger) after at least
// DefaultFirstChunkMinIDs ids: the first phrase of the text, so that the first audio leaves as
// soon as one phrase is synthesized. A first phrase longer than DefaultFirstChunkMaxIDs (a
// second or two of speech) is cut between words.
const (
	DefaultFirstChunkMaxIDs = 80
	DefaultFirstChunkMinIDs = 12
)

// Chunk is one model call's worth of text.
type Chunk struct {
	Text     string  // the source text this chunk speaks
	Phonemes string  // phonemes, as Phonemize would print them
	IDs      []int64 // vocabulary ids WITHOUT the two pads; 1 <= len <= MaxIDs
	Break    Break   // how the text goes on after this chunk: the pause its join calls for
	// SentenceIDs is how many ids the sentences this chunk speaks (whole or in part) have
	// together, at most MaxIDs: len(IDs) for a chunk of whole sentences, more for a part of one.
	SentenceIDs int
}

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

// Boundary strengths, strongest first.
const (
	cutNone     = -1 // inside a written-together word
	cutWord     = 0
	cutComma    = 1 // , —
	cutClause   = 2 // : ;
	cutSentence = 3 // . ! ? …
	cutPara     = 4 // a blank line: always cut
)

// paragraphBreak is a blank line (spaces allowed on it) between two paragraphs.
var paragraphBreak = regexp.MustCompile(`\r?\n[ \t\r]*\n`)

type piece struct {
	text string // source text with its trailing whitespace
	ps   string // phonemes with trailing whitespace
	ids  int
	cut  int // strength of a cut after this piece
}

// Chunks phonemizes text and splits it into model-sized chunks: whole sentences packed up to
// MaxIDs, a sentence too long split at : ; then , — then between words; the first chunk is the
// text's first phrase (see FirstChunkMinIDs and FirstChunkMaxIDs), or its first sentence with
// FirstChunkWholeSentence. A paragraph (text between blank lines) always ends a chunk, so that
// its longer pause can be put back at the join.
func (p *Phonemizer) Chunks(text string, opt Options) ([]Chunk, error) {
	g, err := p.dialect(opt.Lang)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("chunks: %w", ErrEmptyText)
	}
	maxIDs := opt.MaxIDs
	if maxIDs <= 0 || maxIDs > MaxIDs {
		maxIDs = MaxIDs
	}
	first := opt.FirstChunkMaxIDs
	if first <= 0 {
		first = DefaultFirstChunkMaxIDs
	}
	first = min(first, maxIDs)
	minFirst := opt.FirstChunkMinIDs
	if minFirst <= 0 {
		minFirst = DefaultFirstChunkMinIDs
	}
	var pieces []piece
	for _, para := range paragraphBreak.Split(text, -1) {
		_, toks := g.convert(para)
		for _, t := range toks {
			ps := t.ps + t.ws
			pieces = append(pieces, piece{text: t.text + t.ws, ps: ps, ids: len(Tokenize(ps)), cut: cutStrength(t)})
		}
		if len(pieces) > 0 {
			pieces[len(pieces)-1].cut = cutPara
		}
	}
	pieces = splitOversized(pieces, first) // pathological words only; first <= maxIDs
	var chunks []Chunk
	done := 0 // ids in the chunks so far
	for s := 0; s < len(pieces); {
		var e int
		if len(chunks) == 0 && opt.FirstChunkWholeSentence {
			e = firstCut(pieces, s, 0, maxIDs, cutSentence)
		} else if len(chunks) == 0 {
			e = firstCut(pieces, s, minFirst, first, cutComma)
		} else {
			limit := maxIDs
			if opt.Ramp > 0 {
				limit = min(maxIDs, max(first, int(opt.Ramp*float64(done))))
			}
			e = cutPoint(pieces, s, limit)
		}
		if c, ok := makeChunk(pieces[s:e]); ok {
			c.SentenceIDs = max(len(c.IDs), min(MaxIDs, sentenceIDs(pieces, s, e)))
			chunks = append(chunks, c)
			done += len(c.IDs)
		} else if n := len(chunks); n > 0 {
			// Unspeakable pieces (a stray mark) still carry the boundary they end on.
			chunks[n-1].Break = max(chunks[n-1].Break, c.Break)
		}
		s = e
	}
	if len(chunks) == 0 {
		return nil, fmt.Errorf("chunks: nothing speakable in the text: %w", ErrEmptyText)
	}
	chunks[len(chunks)-1].Break = BreakEnd
	return chunks, nil
}

// sentenceIDs is how many ids the whole sentences that pieces s to e-1 belong to have.
func sentenceIDs(ps []piece, s, e int) int {
	for s > 0 && ps[s-1].cut < cutSentence {
		s--
	}
	for e < len(ps) && ps[e-1].cut < cutSentence {
		e++
	}
	n := 0
	for _, p := range ps[s:e] {
		n += p.ids
	}
	return n
}

func cutStrength(t *token) int {
	ps := strings.TrimRight(t.ps, " ")
	if t.ws == "" && !strings.ContainsAny(lastRuneStr(ps), nonQuotePuncts) {
		return cutNone
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

func lastRuneStr(s string) string {
	if s == "" {
		return ""
	}
	return string(lastRune(s))
}

// cutPoint returns the end (exclusive) of the chunk that starts at s.
func cutPoint(ps []piece, s, limit int) int {
	total := 0
	fits := s // the last end that still fits
	for i := s; i < len(ps); i++ {
		if total+ps[i].ids > limit && i > s {
			break
		}
		total += ps[i].ids
		fits = i + 1
		if ps[i].cut == cutPara {
			return fits
		}
	}
	if fits == len(ps) {
		return fits
	}
	for level := cutPara; level >= cutWord; level-- {
		for e := fits; e > s; e-- {
			if ps[e-1].cut >= level {
				return e
			}
		}
	}
	return fits
}

// firstCut returns the end of the first chunk, which starts at s: the first boundary of at
// least minCut's strength (or the end of the text, or of its paragraph) that ends it with at
// least minIDs ids and at most limit; cutPoint's rule when there is none.
func firstCut(ps []piece, s, minIDs, limit, minCut int) int {
	total := 0
	for i := s; i < len(ps); i++ {
		if total+ps[i].ids > limit && i > s {
			break
		}
		total += ps[i].ids
		if i == len(ps)-1 || ps[i].cut == cutPara || (total >= minIDs && ps[i].cut >= minCut) {
			return i + 1
		}
	}
	return cutPoint(ps, s, limit)
}

// splitOversized breaks any single piece longer than limit ids into limit-sized parts, so
// that no chunk can exceed it.
func splitOversized(ps []piece, limit int) []piece {
	var out []piece
	for _, p := range ps {
		if p.ids <= limit {
			out = append(out, p)
			continue
		}
		var cur []rune
		n := 0
		text := p.text
		for _, r := range p.ps {
			if inVocab(r) {
				if n == limit {
					out = append(out, piece{text: text, ps: string(cur), ids: n, cut: cutWord})
					text, cur, n = "", nil, 0
				}
				n++
			}
			cur = append(cur, r)
		}
		out = append(out, piece{text: text, ps: string(cur), ids: n, cut: p.cut})
	}
	return out
}

func makeChunk(ps []piece) (Chunk, bool) {
	var text, phon strings.Builder
	for _, p := range ps {
		text.WriteString(p.text)
		phon.WriteString(p.ps)
	}
	c := Chunk{Text: strings.TrimSpace(text.String()), Phonemes: strings.TrimSpace(phon.String())}
	c.IDs = Tokenize(c.Phonemes)
	if len(ps) > 0 {
		c.Break = breakOf(ps[len(ps)-1].cut)
	}
	return c, len(c.IDs) > 0
}

func breakOf(cut int) Break {
	switch cut {
	case cutComma:
		return BreakComma
	case cutClause:
		return BreakClause
	case cutSentence:
		return BreakSentence
	case cutPara:
		return BreakParagraph
	}
	return BreakWord
}

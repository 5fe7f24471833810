package chunk

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// newCutter reads text into the pieces Chunks cuts, with opt's budgets resolved.
func newCutter(r Reader, text string, opt Options) (cutter, error) {
	pieces, err := r.Pieces(text, opt.Lang)
	if errors.Is(err, phonemize.ErrEmptyText) {
		return cutter{}, fmt.Errorf("chunks: %w", err)
	}
	if err != nil {
		return cutter{}, err
	}
	maxIDs := opt.MaxChunkIDs
	if maxIDs <= 0 || maxIDs > model.MaxIDs {
		maxIDs = model.MaxIDs
	}
	k := cutter{opt: opt, at: opt.FirstChunkAt, first: firstBudget(opt.FirstChunkMaxIDs, opt.FirstChunkAt, maxIDs),
		minFirst: opt.FirstChunkMinIDs, maxIDs: maxIDs}
	if k.minFirst <= 0 {
		k.minFirst = DefaultFirstChunkMinIDs
	}
	if !phonemize.PhraseCues(opt.Lang) {
		// The cues for an early cut (a word that opens a phrase, one that leans on the next)
		// are English tags; in another language the first chunk ends at its punctuation.
		k = k.punctuation()
	}
	if (k.at == FirstAtPhrase || k.at == FirstAtWord) && earliestCut(opt) > k.first {
		// The model is too slow here for any early cut within the budget to lead the rest:
		// the next chunk could not be made while it plays, and the listener would wait for it
		// instead. The first chunk is then the first phrase, as with punctuation.
		k = k.punctuation()
	}
	k.pieces = splitOversized(pieces, k.first) // pathological words only; first <= maxIDs
	return k, nil
}

// piece is one word of the text, or a part of one.
type piece = phonemize.Piece

// Boundary strengths, weakest first (phonemize.Boundary).
const (
	cutNone     = phonemize.BoundaryNone
	cutInside   = phonemize.BoundaryInside
	cutWord     = phonemize.BoundaryWord
	cutPhrase   = phonemize.BoundaryPhrase
	cutComma    = phonemize.BoundaryComma
	cutClause   = phonemize.BoundaryClause
	cutSentence = phonemize.BoundarySentence
	cutPara     = phonemize.BoundaryParagraph
)

// cutter cuts a text's pieces into chunks by Options.
type cutter struct {
	pieces                  []piece
	opt                     Options
	at                      FirstAt // the first chunk's weakest boundary
	first, minFirst, maxIDs int     // the first chunk's budget and minimum, every chunk's budget
}

// plan cuts the pieces into chunks. An early first chunk (FirstAtPhrase, FirstAtWord) that
// leaves a later one more to make than the audio ahead of it lasts, where the listener would
// wait, ends instead at the next boundary after which none waits, within its budget, else at
// the first phrase (FirstAtPunctuation). waits is chunks's count for the plan taken.
func (k cutter) plan() (chunks []Chunk, waits int) {
	chunks, firstEnd, waits := k.chunks(0)
	if waits == 0 || (k.at != FirstAtPhrase && k.at != FirstAtWord) || k.opt.FirstChunkWholeSentence {
		return chunks, waits
	}
	total := 0
	for i, p := range k.pieces {
		if total += p.IDs; total > k.first {
			break
		}
		if i+1 <= firstEnd || p.Cut < k.at.cut() {
			continue
		}
		if c, _, w := k.chunks(i + 1); w == 0 {
			return c, 0
		}
	}
	chunks, _, waits = k.punctuation().chunks(0)
	return chunks, waits
}

// punctuation is k with its first chunk ending at the first phrase (FirstAtPunctuation), with
// that rule's budget.
func (k cutter) punctuation() cutter {
	k.at, k.first = FirstAtPunctuation, firstBudget(k.opt.FirstChunkMaxIDs, FirstAtPunctuation, k.maxIDs)
	return k
}

// chunks cuts the pieces, the first chunk ending before piece firstEnd when that is above 0
// (else by firstCut's rule). It also returns where the first chunk ended and how many later
// chunks pacing could not fit in the audio ahead of them (pacedCut), each a wait for the
// listener.
func (k cutter) chunks(firstEnd int) (chunks []Chunk, end, waits int) {
	pieces, opt := k.pieces, k.opt
	done := 0          // ids in the chunks so far
	ahead := 0.0       // with Pace: the audio still to play when the last chunk is made, in units
	var before []int64 // with Context: the next chunk's Before
	for s := 0; s < len(pieces); {
		var e int
		switch {
		case s == 0 && firstEnd > 0:
			e = firstEnd
		case len(chunks) == 0 && opt.FirstChunkWholeSentence:
			e = firstCut(pieces, s, 0, 0, k.maxIDs, cutSentence, cutSentence)
		case len(chunks) == 0:
			e = firstCut(pieces, s, k.minFirst, earliestCut(opt), k.first, cutComma, k.at.cut())
		case opt.Pace > 0:
			var fits bool
			e, fits = pacedCut(pieces, s, ahead, len(before), k.minFirst, k.maxIDs, opt)
			if !fits {
				waits++
			}
		case opt.Ramp > 0:
			e = cutPoint(pieces, s, min(k.maxIDs, max(k.first, int(opt.Ramp*float64(done)))))
		default:
			e = cutPoint(pieces, s, k.maxIDs)
		}
		if s == 0 {
			end = e
		}
		if c, ok := makeChunk(pieces[s:e]); ok {
			c.SentenceIDs = max(len(c.IDs), min(model.MaxIDs, sentenceIDs(pieces, s, e)))
			c.Before, before = before, nil
			if opt.Context && c.Break == BreakWord && e < len(pieces) {
				c.After, before = wordsAcross(pieces, s, e, c.IDs)
			}
			// What the model hears stays within its input.
			if len(c.Before)+len(c.IDs)+len(c.After) > model.MaxIDs {
				c.After = nil
			}
			if len(c.Before)+len(c.IDs) > model.MaxIDs {
				c.Before = nil
			}
			cost := len(c.Before) + len(c.IDs) + len(c.After)
			if len(chunks) == 0 {
				ahead = opt.Pace * float64(len(c.IDs))
			} else {
				ahead = paced(ahead, cost, len(c.IDs), opt)
			}
			chunks = append(chunks, c)
			done += len(c.IDs)
		} else if n := len(chunks); n > 0 {
			// Unspeakable pieces (a stray mark) still carry the boundary they end on.
			chunks[n-1].Break = max(chunks[n-1].Break, c.Break)
			before = nil
		}
		s = e
	}
	if n := len(chunks); n > 0 {
		chunks[n-1].Break = BreakEnd
		chunks[n-1].After = nil
	}
	return chunks, end, waits
}

// firstBudget is the first chunk's id budget: set if above 0, else the default for at; at
// most maxIDs.
func firstBudget(set int, at FirstAt, maxIDs int) int {
	if set <= 0 {
		set = DefaultFirstChunkMaxIDs
		if at == FirstAtPhrase || at == FirstAtWord {
			set = DefaultEarlyFirstChunkMaxIDs
		}
	}
	return min(set, maxIDs)
}

// wordsAcross is the word across a cut between two words (Options.Context) at piece e, for the
// chunk of pieces s to e-1 with ids: after is a space and the word after the cut, for that
// chunk; before is the chunk's last word and a space, for the next. Both are nil when the word
// would not fit in maxContextIDs or the ids do not meet at a space (text the tokenizer joins
// across the cut).
func wordsAcross(ps []piece, s, e int, ids []int64) (after, before []int64) {
	tokens := func(from, to int) []int64 {
		var b strings.Builder
		for _, p := range ps[from:to] {
			b.WriteString(p.Phonemes)
		}
		return phonemize.Tokenize(strings.TrimSpace(b.String()))
	}
	// A word runs to the next piece a word may end on.
	end := e + 1
	for end < len(ps) && ps[end-1].Cut == cutNone {
		end++
	}
	start := e - 1
	for start > s && ps[start-1].Cut == cutNone {
		start--
	}
	full := tokens(s, end)
	if len(full) <= len(ids) || full[len(ids)] != phonemize.SpaceID || !slices.Equal(full[:len(ids)], ids) ||
		len(full)-len(ids) > maxContextIDs+1 {
		return nil, nil
	}
	after = full[len(ids):]
	last := tokens(start, e)
	if len(last) == 0 || len(last) > maxContextIDs || !slices.Equal(tokens(start, end), slices.Concat(last, after)) {
		return after, nil
	}
	return after, append(last, phonemize.SpaceID)
}

// pacedCut returns the end of a later chunk starting at s, made while ahead units of audio
// still play, with before ids of context before it (Options.Pace). The rest of the sentence is
// taken whole when it fits in PaceWhole×ahead: every cut costs the model a chunk's overhead
// and the listener a join. Otherwise the chunk is cut within pacedLimit, counting the context
// (the word before, and about as many ids after should it end between two words too); with
// PaceWhole set, a cut between two words is taken only in the second half of the limit. fits
// is pacedLimit's.
func pacedCut(ps []piece, s int, ahead float64, before, minIDs, maxIDs int, opt Options) (end int, fits bool) {
	if opt.PaceWhole > 0 {
		rest := 0
		for i := s; i < len(ps); i++ {
			rest += ps[i].IDs
			if ps[i].Cut >= cutSentence || i == len(ps)-1 {
				if rest <= maxIDs && float64(rest+before+opt.PaceOverhead) <= opt.PaceWhole*ahead {
					return i + 1, true
				}
				break
			}
		}
	}
	limit, fits := pacedLimit(ahead-float64(2*before), minIDs, maxIDs, opt)
	if opt.PaceWhole <= 0 {
		return cutPoint(ps, s, limit), fits
	}
	return cutPointFrom(ps, s, limit, limit/2), fits
}

// cutPointFrom returns the end of the chunk that starts at s: the whole text or its paragraph
// if it fits in limit ids, else the strongest cut within limit, where a cut between two words
// counts first only once the chunk has floor ids, then anywhere; the last end that fits when
// there is no cut at all.
func cutPointFrom(ps []piece, s, limit, floor int) int {
	total := 0
	var ends, totals []int // the ends that fit, and the ids before each
	for i := s; i < len(ps); i++ {
		if total+ps[i].IDs > limit && i > s {
			break
		}
		total += ps[i].IDs
		ends, totals = append(ends, i+1), append(totals, total)
		if ps[i].Cut == cutPara || i == len(ps)-1 {
			return i + 1
		}
	}
	for _, fl := range []int{floor, 0} {
		for level := cutPara; level >= cutInside; level-- {
			for k := len(ends) - 1; k >= 0; k-- {
				if ps[ends[k]-1].Cut >= level && (level > cutPhrase || totals[k] >= fl) {
					return ends[k]
				}
			}
		}
	}
	return ends[len(ends)-1]
}

// pacedLimit is the most ids the next chunk may have to be made while ahead units of audio
// still play (Options.Pace). When that is shorter than minIDs the listener will wait whatever
// the cut, and fewer chunks cost the model less: the chunk may then be as long as maxIDs, and
// fits is false.
func pacedLimit(ahead float64, minIDs, maxIDs int, opt Options) (limit int, fits bool) {
	l := int(ahead) - opt.PaceOverhead
	if l < minIDs {
		return maxIDs, false
	}
	return min(l, maxIDs), true
}

// paced is the audio still to play once a chunk of n ids, which costs the model cost ids with
// its context, is made, when ahead was (0 when playback waited for it).
func paced(ahead float64, cost, n int, opt Options) float64 {
	return max(0, ahead-float64(cost+opt.PaceOverhead)) + opt.Pace*float64(n)
}

// sentenceIDs is how many ids the whole sentences that pieces s to e-1 belong to have.
func sentenceIDs(ps []piece, s, e int) int {
	for s > 0 && ps[s-1].Cut < cutSentence {
		s--
	}
	for e < len(ps) && ps[e-1].Cut < cutSentence {
		e++
	}
	n := 0
	for _, p := range ps[s:e] {
		n += p.IDs
	}
	return n
}

// cutPoint returns the end (exclusive) of the chunk that starts at s.
func cutPoint(ps []piece, s, limit int) int { return cutPointFrom(ps, s, limit, 0) }

// cut is the weakest cut strength f lets the first chunk end on.
func (f FirstAt) cut() phonemize.Boundary {
	switch f {
	case FirstAtPhrase:
		return cutPhrase
	case FirstAtWord:
		return cutWord
	}
	return cutComma
}

// firstCut returns the end of the first chunk, which starts at s: the first boundary of at
// least minCut's strength (or the end of the text, or of its paragraph) that ends it with at
// least minIDs ids and at most limit; cutPoint's rule when there is none. With weakest below
// minCut, a phrase boundary within two thirds of limit comes first, then minCut's; then, for
// weakest weaker than a phrase, a boundary of weakest's strength within two thirds, and
// cutPoint's rule within two thirds: "When the rain stopped," rather than "When the rain",
// and "Your order" rather than most of the sentence.
func firstCut(ps []piece, s, minIDs, early, limit int, minCut, weakest phonemize.Boundary) int {
	type pass struct {
		level      phonemize.Boundary
		limit, min int
	}
	passes := []pass{{minCut, limit, minIDs}}
	if weakest < minCut {
		early = max(early, minIDs)
		soft := min(limit, max(early+4, limit*2/3))
		passes = []pass{{cutPhrase, soft, early}, {minCut, limit, minIDs}}
		if weakest < cutPhrase {
			passes = append(passes, pass{weakest, soft, early})
		}
		// Failing those, the first boundary after early ids, up to the whole budget: a first
		// chunk too short for the next to keep up costs the listener a stall.
		passes = append(passes, pass{cutPhrase, limit, early}, pass{weakest, limit, early})
		if early <= minIDs {
			limit = soft
		}
	}
	for _, p := range passes {
		total := 0
		for i := s; i < len(ps); i++ {
			if total+ps[i].IDs > p.limit && i > s {
				break
			}
			total += ps[i].IDs
			if i == len(ps)-1 || ps[i].Cut == cutPara || (total >= p.min && ps[i].Cut >= p.level) {
				return i + 1
			}
		}
	}
	return cutPoint(ps, s, limit)
}

// earliestCut is the fewest ids a first chunk cut without punctuation needs (Options.Pace) for
// the next chunk to be made while it plays and still to be long enough to gain on playback: a
// chunk of n ids plays Pace×n units and costs n+PaceOverhead (and its context), so only one of
// more than (PaceOverhead+context)/(Pace−1) ids leaves more audio ahead than it found. 0 when
// the pace is not known.
func earliestCut(opt Options) int {
	if opt.Pace <= 1 {
		return 0
	}
	cost := float64(opt.PaceOverhead)
	if opt.Context {
		cost += 2 * contextEstimate
	}
	gaining := cost / (opt.Pace - 1)
	return int(math.Ceil((gaining + cost) / opt.Pace))
}

// contextEstimate is the ids one side of a cut's context is counted as before it is known: a
// space and a short word.
const contextEstimate = 6

// splitOversized breaks any single piece longer than limit ids into limit-sized parts, so
// that no chunk can exceed it.
func splitOversized(ps []piece, limit int) []piece {
	var out []piece
	for _, p := range ps {
		if p.IDs <= limit {
			out = append(out, p)
			continue
		}
		var cur []rune
		n := 0
		part := piece{Text: p.Text, Of: p.Of}
		for _, r := range p.Phonemes {
			if phonemize.InVocab(r) {
				if n == limit {
					part.Phonemes, part.IDs, part.Cut = string(cur), n, cutInside
					out = append(out, part)
					// The parts after the first continue its word (a phrase's part with no
					// text still waits for the piece that names it).
					part = piece{Of: p.Of, Cont: p.Text != ""}
					if part.Cont {
						part.Of = strings.TrimSpace(p.Text)
					}
					cur, n = nil, 0
				}
				n++
			}
			cur = append(cur, r)
		}
		part.Phonemes, part.IDs, part.Cut = string(cur), n, p.Cut
		out = append(out, part)
	}
	return out
}

func makeChunk(ps []piece) (Chunk, bool) {
	var text, phon strings.Builder
	for _, p := range ps {
		text.WriteString(p.Text)
		phon.WriteString(p.Phonemes)
	}
	c := Chunk{Text: strings.TrimSpace(text.String()), Phonemes: strings.TrimSpace(phon.String())}
	c.IDs = phonemize.Tokenize(c.Phonemes)
	c.Words = chunkWords(ps, len(c.IDs))
	if len(ps) > 0 {
		c.Break = breakOf(ps[len(ps)-1].Cut)
	}
	return c, len(c.IDs) > 0
}

func breakOf(cut phonemize.Boundary) Break {
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

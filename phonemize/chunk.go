package phonemize

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Options configures Chunks.
type Options struct {
	Lang             string // a code of LangCodes; "" = en-us
	FirstChunkMaxIDs int    // 0 = DefaultFirstChunkMaxIDs
	// FirstChunkMinIDs is the shortest first chunk that may end at punctuation: a comma after
	// one word is not yet a phrase worth its own pitch contour. 0 = DefaultFirstChunkMinIDs.
	FirstChunkMinIDs int
	MaxIDs           int // 0 = MaxIDs (510)
	// FirstChunkWholeSentence ends the first chunk at the end of the first sentence, as the
	// chunks after it end, instead of at its first phrase (FirstChunkMinIDs and
	// FirstChunkMaxIDs are then not used; only a sentence longer than MaxIDs is cut).
	FirstChunkWholeSentence bool
	// FirstChunkAt is the weakest boundary the first chunk may end on (the zero value:
	// punctuation).
	FirstChunkAt FirstAt
	// Ramp bounds each later chunk to Ramp times the ids before it (0 = no bound but MaxIDs),
	// so that each chunk is synthesized while the audio before it plays.
	Ramp float64
	// Pace, when above 0, bounds each later chunk instead of Ramp, by what the model makes
	// while the audio before it plays. The unit is the model's time per id: a chunk of n ids
	// plays for Pace×n units and costs the model n+PaceOverhead units to make. Each later
	// chunk is cut to fit in the audio still to play when the chunk before it is made; when
	// no chunk of FirstChunkMinIDs would fit, the listener waits whatever the cut, and the
	// chunk may be as long as MaxIDs.
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
// punctuation (FirstAtPhrase, FirstAtWord) was heard worse: on fresh sentences the word error
// rate rose by 4 to 13 points (testdata/listen/fresh2.md).
const (
	DefaultFirstChunkMaxIDs = 80
	DefaultFirstChunkMinIDs = 12
	// DefaultEarlyFirstChunkMaxIDs is the first chunk's budget when it may end without
	// punctuation (FirstAtPhrase, FirstAtWord): on 2 cores a chunk of 12 to 20 ids costs the
	// model 0.41 to 0.5 s, about half what a 45-id sentence does.
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

// Chunk is one model call's worth of text.
type Chunk struct {
	Text     string  // the source text this chunk speaks
	Phonemes string  // phonemes, as Phonemize would print them
	IDs      []int64 // vocabulary ids WITHOUT the two pads; 1 <= len <= MaxIDs
	Break    Break   // how the text goes on after this chunk: the pause its join calls for
	// SentenceIDs is how many ids the sentences this chunk speaks (whole or in part) have
	// together, at most MaxIDs: len(IDs) for a chunk of whole sentences, more for a part of one.
	SentenceIDs int
	// Before and After (Options.Context) are the ids of the word before and after the chunk
	// when a cut between two words bounds it, with the space between: Before ends and After
	// starts with SpaceID. The model hears Before+IDs+After; the listener hears IDs.
	Before, After []int64
	// Words are the chunk's words as written, each with the ids of IDs that speak it.
	Words []Word
}

// SpaceID is the vocabulary id of the space between two words.
var SpaceID = vocab[' ']

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

// Boundary strengths, weakest first.
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

// leansOn reports whether a word tagged tag belongs with the word after it: a determiner, a
// possessive, an adjective, a number, a preposition, a conjunction, "to" or a modal ("the |
// order", "your | card", "at | noon", "can | book"). A cut after it splits a phrase.
func leansOn(t *token) bool {
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
func opensPhrase(t *token) bool {
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
func cutBefore(cut int, prev, t *token) int {
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

// paragraphBreak is a blank line (spaces allowed on it) between two paragraphs.
var paragraphBreak = regexp.MustCompile(`\r?\n[ \t\r]*\n`)

type piece struct {
	text string // source text with its trailing whitespace
	ps   string // phonemes with trailing whitespace
	ids  int
	cut  int // strength of a cut after this piece
	// A piece with no text of its own is part of a word or phrase whose text another piece
	// carries: of is that text, the word before's when cont (a part of a word too long for a
	// chunk), else the next piece's that has text (a reader that puts a phrase's text on its
	// last word).
	of   string
	cont bool
}

// Chunks phonemizes text and splits it into model-sized chunks: whole sentences packed up to
// MaxIDs, a sentence too long split at : ; then , — then between words; the first chunk is the
// text's first phrase (see FirstChunkMinIDs and FirstChunkMaxIDs), or its first sentence with
// FirstChunkWholeSentence. A paragraph (text between blank lines) always ends a chunk, so that
// its longer pause can be put back at the join.
func (p *Phonemizer) Chunks(text string, opt Options) ([]Chunk, error) {
	k, err := p.cutter(text, opt)
	if err != nil {
		return nil, err
	}
	chunks, _ := k.plan()
	if len(chunks) == 0 {
		return nil, fmt.Errorf("chunks: nothing speakable in the text: %w", ErrEmptyText)
	}
	return chunks, nil
}

// cutter reads text into the pieces Chunks cuts, with opt's budgets resolved.
func (p *Phonemizer) cutter(text string, opt Options) (cutter, error) {
	g, err := p.readerFor(opt.Lang)
	if err != nil {
		return cutter{}, err
	}
	if strings.TrimSpace(text) == "" {
		return cutter{}, fmt.Errorf("chunks: %w", ErrEmptyText)
	}
	maxIDs := opt.MaxIDs
	if maxIDs <= 0 || maxIDs > MaxIDs {
		maxIDs = MaxIDs
	}
	k := cutter{opt: opt, at: opt.FirstChunkAt, first: firstBudget(opt.FirstChunkMaxIDs, opt.FirstChunkAt, maxIDs),
		minFirst: opt.FirstChunkMinIDs, maxIDs: maxIDs}
	if k.minFirst <= 0 {
		k.minFirst = DefaultFirstChunkMinIDs
	}
	if !isEnglish(opt.Lang) {
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
	var pieces []piece
	for _, para := range paragraphBreak.Split(text, -1) {
		_, toks, err := g.read(para)
		if err != nil {
			return cutter{}, err
		}
		prev := &token{} // the word before t
		for _, t := range toks {
			ps := t.ps + t.ws
			if n := len(pieces); n > 0 {
				pieces[n-1].cut = cutBefore(pieces[n-1].cut, prev, t)
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
			pieces = append(pieces, piece{text: text, ps: ps, ids: len(Tokenize(ps)), cut: cut})
		}
		if len(pieces) > 0 {
			pieces[len(pieces)-1].cut = cutPara
		}
	}
	next := ""
	for i := len(pieces) - 1; i >= 0; i-- {
		if pieces[i].text != "" {
			next = strings.TrimSpace(pieces[i].text)
		} else {
			pieces[i].of = next
		}
	}
	k.pieces = splitOversized(pieces, k.first) // pathological words only; first <= maxIDs
	return k, nil
}

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
		if total += p.ids; total > k.first {
			break
		}
		if i+1 <= firstEnd || p.cut < k.at.cut() {
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
			c.SentenceIDs = max(len(c.IDs), min(MaxIDs, sentenceIDs(pieces, s, e)))
			c.Before, before = before, nil
			if opt.Context && c.Break == BreakWord && e < len(pieces) {
				c.After, before = wordsAcross(pieces, s, e, c.IDs)
			}
			// What the model hears stays within its input.
			if len(c.Before)+len(c.IDs)+len(c.After) > MaxIDs {
				c.After = nil
			}
			if len(c.Before)+len(c.IDs) > MaxIDs {
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
			b.WriteString(p.ps)
		}
		return Tokenize(strings.TrimSpace(b.String()))
	}
	// A word runs to the next piece a word may end on.
	end := e + 1
	for end < len(ps) && ps[end-1].cut == cutNone {
		end++
	}
	start := e - 1
	for start > s && ps[start-1].cut == cutNone {
		start--
	}
	full := tokens(s, end)
	if len(full) <= len(ids) || full[len(ids)] != SpaceID || !slices.Equal(full[:len(ids)], ids) ||
		len(full)-len(ids) > maxContextIDs+1 {
		return nil, nil
	}
	after = full[len(ids):]
	last := tokens(start, e)
	if len(last) == 0 || len(last) > maxContextIDs || !slices.Equal(tokens(start, end), slices.Concat(last, after)) {
		return after, nil
	}
	return after, append(last, SpaceID)
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
			rest += ps[i].ids
			if ps[i].cut >= cutSentence || i == len(ps)-1 {
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
		if total+ps[i].ids > limit && i > s {
			break
		}
		total += ps[i].ids
		ends, totals = append(ends, i+1), append(totals, total)
		if ps[i].cut == cutPara || i == len(ps)-1 {
			return i + 1
		}
	}
	for _, fl := range []int{floor, 0} {
		for level := cutPara; level >= cutInside; level-- {
			for k := len(ends) - 1; k >= 0; k-- {
				if ps[ends[k]-1].cut >= level && (level > cutPhrase || totals[k] >= fl) {
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

func lastRuneStr(s string) string {
	if s == "" {
		return ""
	}
	return string(lastRune(s))
}

// cutPoint returns the end (exclusive) of the chunk that starts at s.
func cutPoint(ps []piece, s, limit int) int { return cutPointFrom(ps, s, limit, 0) }

// cut is the weakest cut strength f lets the first chunk end on.
func (f FirstAt) cut() int {
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
func firstCut(ps []piece, s, minIDs, early, limit, minCut, weakest int) int {
	type pass struct{ level, limit, min int }
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
			if total+ps[i].ids > p.limit && i > s {
				break
			}
			total += ps[i].ids
			if i == len(ps)-1 || ps[i].cut == cutPara || (total >= p.min && ps[i].cut >= p.level) {
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
		if p.ids <= limit {
			out = append(out, p)
			continue
		}
		var cur []rune
		n := 0
		part := piece{text: p.text, of: p.of}
		for _, r := range p.ps {
			if inVocab(r) {
				if n == limit {
					part.ps, part.ids, part.cut = string(cur), n, cutInside
					out = append(out, part)
					// The parts after the first continue its word (a phrase's part with no
					// text still waits for the piece that names it).
					part = piece{of: p.of, cont: p.text != ""}
					if part.cont {
						part.of = strings.TrimSpace(p.text)
					}
					cur, n = nil, 0
				}
				n++
			}
			cur = append(cur, r)
		}
		part.ps, part.ids, part.cut = string(cur), n, p.cut
		out = append(out, part)
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
	c.Words = chunkWords(ps, len(c.IDs))
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

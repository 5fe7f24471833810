package en

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/kokoro-sm/kokoro/phonemize/internal/vocab"
)

var currencies = map[string][2]string{"$": {"dollar", "cent"}, "£": {"pound", "pence"}, "€": {"euro", "cent"}}

var punctTags = map[string]bool{".": true, ",": true, "-LRB-": true, "-RRB-": true, "``": true,
	`""`: true, "''": true, ":": true, "$": true, "#": true, "NFP": true}

var punctTagPhonemes = map[string]string{"-LRB-": "(", "-RRB-": ")", "``": "“", `""`: "”", "''": "”"}

const puncts = ";:,.!?—…\"“”"
const nonQuotePuncts = ";:,.!?—…"
const subtokenJunks = "',-._‘’/"

func isJunk(s string) bool {
	for _, r := range s {
		if !strings.ContainsRune(subtokenJunks, r) {
			return false
		}
	}
	return true
}

// Replacers are immutable and safe for concurrent use; built once.
var (
	// v10Replacer maps the flap and glottal stop to the symbols Kokoro v1.0 was trained on.
	v10Replacer   = newReplacer("ɾ", "T", "ʔ", "t")
	quoteReplacer = newReplacer("‘", "'", "’", "'")
	stressRemover = newReplacer("ˈ", "", "ˌ", "")
)

// replacer is a strings.Replacer that returns a string holding none of its patterns' first
// characters as it is: the Replacer would copy it twice, and most words have nothing to
// replace.
type replacer struct {
	r     *strings.Replacer
	chars []string // the first character of every pattern
}

func newReplacer(oldnew ...string) replacer {
	var chars []string
	for i := 0; i < len(oldnew); i += 2 {
		_, n := utf8.DecodeRuneInString(oldnew[i])
		chars = append(chars, oldnew[i][:n])
	}
	return replacer{strings.NewReplacer(oldnew...), chars}
}

func (r replacer) Replace(s string) string {
	// One substring search per character: strings.ContainsAny would decode every rune of s
	// and look it up among the characters, since they are not ASCII.
	for _, c := range r.chars {
		if strings.Contains(s, c) {
			return r.r.Replace(s)
		}
	}
	return s
}

// g2p is one dialect's converter.
type g2p struct {
	lx       *lexicon
	tags     tagger
	fallback func(word string) (string, bool)
	prefetch func(words []string)             // optional: warm the fallback for several words at once
	cached   func(word string) (string, bool) // with prefetch: the fallback's remembered answer
	unk      string
}

// word is either a single token or a group of sub-tokens written without spaces between them.
type word struct {
	tk    *token
	group []*token
}

// convert phonemizes one text and returns the phoneme string and the final tokens.
func (g *g2p) convert(text string, sw Switches) (string, []*token) {
	if g.prefetch == nil || g.cached == nil {
		return g.convertWith(text, sw, g.fallback)
	}
	// First with cached fallback answers only, noting the words that have none; when there
	// are some, they go to the fallback together and the text is read again. A text whose
	// unknown words are all cached is read once.
	var missed []string
	ps, toks := g.convertWith(text, sw, func(w string) (string, bool) {
		if ps, ok := g.cached(w); ok {
			return ps, true
		}
		missed = append(missed, w)
		return "", false
	})
	if len(missed) == 0 {
		return ps, toks
	}
	g.prefetch(missed)
	return g.convertWith(text, sw, g.fallback)
}

// convertWith phonemizes one text, reading unknown words with fallback.
func (g *g2p) convertWith(text string, sw Switches, fallback func(string) (string, bool)) (string, []*token) {
	text, ovs := preprocess(text, sw)
	tokens := tokenize(text)
	g.tags.tagTokens(tokens)
	applyOverrides(tokens, ovs)
	tokens = foldLeft(tokens, g.unk)
	words := retokenize(tokens)
	ctx := wordCtx{}
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if w.tk != nil {
			tk := w.tk
			if !tk.hasPS {
				if ps, r := g.lexWord(tk, ctx); r != 0 {
					tk.setPS(ps)
				}
			}
			if !tk.hasPS && fallback != nil {
				if ps, ok := fallback(tk.text); ok {
					tk.setPS(ps)
				}
			}
			ctx = nextCtx(ctx, tk)
			continue
		}
		g.resolveGroup(w.group, &ctx, fallback)
	}
	var b strings.Builder
	out := make([]*token, 0, len(words))
	for _, w := range words {
		tk := w.tk
		if tk == nil {
			tk = mergeTokens(w.group, true, g.unk)
		}
		if tk.hasPS {
			tk.ps = keepVocab(v10Replacer.Replace(tk.ps))
			b.WriteString(tk.ps)
		} else {
			b.WriteString(g.unk)
		}
		b.WriteString(tk.ws)
		out = append(out, tk)
	}
	return b.String(), out
}

// maxSpan bounds how many sub-tokens one lexicon lookup may join, which keeps a long run of
// written-together pieces ("a-a-a-…") linear instead of cubic. Real words span far fewer.
const maxSpan = 24

func (g *g2p) resolveGroup(w []*token, ctx *wordCtx, fb func(string) (string, bool)) {
	left, right := max(0, len(w)-maxSpan), len(w)
	fallback := false
	for left < right {
		var span *token
		clean := true
		for _, t := range w[left:right] {
			if t.hasAlias || t.hasPS {
				clean = false
				break
			}
		}
		var ps string
		var r int
		if clean {
			span = mergeTokens(w[left:right], false, "")
			ps, r = g.lexWord(span, *ctx)
		}
		switch {
		case r != 0:
			w[left].setPS(ps)
			for _, x := range w[left+1 : right] {
				x.setPS("")
			}
			*ctx = nextCtx(*ctx, &token{text: span.text, tag: span.tag, ps: ps, hasPS: true})
			right, left = left, max(0, left-maxSpan)
		case left+1 < right:
			left++
		default:
			right--
			tk := w[right]
			if !tk.hasPS {
				if isJunk(tk.text) {
					tk.setPS("")
				} else if fb != nil {
					fallback = true
				}
			}
			left = max(0, right-maxSpan)
		}
		if fallback {
			break
		}
	}
	if fallback {
		m := mergeTokens(w, false, "")
		ps, ok := fb(m.text)
		if ok {
			w[0].setPS(ps)
		}
		for _, x := range w[1:] {
			x.setPS("")
		}
		return
	}
	resolveTokens(w)
}

// resolveTokens decides how the parts of a written-together group are joined: with spaces
// when the group mixes letters and digits or has spaces or slashes, otherwise as one word with
// the weaker parts' primary stresses demoted.
func resolveTokens(ts []*token) {
	var tb strings.Builder
	for i, t := range ts {
		tb.WriteString(t.text)
		if i < len(ts)-1 {
			tb.WriteString(t.ws)
		}
	}
	text := tb.String()
	classes := map[int]bool{}
	for _, c := range text {
		if strings.ContainsRune(subtokenJunks, c) {
			continue
		}
		switch {
		case unicode.IsLetter(c):
			classes[0] = true
		case c >= '0' && c <= '9':
			classes[1] = true
		default:
			classes[2] = true
		}
	}
	prespace := strings.ContainsAny(text, " /") || len(classes) > 1
	for i, t := range ts {
		if !t.hasPS {
			if i == len(ts)-1 && strings.Contains(nonQuotePuncts, t.text) {
				t.setPS(t.text)
			} else if isJunk(t.text) {
				t.setPS("")
			}
		} else if i > 0 {
			t.prespace = prespace
		}
	}
	if prespace {
		return
	}
	type idx struct {
		hasPrimary bool
		weight     int
		i          int
	}
	var indices []idx
	for i, t := range ts {
		if t.hasPS && t.ps != "" {
			indices = append(indices, idx{strings.ContainsRune(t.ps, primary), stressWeight(t.ps), i})
		}
	}
	if len(indices) == 2 && len([]rune(ts[indices[0].i].text)) == 1 {
		t := ts[indices[1].i]
		t.ps = applyStress(t.ps, stressOf(-0.5))
		return
	}
	nPrimary := 0
	for _, x := range indices {
		if x.hasPrimary {
			nPrimary++
		}
	}
	if len(indices) < 2 || nPrimary <= (len(indices)+1)/2 {
		return
	}
	sorted := append([]idx(nil), indices...)
	less := func(a, b idx) bool {
		if a.hasPrimary != b.hasPrimary {
			return !a.hasPrimary
		}
		if a.weight != b.weight {
			return a.weight < b.weight
		}
		return a.i < b.i
	}
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && less(sorted[j], sorted[j-1]); j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	for _, x := range sorted[:len(sorted)/2] {
		ts[x.i].ps = applyStress(ts[x.i].ps, stressOf(-0.5))
	}
}

// nextCtx computes the context the word to the left of tk sees.
func nextCtx(ctx wordCtx, tk *token) wordCtx {
	v := ctx.futureVowel
	if tk.hasPS && tk.ps != "" {
		for _, c := range tk.ps {
			if strings.ContainsRune(nonQuotePuncts, c) {
				v = triUnknown
				break
			}
			if isVowel(c) {
				v = triTrue
				break
			}
			if isConsonant(c) {
				v = triFalse
				break
			}
		}
	}
	return wordCtx{
		futureVowel: v,
		futureTo:    tk.text == "to" || tk.text == "To" || (tk.text == "TO" && (tk.tag == "TO" || tk.tag == "IN")),
	}
}

// foldLeft merges tokens that are not heads (the tail of an inline override) into the token
// before them.
func foldLeft(ts []*token, unk string) []*token {
	var out []*token
	for _, t := range ts {
		if len(out) > 0 && !t.isHead {
			t = mergeTokens([]*token{out[len(out)-1], t}, true, unk)
			out = out[:len(out)-1]
		}
		out = append(out, t)
	}
	return out
}

// retokenize sub-tokenizes every token, marks currency symbols, dashes and punctuation, and
// groups sub-tokens that were written together.
func retokenize(ts []*token) []word {
	words := make([]word, 0, len(ts))
	currency := ""
	slab := tokenSlab{size: len(ts) + len(ts)/8}
	var tks []*token // reused: words keep the pointers, not the slice
	for i, t := range ts {
		tks = tks[:0]
		switch {
		case t.hasAlias || t.hasPS:
		case plainWord(t.text): // what subtokenize would return, without its slice
			tk := slab.new()
			tk.text, tk.tag, tk.isHead, tk.numFlags = t.text, t.tag, true, t.numFlags
			tks = append(tks, tk)
		default:
			for _, s := range subtokenize(t.text) {
				tk := slab.new()
				tk.text, tk.tag, tk.isHead, tk.numFlags = s, t.tag, true, t.numFlags
				tks = append(tks, tk)
			}
		}
		if len(tks) == 0 {
			c := slab.new()
			*c = *t
			tks = append(tks, c)
		}
		tks[len(tks)-1].ws = t.ws
		for j, tk := range tks {
			switch {
			case tk.hasAlias || tk.hasPS:
			case tk.tag == "$" && isCurrency(tk.text):
				currency = tk.text
				tk.setPS("")
			case tk.tag == ":" && (tk.text == "-" || tk.text == "–"):
				tk.setPS("—")
			case punctTags[tk.tag] && !allAZ(tk.text):
				if p, ok := punctTagPhonemes[tk.tag]; ok {
					tk.setPS(p)
				} else {
					var b strings.Builder
					for _, c := range tk.text {
						if strings.ContainsRune(puncts, c) {
							b.WriteRune(c)
						}
					}
					tk.setPS(b.String())
				}
			case currency != "":
				if tk.tag != "CD" {
					currency = ""
				} else if j+1 == len(tks) && (i+1 == len(ts) || ts[i+1].tag != "CD") {
					tk.currency = currency
				}
			case 0 < j && j < len(tks)-1 && tk.text == "2" && isAlpha(string(lastRune(tks[j-1].text))+string([]rune(tks[j+1].text)[0])):
				tk.alias, tk.hasAlias = "to", true
			}
			switch {
			case tk.hasAlias || tk.hasPS:
				words = append(words, word{tk: tk})
			case len(words) > 0 && words[len(words)-1].group != nil && words[len(words)-1].group[len(words[len(words)-1].group)-1].ws == "":
				tk.isHead = false
				words[len(words)-1].group = append(words[len(words)-1].group, tk)
			case tk.ws != "":
				words = append(words, word{tk: tk})
			default:
				words = append(words, word{group: []*token{tk}})
			}
		}
	}
	for i, w := range words {
		if len(w.group) == 1 {
			words[i] = word{tk: w.group[0]}
		}
	}
	return words
}

func isCurrency(s string) bool { _, ok := currencies[s]; return ok }

// allAZ reports whether every rune is an ASCII letter (such "punctuation" is read as a word).
func allAZ(s string) bool {
	for _, c := range strings.ToLower(s) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

var digitsRe = regexp.MustCompile(`^[0-9]+$`)

// lexWord reads one word or merged group through the lexicon and the number reader. A zero
// rating means unknown.
func (g *g2p) lexWord(tk *token, ctx wordCtx) (string, int) {
	w := tk.text
	if tk.hasAlias {
		w = tk.alias
	}
	w = quoteReplacer.Replace(w)
	w = norm.NFKC.String(w)
	var s stress
	if w != strings.ToLower(w) {
		if w == strings.ToUpper(w) {
			s = stressOf(2)
		} else {
			s = stressOf(0.5)
		}
	}
	lx := g.lx
	if !hasAlnum(w) && !lx.has(w) && addSymbols[w] == "" && symbolWords[w] == "" {
		return "", 0 // no lexicon path reads a run of punctuation; skip the search
	}
	if ps, r := lx.getWord(w, tk.tag, s, ctx); r != 0 {
		return applyStress(lx.appendCurrency(ps, tk.currency), tk.stress), r
	}
	if isNumber(w, tk.isHead) {
		ps, r := lx.getNumber(w, tk.currency, tk.isHead, tk.numFlags)
		if r == 0 {
			return "", 0
		}
		return applyStress(ps, tk.stress), r
	}
	return "", 0
}

func (lx *lexicon) appendCurrency(ps, cur string) string {
	c, ok := currencies[cur]
	if !ok {
		return ps
	}
	if s, _ := lx.stemS(c[0]+"s", "", noStress, nil); s != "" {
		return ps + " " + s
	}
	return ps
}

func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// keepVocab drops any symbol the model has no id for (a stray one in an inline override or
// in espeak-ng output), so that every emitted symbol maps to an id, except an opening square
// bracket: the reference keeps one its tagger leaves untagged, and Tokenize skips it, so the
// model gets the same ids either way.
func keepVocab(ps string) string {
	for _, r := range ps {
		if !vocab.Contains(r) && r != '[' {
			return strings.Map(func(r rune) rune {
				if vocab.Contains(r) || r == '[' {
					return r
				}
				return -1
			}, ps)
		}
	}
	return ps
}

package en

import "unicode"

// subtokenize splits one tokenizer token further, the way the reference does before it looks
// words up: leading/trailing quote runs, numbers (with , and . between digits), runs of - and
// _, camelCase boundaries, letter runs with inner apostrophes, and single other characters.
// Characters matched by none of these (a lone inner apostrophe) are dropped, as there.
func subtokenize(word string) []string {
	if plainWord(word) {
		return []string{word} // one letter run with no case change inside: nothing to split
	}
	return splitSubtokens(word)
}

// splitSubtokens is subtokenize without its shortcut for plain words.
func splitSubtokens(word string) []string {
	rs := subtokenRunes([]rune(word))
	var out []string
	for i := 0; i < len(rs); {
		end := rs.end(i)
		if end <= i {
			i++ // no pattern matches here: the rune is dropped
			continue
		}
		out = append(out, string(rs[i:end]))
		i = end
	}
	return out
}

// subtokenRunes is a word being split into sub-tokens.
type subtokenRunes []rune

func isQuote(r rune) bool { return r == '\'' || r == '‘' || r == '’' }

func isDash(r rune) bool { return r == '-' || r == '_' }

// end is where the sub-token that starts at i ends, by the first of the reference's patterns
// that matches there; i or less where none does.
func (rs subtokenRunes) end(i int) int {
	r, n := rs[i], len(rs)
	isL, isD := unicode.IsLetter, unicode.IsDigit
	switch {
	case i == 0 && isQuote(r):
		return rs.run(i, isQuote) // leading quotes
	case unicode.IsUpper(r) && i+2 < n && unicode.IsUpper(rs[i+1]) && unicode.IsLower(rs[i+2]):
		return i + 1 // the last capital of an acronym before a word: XMLHttp
	}
	end := -1
	if isD(r) || r == ',' || r == '.' || (i == 0 && r == '-') {
		end = rs.number(i)
	}
	if end < 0 && isDash(r) {
		end = rs.run(i, isDash)
	}
	if end < 0 && isQuote(r) && i+1 < n && isQuote(rs[i+1]) {
		end = rs.run(i, isQuote)
	}
	if end < 0 && (isL(r) || isQuote(r)) {
		end = rs.camel(i)
	}
	if end < 0 && isL(r) {
		end = rs.letters(i)
	}
	if end < 0 && !isL(r) && !isQuote(r) && !isD(r) && !isDash(r) {
		end = i + 1
	}
	if end < 0 && isQuote(r) && rs.run(i, isQuote) == n {
		end = n // trailing quotes
	}
	return end
}

// run is the end of the run of runes from i that is() accepts.
func (rs subtokenRunes) run(i int, is func(rune) bool) int {
	for i < len(rs) && is(rs[i]) {
		i++
	}
	return i
}

// letters matches \p{L}+(?:['‘’]\p{L})* from i and returns the end, or -1.
func (rs subtokenRunes) letters(i int) int {
	j := rs.run(i, unicode.IsLetter)
	if j == i {
		return -1
	}
	for j+1 < len(rs) && isQuote(rs[j]) && unicode.IsLetter(rs[j+1]) {
		j += 2
	}
	return j
}

// number matches (?:^-)?(?:\d?[,.]?\d)+ from i and returns the end, or -1.
func (rs subtokenRunes) number(i int) int {
	if i == 0 && rs[0] == '-' {
		if e := rs.digits(1); e > 0 {
			return e
		}
	}
	return rs.digits(i)
}

// digits matches (?:\d?[,.]?\d)+ from start and returns the end, or -1.
func (rs subtokenRunes) digits(start int) int {
	j, n := start, len(rs)
	for j < n {
		switch {
		case unicode.IsDigit(rs[j]):
			j++
		case (rs[j] == ',' || rs[j] == '.') && j+1 < n && unicode.IsDigit(rs[j+1]) && (j == start || unicode.IsDigit(rs[j-1])):
			j += 2
		default:
			return ifPos(j > start, j)
		}
	}
	return ifPos(j > start, j)
}

// camel matches \p{L}*?(?:['‘’]\p{L})*?\p{Ll}(?=\p{Lu}) from i: the shortest letter run (inner
// apostrophes allowed only after the plain letters) ending in a lower-case letter that an
// upper-case one follows. It returns the end, or -1.
func (rs subtokenRunes) camel(i int) int {
	n := len(rs)
	for a := i; a < n; a++ { // a: end of the plain-letter part
		if a > i && !unicode.IsLetter(rs[a-1]) {
			break
		}
		for b := a; ; b += 2 { // b: end of the apostrophe-letter pairs
			if b+1 < n && unicode.IsLower(rs[b]) && unicode.IsUpper(rs[b+1]) {
				return b + 1
			}
			if !(b+1 < n && isQuote(rs[b]) && unicode.IsLetter(rs[b+1])) {
				break
			}
		}
	}
	return -1
}

func ifPos(ok bool, v int) int {
	if ok {
		return v
	}
	return -1
}

// plainWord reports a non-empty word of ASCII letters whose letters after the first are all
// lower case, which subtokenize returns whole.
func plainWord(w string) bool {
	if w == "" {
		return false
	}
	c := w[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

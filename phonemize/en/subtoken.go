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
	rs := []rune(word)
	n := len(rs)
	var out []string
	isQ := func(r rune) bool { return r == '\'' || r == '‘' || r == '’' }
	isL := unicode.IsLetter
	isLu := unicode.IsUpper
	isLl := unicode.IsLower
	isD := unicode.IsDigit
	// letters matches \p{L}+(?:['‘’]\p{L})* from i and returns the end, or -1.
	letters := func(i int) int {
		j := i
		for j < n && isL(rs[j]) {
			j++
		}
		if j == i {
			return -1
		}
		for j+1 < n && isQ(rs[j]) && isL(rs[j+1]) {
			j += 2
		}
		return j
	}
	// number matches (?:^-)?(?:\d?[,.]?\d)+ from i and returns the end, or -1.
	number := func(i int) int {
		try := func(j int) int {
			start := j
			for j < n {
				switch {
				case isD(rs[j]):
					j++
				case (rs[j] == ',' || rs[j] == '.') && j+1 < n && isD(rs[j+1]) && (j == start || isD(rs[j-1])):
					j += 2
				default:
					return ifPos(j > start, j)
				}
			}
			return ifPos(j > start, j)
		}
		if i == 0 && rs[0] == '-' {
			if e := try(1); e > 0 {
				return e
			}
		}
		return try(i)
	}
	// camel matches \p{L}*?(?:['‘’]\p{L})*?\p{Ll}(?=\p{Lu}): the shortest letter run (inner
	// apostrophes allowed only after the plain letters) ending in a lower-case letter that
	// an upper-case one follows.
	camel := func(i int) int {
		for a := i; a < n; a++ { // a: end of the plain-letter part
			if a > i && !isL(rs[a-1]) {
				break
			}
			for b := a; ; b += 2 { // b: end of the apostrophe-letter pairs
				if b+1 < n && isLl(rs[b]) && isLu(rs[b+1]) {
					return b + 1
				}
				if !(b+1 < n && isQ(rs[b]) && isL(rs[b+1])) {
					break
				}
			}
		}
		return -1
	}
	for i := 0; i < n; {
		r := rs[i]
		end := -1
		switch {
		case i == 0 && isQ(r):
			end = i
			for end < n && isQ(rs[end]) {
				end++
			}
		case isLu(r) && i+2 < n && isLu(rs[i+1]) && isLl(rs[i+2]):
			end = i + 1
		}
		if end < 0 && (isD(r) || r == ',' || r == '.' || (i == 0 && r == '-')) {
			end = number(i)
		}
		if end < 0 && (r == '-' || r == '_') {
			end = i
			for end < n && (rs[end] == '-' || rs[end] == '_') {
				end++
			}
		}
		if end < 0 && isQ(r) && i+1 < n && isQ(rs[i+1]) {
			end = i
			for end < n && isQ(rs[end]) {
				end++
			}
		}
		if end < 0 && (isL(r) || isQ(r)) {
			end = camel(i)
		}
		if end < 0 && isL(r) {
			end = letters(i)
		}
		if end < 0 && !isL(r) && !isQ(r) && !isD(r) && r != '-' && r != '_' {
			end = i + 1
		}
		if end < 0 && isQ(r) {
			j := i
			for j < n && isQ(rs[j]) {
				j++
			}
			if j == n {
				end = n
			}
		}
		if end <= i {
			i++
			continue
		}
		out = append(out, string(rs[i:end]))
		i = end
	}
	return out
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

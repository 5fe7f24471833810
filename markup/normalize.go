package markup

import (
	"regexp"
	"slices"
	"strings"
)

// Normalization switches how the text as written is rewritten before the phonemizer reads
// it, where the phonemizer's own reading does not suit a voice agent. The zero value rewrites
// nothing; DefaultNormalization is what a request gets.
type Normalization struct {
	// URLs reads a web address as its parts are said: "https://example.com/docs" is
	// "example dot com slash docs" (the phonemizer alone spells the scheme and runs the host
	// together).
	URLs bool
	// Emails reads an e-mail address as its parts are said: "jo.doe@example.com" is "jo dot
	// doe at example dot com".
	Emails bool
}

// DefaultNormalization fits spoken dialogue: addresses read the way a person says them.
var DefaultNormalization = Normalization{URLs: true, Emails: true}

var (
	urlRe   = regexp.MustCompile(`\b(?:[Hh][Tt][Tt][Pp][Ss]?://|[Ww][Ww][Ww]\.)[^\s<>"'\[\]()]+`)
	emailRe = regexp.MustCompile(`\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b`)
)

// addressSymbols are how the separators of an address are said.
var addressSymbols = map[rune]string{
	'.': "dot", '/': "slash", '-': "dash", '_': "underscore", ':': "colon", '?': "question mark",
	'=': "equals", '&': "and", '#': "hash", '@': "at", '+': "plus", '%': "percent", '~': "tilde",
}

// sayAddress says an address part by part: runs of letters and digits as words, separators by
// name; "www" is spelled.
func sayAddress(s string) string {
	var words []string
	var run strings.Builder
	flush := func() {
		if run.Len() == 0 {
			return
		}
		w := run.String()
		if strings.EqualFold(w, "www") {
			w = "W W W"
		}
		words = append(words, w)
		run.Reset()
	}
	for _, r := range s {
		if name, ok := addressSymbols[r]; ok {
			flush()
			words = append(words, name)
			continue
		}
		run.WriteRune(r)
	}
	flush()
	return strings.Join(words, " ")
}

// trimURL drops what ends a sentence after an address, and a scheme, which is not said.
func trimURL(u string) (string, int) {
	end := len(strings.TrimRight(u, ".,;:!?"))
	u = u[:end]
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	return strings.TrimRight(u, "/"), end
}

// matches finds the addresses of text that n rewrites, in order, as [start, end) pairs with
// what each is said as.
func (n Normalization) matches(text string) []rewrite {
	var out []rewrite
	taken := func(a, b int) bool {
		for _, m := range out {
			if a < m.end && b > m.at {
				return true
			}
		}
		return false
	}
	if n.URLs {
		for _, m := range urlRe.FindAllStringIndex(text, -1) {
			u, end := trimURL(text[m[0]:m[1]])
			if u != "" {
				out = append(out, rewrite{m[0], m[0] + end, sayAddress(u)})
			}
		}
	}
	if n.Emails {
		for _, m := range emailRe.FindAllStringIndex(text, -1) {
			if !taken(m[0], m[1]) {
				out = append(out, rewrite{m[0], m[1], sayAddress(text[m[0]:m[1]])})
			}
		}
	}
	slices.SortFunc(out, func(a, b rewrite) int { return a.at - b.at })
	return out
}

// rewrite is an address at bytes [at, end) of a text, and what it is said as.
type rewrite struct {
	at, end int
	say     string
}

// Rewrites reports whether n rewrites anything in text.
func (n Normalization) Rewrites(text string) bool {
	return n.URLs && urlRe.MatchString(text) || n.Emails && emailRe.MatchString(text)
}

// Normalize rewrites the document's text as written (not what a tag renders) by n: each
// address becomes the words it is said as, mapped to its bytes.
func (d *Doc) Normalize(n Normalization) {
	var out []Item
	for _, it := range d.Items {
		if it.Kind != KindText || !it.Exact || it.Phonemes != "" || !n.Rewrites(it.Text) {
			out = append(out, it)
			continue
		}
		last := 0
		for _, m := range n.matches(it.Text) {
			if m.at > last {
				p := it
				p.Text, p.Src = it.Text[last:m.at], Span{it.Src.Start + last, it.Src.Start + m.at}
				out = append(out, p)
			}
			p := it
			p.Text, p.Exact, p.Src = m.say, false, Span{it.Src.Start + m.at, it.Src.Start + m.end}
			out = append(out, p)
			last = m.end
		}
		if last < len(it.Text) {
			p := it
			p.Text, p.Src = it.Text[last:], Span{it.Src.Start + last, it.Src.End}
			out = append(out, p)
		}
	}
	d.Items = out
}

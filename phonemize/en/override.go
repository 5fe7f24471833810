package en

import (
	"regexp"
	"strconv"
	"strings"
)

// Inline overrides use Markdown link syntax: [word](/phonemes/) replaces a word's phonemes,
// [word](-1) or (+2) or (0.5) adjusts its stress, [word](#flags#) sets number-reading flags,
// [word](@VBD) reads it as the part of speech a Penn Treebank tag names (a homograph such
// as "read" or "live" takes that tag's pronunciation).
var linkRe = regexp.MustCompile(`\[([^\]]+)\]\(([^\)]*)\)`)

type override struct {
	start, end int // byte span of the link text in the preprocessed text
	ps         string
	hasPS      bool
	stress     stress
	flags      numFlags
	hasFlags   bool   // written (#flags#) with at least one character between the marks
	tag        string // written (@TAG): the part of speech the tagger's is replaced by
}

// preprocess removes the link syntax and returns the plain text with its overrides.
func preprocess(text string, sw Switches) (string, []override) {
	text = strings.TrimLeft(text, " \t\n\r\f\v")
	var b strings.Builder
	var ovs []override
	last := 0
	for _, m := range linkRe.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(normalize(text[last:m[0]], sw))
		word, f := text[m[2]:m[3]], text[m[4]:m[5]]
		o := override{start: b.Len(), end: b.Len() + len(word)}
		ok := true
		digits := strings.TrimLeft(f, "+-")
		switch {
		case len(digits) == len(f)-1 && isDigits(digits) || isDigits(f):
			v, _ := strconv.Atoi(f)
			o.stress = stressOf(float64(v))
		case f == "0.5" || f == "+0.5":
			o.stress = stressOf(0.5)
		case f == "-0.5":
			o.stress = stressOf(-0.5)
		case len(f) > 1 && f[0] == '/' && f[len(f)-1] == '/':
			o.ps, o.hasPS = strings.TrimRight(f[1:], "/"), true
		case len(f) > 1 && f[0] == '@' && isTag(f[1:]):
			o.tag = f[1:]
		case len(f) > 1 && f[0] == '#' && f[len(f)-1] == '#':
			fl := strings.TrimRight(f[1:], "#")
			o.flags, o.hasFlags = parseNumFlags(fl), fl != ""
		default:
			ok = false
		}
		if ok {
			ovs = append(ovs, o)
		}
		b.WriteString(word)
		last = m[1]
	}
	b.WriteString(normalize(text[last:], sw))
	return b.String(), ovs
}

// applyOverrides marks the tokens inside each override span.
func applyOverrides(ts []*token, ovs []override) {
	for _, o := range ovs {
		i := 0
		for _, t := range ts {
			if t.start < o.start || t.start >= o.end {
				continue
			}
			switch {
			case o.hasPS:
				t.isHead = i == 0
				t.override = true
				if i == 0 {
					t.setPS(o.ps)
				} else {
					t.setPS("")
				}
			case o.hasFlags:
				t.numFlags = o.flags
			case o.tag != "":
				t.tag = o.tag
			default:
				t.stress = o.stress
			}
			i++
		}
	}
}

// isTag reports a Penn Treebank tag's shape: capitals, with a trailing $ (PRP$) allowed.
func isTag(s string) bool {
	s = strings.TrimSuffix(s, "$")
	if s == "" || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

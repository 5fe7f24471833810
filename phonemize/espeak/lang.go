package espeak

import (
	"regexp"
	"strings"
	"unicode"
)

// Reader reads a language through espeak-ng alone, as the reference reads Spanish,
// French, Hindi, Italian and Brazilian Portuguese (misaki's EspeakG2P): the text goes to
// espeak-ng through the phonemizer package with its punctuation kept, stress marks on and
// '^' ties, language-switch flags removed; the result is mapped to Kokoro's symbols. Each
// step below is that package's, so that the phonemes match symbol for symbol on the same
// espeak-ng.
type Reader struct {
	voice string // espeak-ng voice identifier ("roa/es")
	// phonemes reads one punctuation-free piece of text in voice, clauses joined by a space
	// (libRaw; a test may put a stand-in here).
	phonemes func(voice, text string) (string, error)
}

// phonemizerMarks are the phonemizer package's default punctuation marks: text is cut at
// them, each piece read alone and the marks put back between the pieces' phonemes.
const phonemizerMarks = ";:,.!?¡¿—…\"«»“”(){}[]"

// markRun matches a run of marks with the whitespace around them (Python's \s is Unicode
// whitespace; RE2's is ASCII, hence the class).
var markRun = regexp.MustCompile(`(` + pySpace + `*[` + regexp.QuoteMeta(phonemizerMarks) + `]+` + pySpace + `*)+`)

const pySpace = `[\s\v\p{Z}\x{1c}-\x{1f}\x{85}]`

// espeakFlag is a language-switch flag such as "(en)", which espeak-ng writes around words it
// reads in another language; the reference removes the flags and keeps the words.
var espeakFlag = regexp.MustCompile(`\(.+?\)`)

var underscores = regexp.MustCompile(`_+`)

// espeakToKokoro are the reference's replacements of espeak-ng's two-letter phonemes by
// Kokoro's one-letter symbols, in the order it applies them (sorted by the espeak-ng side).
var espeakToKokoro = []struct{ from, to string }{
	{"a^ɪ", "I"}, {"a^ʊ", "W"}, {"d^z", "ʣ"}, {"d^ʒ", "ʤ"}, {"e^ɪ", "A"}, {"o^ʊ", "O"},
	{"s^s", "S"}, {"t^s", "ʦ"}, {"t^ʃ", "ʧ"}, {"ɔ^ɪ", "Y"}, {"ə^ʊ", "Q"},
}

// pyStrip is Python's str.strip(): Unicode whitespace off both ends.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
	})
}

// NewReader returns the reader of espeak-ng voice (its identifier in espeak-ng's voice list,
// "roa/es"), through the library loaded in this process (Locate reports whether it loads).
func NewReader(voice string) *Reader { return &Reader{voice: voice, phonemes: libRaw} }

// Read is the reference's phonemes for text: misaki's EspeakG2P on it.
func (e *Reader) Read(text string) (string, error) {
	// Angle quotes become curly ones and parentheses angle quotes, so that espeak-ng's
	// reading is not steered by them; the parentheses come back at the end.
	text = strings.NewReplacer("«", "\u201c", "»", "\u201d").Replace(text)
	text = strings.NewReplacer("(", "«", ")", "»").Replace(text)
	pieces, marks := preserveMarks(text)
	out := make([]string, len(pieces))
	for i, p := range pieces {
		raw, err := e.phonemes(e.voice, p)
		if err != nil {
			return "", err
		}
		out[i] = postprocessLine(raw)
	}
	lines := restoreMarks(out, marks)
	if len(lines) == 0 {
		return "", nil
	}
	ps := pyStrip(lines[0])
	for _, r := range espeakToKokoro {
		ps = strings.ReplaceAll(ps, r.from, r.to)
	}
	ps = strings.NewReplacer("^", "", "-", "").Replace(ps)
	return strings.NewReplacer("«", "(", "»", ")").Replace(ps), nil
}

// mark is a run of punctuation cut out of a text, and where it stood: at the beginning (B),
// inside (I), at the end (E), or all of the text (A).
type mark struct {
	text string
	pos  byte
}

// preserveMarks cuts text at its runs of marks (the phonemizer package's
// Punctuation.preserve for one line): the pieces between them, empty ones dropped, and the
// marks.
func preserveMarks(line string) ([]string, []mark) {
	found := markRun.FindAllString(line, -1)
	if len(found) == 0 {
		return []string{line}, nil
	}
	if len(found) == 1 && found[0] == line {
		return nil, []mark{{line, 'A'}}
	}
	marks := make([]mark, len(found))
	for i, m := range found {
		pos := byte('I')
		switch {
		case i == 0 && strings.HasPrefix(line, m):
			pos = 'B'
		case i == len(found)-1 && strings.HasSuffix(line, m):
			pos = 'E'
		}
		marks[i] = mark{m, pos}
	}
	var pieces []string
	for _, m := range marks {
		prefix, suffix, _ := strings.Cut(line, m.text)
		pieces = append(pieces, prefix)
		line = suffix
	}
	pieces = append(pieces, line)
	kept := pieces[:0]
	for _, p := range pieces {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return kept, marks
}

// postprocessLine tidies espeak-ng's answer for one piece as the phonemizer package does:
// lines merged, doubled separators dropped, language-switch flags removed, ties written as
// '^', and every word followed by a space.
func postprocessLine(line string) string {
	line = strings.ReplaceAll(strings.ReplaceAll(pyStrip(line), "\n", " "), "  ", " ")
	line = underscores.ReplaceAllString(line, "_")
	line = strings.ReplaceAll(line, "_ ", " ")
	line = espeakFlag.ReplaceAllString(line, "")
	if line == "" {
		return ""
	}
	var b strings.Builder
	for _, w := range strings.Split(line, " ") {
		b.WriteString(strings.ReplaceAll(pyStrip(w), "\u0361", "^"))
		b.WriteByte(' ')
	}
	return b.String()
}

// restoreMarks puts the marks back between the pieces' phonemes (the phonemizer package's
// Punctuation.restore for one line, words separated by a space, not stripped).
func restoreMarks(text []string, marks []mark) []string {
	var out []string
	withSpace := func(s string) string {
		if strings.HasSuffix(s, " ") {
			return s
		}
		return s + " "
	}
	for len(text) > 0 || len(marks) > 0 {
		switch {
		case len(marks) == 0:
			for _, line := range text {
				out = append(out, withSpace(line))
			}
			text = nil
		case len(text) == 0:
			var b strings.Builder
			for _, m := range marks {
				b.WriteString(m.text)
			}
			out = append(out, b.String())
			marks = nil
		default:
			m := marks[0]
			marks = marks[1:]
			text[0] = strings.TrimSuffix(text[0], " ")
			switch m.pos {
			case 'B':
				text[0] = m.text + text[0]
			case 'E':
				out = append(out, text[0]+withSpace(m.text))
				text = text[1:]
			case 'A':
				out = append(out, withSpace(m.text))
			default:
				if len(text) == 1 {
					text[0] += m.text
				} else {
					text = append([]string{text[0] + m.text + text[1]}, text[2:]...)
				}
			}
		}
	}
	return out
}

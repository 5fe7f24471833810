package markup

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Lexicon is a pronunciation lexicon, as Amazon Polly's PutLexicon takes them (W3C's
// Pronunciation Lexicon Specification, PLS 1.0): graphemes, each read with phonemes (IPA or
// X-SAMPA, converted to Kokoro's symbols) or replaced by an alias. An entry wins over the
// phonemizer's dictionaries. Graphemes match whole words, case-sensitively, the longest first.
type Lexicon struct {
	Name string
	// byFirst indexes the entries by their grapheme's first word, longest grapheme first.
	byFirst map[string][]lexeme
	n       int
}

type lexeme struct {
	grapheme, phonemes, alias string
}

// Len is the number of graphemes the lexicon has.
func (l *Lexicon) Len() int { return l.n }

// ErrLexicon is the error every refusal of a lexicon file wraps; its message names the file
// and the line.
var ErrLexicon = errors.New("invalid lexicon")

// lexiconName is Polly's rule for a lexicon's name.
var lexiconName = regexp.MustCompile(`^[0-9A-Za-z]{1,20}$`)

// plsNS is the PLS namespace.
const plsNS = "http://www.w3.org/2005/01/pronunciation-lexicon"

// maxLexiconBytes bounds a lexicon file: Polly's limit is 4,000 characters of content, which
// this leaves room for many times over.
const maxLexiconBytes = 4 << 20

func newLexicon(name string) *Lexicon { return &Lexicon{Name: name, byFirst: map[string][]lexeme{}} }

func (l *Lexicon) add(e lexeme) {
	k := firstWord(e.grapheme)
	list := append(l.byFirst[k], e)
	sort.SliceStable(list, func(i, j int) bool { return len(list[i].grapheme) > len(list[j].grapheme) })
	l.byFirst[k] = list
	l.n++
}

// ParsePLS reads a PLS document; file names it in errors.
func ParsePLS(name, file string, b []byte) (*Lexicon, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	fail := func(format string, a ...any) error {
		line, _ := dec.InputPos()
		return fmt.Errorf("%w: %s:%d: %s", ErrLexicon, file, line, fmt.Sprintf(format, a...))
	}
	lx := newLexicon(name)
	alphabet := "ipa"
	var cur *struct {
		graphemes       []string
		phoneme, alias  string
		phLine          int
		hasPh, hasAlias bool
	}
	var text strings.Builder
	depth, root := 0, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("%w: %s:%d: %s", ErrLexicon, file, se.Line, se.Msg)
			}
			return nil, fail("%v", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, fail("DTDs and entity declarations are not allowed")
		case xml.StartElement:
			depth++
			if depth > 8 {
				return nil, fail("elements nested deeper than 8")
			}
			if t.Name.Space != plsNS && t.Name.Space != "" {
				return nil, fail("<%s:%s> is not a PLS element", t.Name.Space, t.Name.Local)
			}
			text.Reset()
			switch t.Name.Local {
			case "lexicon":
				if root {
					return nil, fail("<lexicon> inside <lexicon>")
				}
				root = true
				for _, a := range t.Attr {
					if a.Name.Local == "alphabet" {
						alphabet = a.Value
					}
				}
				if alphabet != "ipa" && alphabet != "x-sampa" {
					return nil, fail("alphabet %q is not supported; alphabets: ipa, x-sampa", alphabet)
				}
			case "lexeme":
				if !root || cur != nil {
					return nil, fail("<lexeme> outside <lexicon> or inside another")
				}
				cur = &struct {
					graphemes       []string
					phoneme, alias  string
					phLine          int
					hasPh, hasAlias bool
				}{}
			case "grapheme", "phoneme", "alias", "example", "meta", "metadata":
				if cur == nil && t.Name.Local != "meta" && t.Name.Local != "metadata" {
					return nil, fail("<%s> outside <lexeme>", t.Name.Local)
				}
			default:
				return nil, fail("<%s> is not a PLS element; elements: lexicon, lexeme, grapheme, phoneme, alias, example, meta, metadata", t.Name.Local)
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			depth--
			v := strings.Join(strings.Fields(text.String()), " ")
			switch t.Name.Local {
			case "grapheme":
				if v == "" {
					return nil, fail("<grapheme> is empty")
				}
				cur.graphemes = append(cur.graphemes, v)
			case "phoneme":
				if !cur.hasPh {
					ps, err := phonemesOf(v, alphabet)
					if err != nil {
						return nil, fail("%v", err)
					}
					cur.phoneme, cur.hasPh = ps, true
				}
			case "alias":
				if !cur.hasAlias {
					if v == "" {
						return nil, fail("<alias> is empty")
					}
					cur.alias, cur.hasAlias = v, true
				}
			case "lexeme":
				if len(cur.graphemes) == 0 {
					return nil, fail("<lexeme> has no <grapheme>")
				}
				if !cur.hasPh && !cur.hasAlias {
					return nil, fail("<lexeme> for %q has neither <phoneme> nor <alias>", cur.graphemes[0])
				}
				for _, g := range cur.graphemes {
					e := lexeme{grapheme: g}
					if cur.hasPh {
						e.phonemes = cur.phoneme
					} else {
						e.alias = cur.alias
					}
					lx.add(e)
				}
				cur = nil
			}
			text.Reset()
		}
	}
	if !root {
		return nil, fmt.Errorf("%w: %s:1: no <lexicon> element", ErrLexicon, file)
	}
	return lx, nil
}

// jsonLexicon is a lexicon's JSON form: the alphabet of its phonemes, and its entries, each a
// grapheme with a phoneme or an alias.
//
//	{"alphabet": "ipa", "lexemes": [{"grapheme": "Kokoro", "phoneme": "kˈOkəɹO"},
//	                                {"grapheme": "W3C", "alias": "World Wide Web Consortium"}]}
type jsonLexicon struct {
	Alphabet string `json:"alphabet"`
	Lexemes  []struct {
		Grapheme string `json:"grapheme"`
		Phoneme  string `json:"phoneme"`
		Alias    string `json:"alias"`
	} `json:"lexemes"`
}

// ParseLexiconJSON reads a lexicon's JSON form; file names it in errors, with the line of the
// entry at fault.
func ParseLexiconJSON(name, file string, b []byte) (*Lexicon, error) {
	lineAt := func(off int64) int { return 1 + bytes.Count(b[:min(int(off), len(b))], []byte("\n")) }
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var in jsonLexicon
	if err := dec.Decode(&in); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		off := dec.InputOffset()
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		}
		return nil, fmt.Errorf("%w: %s:%d: %v", ErrLexicon, file, lineAt(off), err)
	}
	if in.Alphabet == "" {
		in.Alphabet = "ipa"
	}
	if in.Alphabet != "ipa" && in.Alphabet != "x-sampa" {
		return nil, fmt.Errorf("%w: %s:1: alphabet %q is not supported; alphabets: ipa, x-sampa", ErrLexicon, file, in.Alphabet)
	}
	// The line of each entry, for its errors: where its grapheme is written.
	lx := newLexicon(name)
	from := 0
	for i, e := range in.Lexemes {
		quoted, _ := json.Marshal(e.Grapheme)
		at := bytes.Index(b[from:], quoted)
		line := lineAt(int64(from + max(at, 0)))
		if at >= 0 {
			from += at + len(quoted)
		}
		fail := func(format string, a ...any) error {
			return fmt.Errorf("%w: %s:%d: lexeme %d: %s", ErrLexicon, file, line, i, fmt.Sprintf(format, a...))
		}
		g := strings.Join(strings.Fields(e.Grapheme), " ")
		if g == "" {
			return nil, fail("no grapheme")
		}
		switch {
		case e.Phoneme != "" && e.Alias != "":
			return nil, fail("%q has both a phoneme and an alias; give one", g)
		case e.Phoneme != "":
			ps, err := phonemesOf(e.Phoneme, in.Alphabet)
			if err != nil {
				return nil, fail("%v", err)
			}
			lx.add(lexeme{grapheme: g, phonemes: ps})
		case strings.TrimSpace(e.Alias) != "":
			lx.add(lexeme{grapheme: g, alias: strings.Join(strings.Fields(e.Alias), " ")})
		default:
			return nil, fail("%q has neither a phoneme nor an alias", g)
		}
	}
	return lx, nil
}

// LoadLexicons reads every lexicon in dir: PLS files (.pls, .xml) and the JSON form (.json),
// each named by its file name without the extension (Polly's names: 1 to 20 letters and
// digits). A file that is not a valid lexicon is an error naming it and the line.
func LoadLexicons(dir string) (map[string]*Lexicon, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("lexicons: %w", err)
	}
	out := map[string]*Lexicon{}
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || ext != ".pls" && ext != ".xml" && ext != ".json" {
			continue
		}
		file := filepath.Join(dir, e.Name())
		name := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
		if !lexiconName.MatchString(name) {
			return nil, fmt.Errorf("%w: %s:1: the name %q is not 1 to 20 letters and digits", ErrLexicon, file, name)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%w: %s:1: a lexicon named %q is loaded already", ErrLexicon, file, name)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("lexicons: %w", err)
		}
		if len(b) > maxLexiconBytes {
			return nil, fmt.Errorf("%w: %s:1: %d bytes, the limit is %d", ErrLexicon, file, len(b), maxLexiconBytes)
		}
		if !utf8.Valid(b) {
			return nil, fmt.Errorf("%w: %s:1: not UTF-8", ErrLexicon, file)
		}
		var lx *Lexicon
		if ext == ".json" {
			lx, err = ParseLexiconJSON(name, file, b)
		} else {
			lx, err = ParsePLS(name, file, b)
		}
		if err != nil {
			return nil, err
		}
		out[name] = lx
	}
	return out, nil
}

// isWordRune reports whether r is part of a word, for matching graphemes as whole words.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’'
}

// firstWord is s up to its first rune that is not part of a word (all of s when none is).
func firstWord(s string) string {
	if i := strings.IndexFunc(s, func(r rune) bool { return !isWordRune(r) }); i > 0 {
		return s[:i]
	}
	return s
}

// ApplyLexicons reads the text the document writes (not what a tag renders) with lexicons,
// the first that has a grapheme winning: a grapheme with phonemes is spoken with them, one
// with an alias is replaced by it.
func (d *Doc) ApplyLexicons(lxs []*Lexicon) {
	if len(lxs) == 0 {
		return
	}
	var out []Item
	for _, it := range d.Items {
		if it.Kind != KindText || !it.Exact || it.Phonemes != "" {
			out = append(out, it)
			continue
		}
		out = append(out, lexiconItems(it, lxs)...)
	}
	d.Items = out
}

// lexiconItems splits a text item around the graphemes the lexicons have.
func lexiconItems(it Item, lxs []*Lexicon) []Item {
	var out []Item
	text, last := it.Text, 0
	part := func(a, b int) Item {
		p := it
		p.Text, p.Src = text[a:b], Span{it.Src.Start + a, it.Src.Start + b}
		return p
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		prev, _ := utf8.DecodeLastRuneInString(text[:i])
		if !isWordRune(r) || i > 0 && isWordRune(prev) {
			i += size
			continue
		}
		e, n := lookup(lxs, text[i:])
		if n == 0 {
			i += size
			continue
		}
		if i > last {
			out = append(out, part(last, i))
		}
		m := part(i, i+n)
		if e.phonemes != "" {
			m.Phonemes = e.phonemes
		} else {
			m.Text, m.Exact = e.alias, false
		}
		out = append(out, m)
		i += n
		last = i
	}
	if last < len(text) {
		out = append(out, part(last, len(text)))
	}
	return out
}

// lookup finds the entry whose grapheme starts s as whole words, in the first lexicon that has
// one; n is its length, 0 for none.
func lookup(lxs []*Lexicon, s string) (lexeme, int) {
	k := firstWord(s)
	for _, lx := range lxs {
		for _, e := range lx.byFirst[k] {
			if !strings.HasPrefix(s, e.grapheme) {
				continue
			}
			if next, _ := utf8.DecodeRuneInString(s[len(e.grapheme):]); len(s) > len(e.grapheme) && isWordRune(next) {
				continue
			}
			return e, len(e.grapheme)
		}
	}
	return lexeme{}, 0
}

// PlainDoc is a plain text as a document of one text item, so that lexicons and speech marks
// apply to it as to SSML.
func PlainDoc(text string) *Doc {
	return &Doc{Source: text, Items: []Item{{Kind: KindText, Text: text, Src: Span{0, len(text)}, Exact: true, Style: Style{Rate: 1}}}}
}

package ja

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome/v2/tokenizer"
	"golang.org/x/text/unicode/norm"
)

// Files are the files Load reads from its directory, as `make setup` writes them: kagome's
// UniDic 2.1.2 dictionary and misaki's list of Japanese words.
var Files = []string{"uni.dict", "ja_words.txt"}

// G2P reads Japanese. It loads its dictionary on first use and is safe for concurrent use.
type G2P struct {
	dir   string
	once  sync.Once
	tok   *tokenizer.Tokenizer
	d     *dict.Dict
	prons []string // each dictionary word's pronunciation (発音形), by its id
	words map[string]bool
	err   error
}

// New returns a G2P whose files are in dir (Files).
func New(dir string) *G2P { return &G2P{dir: dir} }

// Load reads the dictionary and the word list now, if they are not read yet.
func (g *G2P) Load() error {
	g.once.Do(func() {
		d, err := dict.LoadDictFile(filepath.Join(g.dir, "uni.dict"))
		if err != nil {
			g.err = fmt.Errorf("japanese dictionary: %w (run `make setup`)", err)
			return
		}
		g.d, g.prons = d, pronunciations(d)
		if g.tok, err = tokenizer.New(d, tokenizer.OmitBosEos()); err != nil {
			g.err = err
			return
		}
		g.words, g.err = loadWords(filepath.Join(g.dir, "ja_words.txt"))
	})
	return g.err
}

// pronIndex is the index of the pronunciation (発音形出現形) in a UniDic word's features.
const pronIndex = 9

// pronunciations keeps each known word's pronunciation, the one feature the reader uses, and
// drops the rest of the dictionary's contents: they hold 375 MB once loaded, the
// pronunciations a few tens.
func pronunciations(d *dict.Dict) []string {
	prons := make([]string, len(d.Contents))
	seen := map[string]string{}
	for id, c := range d.Contents {
		// The features are the part of speech (POSTable) followed by the contents.
		k := pronIndex - len(d.POSTable.POSs[id])
		if k < 0 || k >= len(c) {
			continue
		}
		p, ok := seen[c[k]]
		if !ok {
			p = strings.Clone(c[k])
			seen[p] = p
		}
		prons[id] = p
	}
	d.Contents = nil
	return prons
}

func loadWords(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("japanese word list: %w (run `make setup`)", err)
	}
	defer f.Close()
	words := make(map[string]bool, 150_000)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		words[pyStrip(sc.Text())] = true
	}
	return words, sc.Err()
}

// MeCab's character types, by the order of UniDic's char.def.
const (
	typeSymbol   = 3
	typeHiragana = 6
	typeKatakana = 7
)

// word is a word of the analysis: its surface, its reading in hiragana, and its character
// type (typeHiragana for every known word and every katakana one, as the reference counts).
type word struct {
	surface, hira string
	charType      int
}

// Phonemize is the reference's phoneme string for text.
func (g *G2P) Phonemize(text string) (string, error) {
	if err := g.Load(); err != nil {
		return "", err
	}
	if text == "" {
		return "", nil
	}
	words := g.analyse(normalize(text))
	return tidy(g.romanize(g.group(words))), nil
}

// analyse cuts text into words with kagome, as MeCab with UniDic cuts it: white space is not
// a word, and a run of Latin letters that kagome reads letter by letter is one unknown word.
func (g *G2P) analyse(text string) []word {
	var out []word
	latin := false // the last word is a run of Latin letters, and nothing lay between
	pos := 0
	for _, t := range g.tok.Tokenize(text) {
		gap := t.Position > pos
		pos = t.Position + len(t.Surface)
		if strings.TrimSpace(t.Surface) == "" {
			latin = false
			continue
		}
		if isLatin(t.Surface) {
			if latin && !gap && len(out) > 0 {
				out[len(out)-1].surface += t.Surface
				out[len(out)-1].hira += t.Surface
				continue
			}
			out = append(out, word{surface: t.Surface, hira: t.Surface, charType: 5})
			latin = true
			continue
		}
		latin = false
		w := word{surface: t.Surface, charType: typeHiragana}
		reading := t.Surface
		if t.Class == tokenizer.UNKNOWN {
			r, _ := utf8.DecodeRuneInString(t.Surface)
			if c := int(g.d.CharacterCategory(r)); c != typeKatakana {
				w.charType = c
			}
		} else if t.ID < len(g.prons) && g.prons[t.ID] != "" {
			reading = g.prons[t.ID]
		}
		w.hira = kataToHira(reading)
		out = append(out, w)
	}
	return out
}

func isLatin(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// kataToHira writes katakana as hiragana (jaconv's kata2hira): ァ to ヶ, ヽ and ヾ.
func kataToHira(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'ァ' && r <= 'ヶ':
			return r - 0x60
		case r == 'ヽ', r == 'ヾ':
			return r - 0x60
		}
		return r
	}, s)
}

// smallKatakana are the katakana phonetic extensions (ㇰ to ㇿ) and the kana they stand for.
var smallKatakana = strings.NewReplacer(
	"ㇰ", "ク", "ㇱ", "シ", "ㇲ", "ス", "ㇳ", "ト", "ㇴ", "ヌ", "ㇵ", "ハ", "ㇶ", "ヒ", "ㇷ", "フ",
	"ㇸ", "ヘ", "ㇹ", "ホ", "ㇺ", "ム", "ㇻ", "ラ", "ㇼ", "リ", "ㇽ", "ル", "ㇾ", "レ", "ㇿ", "ロ",
)

// normalize is the reference's normalisation, digits read in kana after a space.
func normalize(text string) string {
	// A wave dash before a digit is a range: から.
	var b strings.Builder
	rs := []rune(text)
	for i, r := range rs {
		if (r == '〜' || r == '～') && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) {
			b.WriteString("から")
			continue
		}
		b.WriteRune(r)
	}
	text = smallKatakana.Replace(b.String())
	text = norm.NFKC.String(text)
	text = strings.NewReplacer("\u2018", "`", "\u2019", "'", "\u201d", "\"").Replace(text)
	b.Reset()
	rs = []rune(text)
	for i := 0; i < len(rs); {
		if !unicode.IsDigit(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		var ds []byte
		for j < len(rs) && unicode.IsDigit(rs[j]) {
			if rs[j] <= '9' {
				ds = append(ds, byte(rs[j]))
			}
			j++
		}
		if len(ds) == j-i {
			b.WriteString(" " + numberKana(string(ds)))
		} else {
			b.WriteString(string(rs[i:j])) // digits num2kana has no reading for
		}
		i = j
	}
	return b.String()
}

// group joins runs of words of one character type whose surfaces together are a word of
// misaki's list, the longest first.
func (g *G2P) group(ws []word) []word {
	var out []word
	for i := 0; i < len(ws); {
		z := i + 1
		for z < len(ws) && ws[z].charType == ws[i].charType {
			z++
		}
		j := -1
		for k := z; k > i; k-- {
			var s strings.Builder
			for _, w := range ws[i:k] {
				s.WriteString(w.surface)
			}
			if g.words[s.String()] {
				j = k
				break
			}
		}
		if j < 0 {
			out = append(out, ws[i])
			i++
			continue
		}
		m := word{charType: ws[i].charType}
		for _, w := range ws[i:j] {
			m.surface += w.surface
			m.hira += w.hira
		}
		out = append(out, m)
		i = j
	}
	return out
}

// romanize writes each word in phonemes, each followed by a space or not by the reference's
// rules for punctuation.
func (g *G2P) romanize(ws []word) string {
	type tok struct {
		s     string
		space bool
	}
	var out []*tok
	for _, w := range ws {
		roma := romanWord(w)
		t := &tok{s: roma}
		var prev *tok
		if len(out) > 0 {
			prev = out[len(out)-1]
		}
		// As in the reference, "x in 'abc'" is a substring test: an empty reading matches.
		switch {
		case strings.Contains("「『«", w.surface) || strings.Contains("([", roma):
			if prev != nil {
				prev.space = true
			}
		case strings.Contains("」』»", w.surface) || strings.Contains("]).,?!:", roma):
			if prev != nil {
				prev.space = false
			}
			t.space = true
		case roma == " ":
		default:
			t.space = true
		}
		out = append(out, t)
	}
	var b strings.Builder
	for _, t := range out {
		b.WriteString(strings.ReplaceAll(t.s, "っ", ""))
		if t.space {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// romanWord is one word's phonemes.
func romanWord(w word) string {
	if isASCII(w.surface) {
		return w.surface
	}
	if w.charType == typeSymbol {
		var b strings.Builder
		for _, r := range w.surface {
			if p, ok := kanaIPA[string(r)]; ok {
				b.WriteString(p)
			} else {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	if w.charType != typeHiragana {
		return ""
	}
	rs := []rune(w.hira)
	var b strings.Builder
	for i, r := range rs {
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		b.WriteString(kana(prev, r, next))
	}
	return b.String()
}

const sutegana = "ゃゅょぁぃぅぇぉ"

// kana is the phonemes of kana k between prev and next (0 at the ends).
func kana(prev, k, next rune) string {
	switch k {
	case 'ゝ', 'ヽ':
		if prev != 0 {
			return string(prev)
		}
		return ""
	case 'ゞ':
		if prev == 0 {
			return ""
		}
		if v, ok := dakuten(prev); ok {
			return kanaIPA[string(v)]
		}
		return ""
	case '〃', '々':
		return ""
	}
	if prev != 0 {
		if p, ok := kanaIPA[string(prev)+string(k)]; ok {
			return p
		}
	}
	if next != 0 {
		if _, ok := kanaIPA[string(k)+string(next)]; ok {
			return ""
		}
		if strings.ContainsRune(sutegana, next) {
			if k == 'っ' {
				return ""
			}
			p := []rune(kanaIPA[string(k)])
			if len(p) > 0 {
				p = p[:len(p)-1]
			}
			return string(p) + kanaIPA[string(next)]
		}
	}
	switch {
	case strings.ContainsRune(sutegana, k):
		return ""
	case k == 'ー':
		return "ː"
	case k == 'っ':
		return "ʔ"
	case k == 'ん':
		t, ok := kanaIPA[string(next)]
		if next != 0 && ok && t != "" {
			switch {
			case strings.ContainsAny(t[:1], "mpb"):
				return "m"
			case strings.HasPrefix(t, "k"), strings.HasPrefix(t, "ɡ"):
				return "ŋ"
			case strings.HasPrefix(t, "ɲ"), strings.HasPrefix(t, "ʨ"), strings.HasPrefix(t, "ʥ"):
				return "ɲ"
			case strings.HasPrefix(t, "n"), strings.HasPrefix(t, "t"), strings.HasPrefix(t, "d"),
				strings.HasPrefix(t, "ɾ"), strings.HasPrefix(t, "z"):
				return "n"
			}
		}
		return "ɴ"
	}
	return kanaIPA[string(k)]
}

// dakuten is the voiced kana of k (か → が).
func dakuten(k rune) (rune, bool) {
	const plain, voiced = "かきくけこさしすせそたちつてとはひふへほ", "がぎぐげござじずぜぞだぢづでどばびぶべぼ"
	p, v := []rune(plain), []rune(voiced)
	for i, r := range p {
		if r == k {
			return v[i], true
		}
	}
	return 0, false
}

// tidy is the reference's last step: white space collapsed and trimmed, parentheses written
// as angle quotes, and the space before a sokuon (ʔ) or after one removed, except next to
// punctuation.
func tidy(s string) string {
	s = strings.Join(strings.FieldsFunc(pyStrip(s), isPySpace), " ")
	s = strings.NewReplacer("(", "«", ")", "»").Replace(s)
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if r == ' ' {
			before := !(i > 0 && strings.ContainsRune("!\",.:;?»—…”", rs[i-1])) && i+1 < len(rs) && rs[i+1] == 'ʔ'
			after := i > 0 && rs[i-1] == 'ʔ' && !(i+1 < len(rs) && strings.ContainsRune("\"«“", rs[i+1]))
			if before || after {
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isPySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

func pyStrip(s string) string { return strings.TrimFunc(s, isPySpace) }

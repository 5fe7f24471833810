package en

import (
	"regexp"
	"strings"
	"sync"

	"github.com/kokoro-sm/kokoro/phonemize/espeak"
)

// espeakFallback reads the words no lexicon knows through espeak-ng and maps its IPA to
// Kokoro's set, as the reference's espeak-ng fallback does. Results are remembered (a bounded
// cache), since a server sees the same names again and each answer costs milliseconds
// (testdata/claims/espeak_helper.txt).
type espeakFallback struct {
	voice   *espeak.Voice
	british bool

	mu    sync.Mutex
	cache map[string]string // text → mapped phonemes; nil disables caching
}

// espeakCacheSize bounds the cache; when full it is emptied and refilled by use.
const espeakCacheSize = 8192

func (e *espeakFallback) cached(text string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ps, ok := e.cache[text]
	return ps, ok
}

func (e *espeakFallback) remember(text, ps string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cache == nil {
		return
	}
	if len(e.cache) >= espeakCacheSize {
		clear(e.cache)
	}
	e.cache[text] = ps
}

// e2m maps espeak-ng IPA (with ^ ties) to the reference's symbols, longest first.
var e2m = []struct{ from, to string }{
	{"ʔˌn\u0329", "ʔn"}, {"ʔn\u0329", "ʔn"},
	{"a^ɪ", "I"}, {"a^ʊ", "W"}, {"d^ʒ", "ʤ"}, {"e^ɪ", "A"}, {"t^ʃ", "ʧ"}, {"ɔ^ɪ", "Y"},
	{"ə^l", "ᵊl"}, {"ʲo", "jo"}, {"ʲə", "jə"},
	{"ʲ", ""}, {"ɚ", "əɹ"}, {"r", "ɹ"}, {"x", "k"}, {"ç", "k"}, {"ɐ", "ə"}, {"ɬ", "l"},
	{"\u0303", ""}, {"e", "A"},
}

var syllabicRe = regexp.MustCompile("(\\S)\u0329")

// espeakMarks are kept through espeak-ng as they are, the text between them read piecewise, so
// that "3:30" reads "three:thirty" as it does in the reference.
var espeakMarks = regexp.MustCompile(`(?:\s*[;:,.!?¡¿—…"«»“”(){}\[\]]+\s*)+`)

func (e *espeakFallback) phonemize(text string) (string, bool) {
	if strings.TrimSpace(text) == "" {
		return "", false
	}
	if ps, ok := e.cached(text); ok {
		return ps, true
	}
	ps, ok := e.phonemizeUncached(text)
	if ok {
		e.remember(text, ps)
	}
	return ps, ok
}

func (e *espeakFallback) phonemizeUncached(text string) (string, bool) {
	return e.assemble(text, e.voice.Read)
}

// assemble reads text piecewise between the punctuation marks that espeak-ng keeps, each piece
// through run, and maps the result to Kokoro's symbols.
func (e *espeakFallback) assemble(text string, run func(string) (string, bool)) (string, bool) {
	var b strings.Builder
	last := 0
	any := false
	for _, m := range espeakMarks.FindAllStringIndex(text, -1) {
		if seg := text[last:m[0]]; strings.TrimSpace(seg) != "" {
			ps, ok := run(seg)
			if !ok {
				return "", false
			}
			b.WriteString(ps)
			any = true
		}
		b.WriteString(text[m[0]:m[1]])
		last = m[1]
	}
	if seg := text[last:]; strings.TrimSpace(seg) != "" {
		ps, ok := run(seg)
		if !ok {
			return "", false
		}
		b.WriteString(ps)
		any = true
	}
	if !any {
		// Marks alone come back as they are (an untagged "[" stays "["), as through the
		// reference's espeak-ng call, which keeps them.
		if marks := strings.TrimSpace(b.String()); marks != "" {
			return marks, true
		}
		return "", false
	}
	return e.mapIPA(strings.TrimSpace(b.String())), true
}

// prefetch reads the texts not yet cached in one exchange with the long-lived process and
// caches them, so that a sentence with several unknown words waits for espeak-ng once rather
// than once per word. Texts it cannot read this way are left to phonemize.
func (e *espeakFallback) prefetch(texts []string) {
	e.mu.Lock()
	caching := e.cache != nil
	e.mu.Unlock()
	if !caching {
		return
	}
	var todo []string
	var segs []string
	seen := map[string]bool{}
	for _, t := range texts {
		if strings.TrimSpace(t) == "" || seen[t] {
			continue
		}
		seen[t] = true
		if _, ok := e.cached(t); ok {
			continue
		}
		todo = append(todo, t)
		e.assemble(t, func(seg string) (string, bool) {
			segs = append(segs, strings.Join(strings.Fields(seg), " "))
			return "", true
		})
	}
	var batch []string
	for _, s := range segs {
		if espeak.Answerable(s) && !seen[" "+s] {
			seen[" "+s] = true
			batch = append(batch, s)
		}
	}
	if len(batch) == 0 {
		return
	}
	answers, err := e.voice.ReadMany(batch)
	if err != nil {
		return
	}
	got := make(map[string]string, len(batch))
	for i, s := range batch {
		got[s] = answers[i]
	}
	for _, t := range todo {
		ps, ok := e.assemble(t, func(seg string) (string, bool) {
			a, ok := got[strings.Join(strings.Fields(seg), " ")]
			return a, ok
		})
		if ok {
			e.remember(t, ps)
		}
	}
}

// mapIPA converts espeak-ng IPA to Kokoro's phoneme set as the reference does.
func (e *espeakFallback) mapIPA(ps string) string {
	for _, m := range e2m {
		ps = strings.ReplaceAll(ps, m.from, m.to)
	}
	ps = syllabicRe.ReplaceAllString(ps, "ᵊ$1")
	ps = strings.ReplaceAll(ps, "\u0329", "")
	if e.british {
		// One after another, as the reference applies them.
		ps = strings.ReplaceAll(ps, "e^ə", "ɛː")
		ps = strings.ReplaceAll(ps, "iə", "ɪə")
		ps = strings.ReplaceAll(ps, "ə^ʊ", "Q")
	} else {
		ps = strings.ReplaceAll(ps, "o^ʊ", "O")
		ps = strings.ReplaceAll(ps, "ɜːɹ", "ɜɹ")
		ps = strings.ReplaceAll(ps, "ɜː", "ɜɹ")
		ps = strings.ReplaceAll(ps, "ɪə", "iə")
		ps = strings.ReplaceAll(ps, "ː", "")
	}
	ps = strings.ReplaceAll(ps, "o", "ɔ")
	ps = v10Replacer.Replace(ps)
	return strings.ReplaceAll(ps, "^", "")
}

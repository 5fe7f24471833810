package phonemize

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize/en"
	"github.com/kokoro-sm/kokoro/phonemize/espeak"
	"github.com/kokoro-sm/kokoro/phonemize/ja"
	"github.com/kokoro-sm/kokoro/phonemize/zh"
)

// reader reads one paragraph of one language: its phoneme string and its words, each word's
// phonemes and the whitespace after it, which the chunker cuts between.
type reader interface {
	read(text string) (string, []*word, error)
}

// word is one word or punctuation mark as a reader read it.
type word struct {
	text string // source text; "" for a reading with no text of its own
	tag  string // Penn Treebank tag, for English
	ps   string // phonemes
	ws   string // whitespace that followed it in the source ("" or " ")
}

// englishReader is the English G2P as a reader.
type englishReader struct {
	g  *en.G2P
	d  en.Dialect
	sw en.Switches
}

func (r englishReader) read(text string) (string, []*word, error) {
	ps, ws := r.g.ReadWith(text, r.d, r.sw)
	words := make([]word, len(ws))
	out := make([]*word, len(ws))
	for i, w := range ws {
		words[i] = word{text: w.Text, tag: w.Tag, ps: w.Phonemes, ws: w.Space}
		out[i] = &words[i]
	}
	return ps, out, nil
}

// readerFor returns the reader of lang: the English G2P for English, espeak-ng for the
// languages the reference reads through it. A language this build does not speak is an error
// wrapping ErrUnsupportedLang.
func (p *Phonemizer) readerFor(lang string) (reader, error) {
	if isEnglish(lang) {
		d, err := dialect(lang)
		if err != nil {
			return nil, err
		}
		return englishReader{p.en, d, p.sw}, nil
	}
	l, ok := lookupLang(lang)
	if !ok || !l.speaks {
		_, err := ParseLang(lang)
		return nil, err
	}
	if l.espeak != "" {
		if !p.espeak.Library {
			return nil, fmt.Errorf("%w %q: it is read by espeak-ng's library, which is not loaded (install espeak-ng)",
				ErrUnsupportedLang, l.Code)
		}
		return espeakReader{lang: l, e: espeak.NewReader(l.espeak)}, nil
	}
	if l.Code == "ja" && p.ja != nil {
		if err := p.ja.Load(); err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrUnsupportedLang, l.Code, err)
		}
		return jaReader{p.ja}, nil
	}
	if l.Code == "zh" && p.zh != nil {
		if err := p.zh.Load(); err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrUnsupportedLang, l.Code, err)
		}
		return zhReader{p.zh}, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnsupportedLang, l.Code)
}

// jaReader reads Japanese (package ja) and cuts the phonemes into words for the chunker.
type jaReader struct{ g *ja.G2P }

func (r jaReader) read(text string) (string, []*word, error) {
	ps, err := r.g.Phonemize(text)
	if err != nil || ps == "" {
		return "", nil, err
	}
	return ps, wordTokens(text, ps), nil
}

// zhReader reads Mandarin (package zh) into words for the chunker.
type zhReader struct{ g *zh.G2P }

func (r zhReader) read(text string) (string, []*word, error) {
	words, err := r.g.Read(text)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	toks := make([]*word, len(words))
	for i, w := range words {
		toks[i] = &word{text: w.Text, ps: w.Phonemes, ws: w.Space}
		b.WriteString(w.Phonemes + w.Space)
	}
	return b.String(), toks, nil
}

// Preload reads the dictionaries of lang now rather than on its first request (Japanese and
// Mandarin read theirs on first use; the other languages have nothing to read). An unsupported
// lang, or missing dictionaries, is an error wrapping ErrUnsupportedLang.
func (p *Phonemizer) Preload(lang string) error {
	_, err := p.readerFor(lang)
	return err
}

// espeakReader reads a language through espeak-ng (espeak.Reader) and cuts the phonemes into
// words for the chunker.
type espeakReader struct {
	lang Language
	e    *espeak.Reader
}

// read reads text a sentence at a time where the language ends sentences with a mark that the
// phonemes do not keep (the Hindi danda): espeak-ng ends a clause there too, so the phonemes
// are the same as when the text is read whole, and the chunker sees the sentence's end on the
// word that carries the mark.
func (r espeakReader) read(text string) (string, []*word, error) {
	var all []string
	var toks []*word
	for _, part := range splitAfterAny(text, sentenceMarks(r.lang.Code)) {
		if strings.TrimSpace(part) == "" {
			continue
		}
		ps, err := r.e.Read(part)
		if err != nil {
			return "", nil, fmt.Errorf("read %s with espeak-ng: %w", r.lang.Code, err)
		}
		if ps == "" {
			continue
		}
		all = append(all, ps)
		if n := len(toks); n > 0 {
			toks[n-1].ws = " "
		}
		toks = append(toks, wordTokens(part, ps)...)
	}
	return strings.Join(all, " "), toks, nil
}

// wordTokens cuts phonemes at their spaces into words, with the text's words beside them when
// the two have as many words; else the text's phrases (cut after each punctuation mark) on
// the words that end with a mark, when the two have as many marks; else the whole text on the
// last word. Joined with their whitespace the words give ps back exactly.
func wordTokens(text, ps string) []*word {
	words := strings.Split(ps, " ")
	src := strings.Fields(text)
	toks := make([]*word, len(words))
	var marked []*word // the words whose phonemes end with a mark
	for i, w := range words {
		t := &word{ps: w, ws: " "}
		if len(src) == len(words) {
			t.text = src[i]
		}
		if w != "" && strings.ContainsRune(nonQuotePuncts, lastRune(w)) {
			marked = append(marked, t)
		}
		toks[i] = t
	}
	last := toks[len(toks)-1]
	last.ws = ""
	if len(src) == len(words) {
		return toks
	}
	phrases := splitAfterAny(strings.TrimSpace(text), nonQuotePuncts+"。、！？；：，．")
	if n := len(phrases); n > 0 && strings.TrimSpace(phrases[n-1]) == "" {
		phrases = phrases[:n-1]
	}
	if len(marked) == 0 || len(phrases) < len(marked) || len(phrases) > len(marked)+1 {
		last.text = strings.TrimSpace(text)
		return toks
	}
	for i, t := range marked {
		t.text = strings.TrimSpace(phrases[i])
	}
	if len(phrases) > len(marked) {
		last.text += strings.TrimSpace(phrases[len(marked)])
	}
	return toks
}

// splitAfterAny cuts s after each rune of marks (each piece keeps its mark); s whole when
// marks is empty.
func splitAfterAny(s, marks string) []string {
	if marks == "" {
		return []string{s}
	}
	var out []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(marks, r) {
			end := i + len(string(r))
			out = append(out, s[start:end])
			start = end
		}
	}
	return append(out, s[start:])
}

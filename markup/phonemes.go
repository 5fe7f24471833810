package markup

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// ErrPhonemes is the error of a phoneme input Kokoro cannot speak; the message names the
// symbol and where it is.
var ErrPhonemes = errors.New("invalid phonemes")

// PhonemeLang is the language a phoneme input is read in: its words are Kokoro's phonemes
// already, each read as an inline override, which the English reader takes.
const PhonemeLang = "en-us"

// FromPhonemes reads a text of Kokoro's phonemes (as /dev/phonemize returns them, or as
// Kokoro-FastAPI's generate_from_phonemes takes them) into a document: every white-space
// separated word spoken as written, its punctuation kept as punctuation, so that pauses and
// chunking follow it as they follow text. A symbol outside Kokoro's vocabulary is an error.
func FromPhonemes(ps string) (*Doc, error) {
	if !utf8.ValidString(ps) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrPhonemes)
	}
	for i, r := range ps {
		if !unicode.IsSpace(r) && !phonemize.InVocab(r) || r == '[' || r == ']' || r == '/' {
			return nil, fmt.Errorf("%w: %q at byte %d is not a symbol Kokoro speaks", ErrPhonemes, r, i)
		}
	}
	style := Style{Rate: 1, Lang: PhonemeLang}
	d := &Doc{Source: ps}
	text := func(a, b int) {
		d.Items = append(d.Items, Item{Kind: KindText, Text: ps[a:b], Src: Span{a, b}, Exact: true, Style: style})
	}
	for i := 0; i < len(ps); {
		r, size := utf8.DecodeRuneInString(ps[i:])
		if unicode.IsSpace(r) {
			j := i + size
			for j < len(ps) {
				r, n := utf8.DecodeRuneInString(ps[j:])
				if !unicode.IsSpace(r) {
					break
				}
				j += n
			}
			text(i, j)
			i = j
			continue
		}
		end := i + strings.IndexFunc(ps[i:], unicode.IsSpace)
		if end < i {
			end = len(ps)
		}
		word := ps[i:end]
		core := strings.TrimFunc(word, isPhonemePunct)
		if core == "" {
			text(i, end)
			i = end
			continue
		}
		at := i + strings.Index(word, core)
		if at > i {
			text(i, at)
		}
		d.Items = append(d.Items, Item{Kind: KindText, Text: core, Phonemes: core, Src: Span{at, at + len(core)}, Exact: true, Style: style})
		if at+len(core) < end {
			text(at+len(core), end)
		}
		i = end
	}
	return d, nil
}

// isPhonemePunct reports punctuation in Kokoro's vocabulary, which a phoneme text writes as
// text does.
func isPhonemePunct(r rune) bool {
	return strings.ContainsRune(";:,.!?¡¿—…\"«»“”()", r)
}

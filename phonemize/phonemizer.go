package phonemize

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize/en"
	"github.com/kokoro-sm/kokoro/phonemize/espeak"
	"github.com/kokoro-sm/kokoro/phonemize/internal/vocab"
	"github.com/kokoro-sm/kokoro/phonemize/ja"
	"github.com/kokoro-sm/kokoro/phonemize/zh"
)

// ErrEmptyText reports a text with nothing to speak.
var ErrEmptyText = errors.New("empty text")

// Config configures a Phonemizer.
type Config struct {
	LexiconDir string // directory with us_gold.json, us_silver.json, gb_gold.json, gb_silver.json, cmudict.dict, zh/ (zh.Files) and ja/ (ja.Files)
	// Espeak: "" = espeak-ng from PATH when installed, through its library loaded in-process
	// (its binary when the library does not load); "off" = never; else a path to the binary.
	Espeak string
}

// Phonemizer converts text to Kokoro phonemes, picking a reader per language. It is safe for
// concurrent use.
type Phonemizer struct {
	en     *en.G2P        // English, both dialects
	espeak espeak.Install // espeak-ng for English's unknown words and the languages it reads

	zh *zh.G2P // Mandarin, its dictionaries read on first use
	ja *ja.G2P // Japanese, likewise

	sw Switches // the English rewrites turned off (With)
}

// Switches turn off rewrites before English is read (telephone numbers, units after numbers,
// lone symbols); the zero value keeps them all. The other languages' readers have none.
type Switches = en.Switches

// With is p reading with sw: the same dictionaries and helpers, shared, so it costs nothing
// and is closed with p, never on its own.
func (p *Phonemizer) With(sw Switches) *Phonemizer {
	q := *p
	q.sw = sw
	return &q
}

// New loads both English dialects' lexicons and locates espeak-ng.
func New(cfg Config) (*Phonemizer, error) {
	in, errEspeak := espeak.Locate(cfg.Espeak)
	g, err := en.New(en.Config{LexiconDir: cfg.LexiconDir, Espeak: in})
	if err != nil {
		return nil, err
	}
	if errEspeak != nil {
		return nil, errEspeak
	}
	return &Phonemizer{en: g, espeak: in,
		zh: zh.New(filepath.Join(cfg.LexiconDir, "zh")), ja: ja.New(filepath.Join(cfg.LexiconDir, "ja"))}, nil
}

// Close stops the espeak-ng helper processes, if any were started. The Phonemizer stays usable
// (a later unknown word starts them again).
func (p *Phonemizer) Close() error {
	p.en.Close()
	return nil
}

// EspeakPath is the espeak-ng binary used for out-of-vocabulary words, "" when none.
func (p *Phonemizer) EspeakPath() string { return p.espeak.Bin }

// dialect is the English dialect lang names.
func dialect(lang string) (en.Dialect, error) {
	switch {
	case IsBritish(lang):
		return en.British, nil
	case isAmerican(lang):
		return en.American, nil
	}
	return 0, fmt.Errorf("unsupported language %q (want en-us or en-gb)", lang)
}

// IsBritish reports whether lang names British English ("en-gb" and its spellings).
func IsBritish(lang string) bool {
	switch strings.ToLower(lang) {
	case "en-gb", "b", "en_gb":
		return true
	}
	return false
}

func isAmerican(lang string) bool {
	switch strings.ToLower(lang) {
	case "", "en-us", "en", "a", "en_us":
		return true
	}
	return false
}

// Phonemize converts text in lang (a code of LangCodes) to one phoneme string.
func (p *Phonemizer) Phonemize(text, lang string) (string, error) {
	g, err := p.readerFor(lang)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("phonemize: %w", ErrEmptyText)
	}
	ps, _, err := g.read(text)
	return strings.TrimSpace(ps), err
}

// Tokenize maps phonemes to vocabulary ids, skipping symbols outside the vocabulary.
func Tokenize(phonemes string) []int64 { return vocab.Tokenize(phonemes) }

// Symbol returns the phoneme symbol of a vocabulary id, Tokenize's inverse.
func Symbol(id int64) (rune, bool) { return vocab.Symbol(id) }

// InVocab reports whether r is a vocabulary symbol: one id of Tokenize's.
func InVocab(r rune) bool { return vocab.Contains(r) }

// NumTokens is the size of the model's token embedding (ids are in [0, NumTokens)).
const NumTokens = vocab.NumTokens

// Silent reports whether id is punctuation or the space between words: symbols the model
// makes pauses of, where every other id is a sound of speech.
func Silent(id int64) bool { return vocab.Silent(id) }

// SpaceID is the vocabulary id of the space between two words.
var SpaceID = vocab.SpaceID

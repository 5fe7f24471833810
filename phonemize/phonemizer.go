package phonemize

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kokoro-sm/kokoro/phonemize/internal/postag"
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

// Phonemizer converts English text to Kokoro phonemes. It is safe for concurrent use.
type Phonemizer struct {
	us, gb *g2p
	espeak string // resolved binary, "" when not used
	// espeakLib: unknown words go to espeak-ng's library, loaded in this process, instead of
	// the binary (which stays the fallback); only for the espeak-ng found on PATH.
	espeakLib bool

	usEspeak, gbEspeak *espeak // nil without espeak-ng

	zh *zh.G2P // Mandarin, its dictionaries read on first use
	ja *ja.G2P // Japanese, likewise
}

// New loads both dialects' lexicons and locates espeak-ng.
func New(cfg Config) (*Phonemizer, error) {
	var us, gb *lexicon
	var cmu cmuDict
	var model *postag.Model
	var errUS, errGB, errCMU, errTagger error
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); model, errTagger = loadTagger() }()
	go func() { defer wg.Done(); us, errUS = loadLexicon(cfg.LexiconDir, false) }()
	go func() { defer wg.Done(); gb, errGB = loadLexicon(cfg.LexiconDir, true) }()
	go func() { defer wg.Done(); cmu, errCMU = loadCMU(filepath.Join(cfg.LexiconDir, "cmudict.dict")) }()
	wg.Wait()
	if err := errors.Join(errUS, errGB, errCMU, errTagger); err != nil {
		return nil, fmt.Errorf("load lexicons: %w", err)
	}
	p := &Phonemizer{zh: zh.New(filepath.Join(cfg.LexiconDir, "zh")), ja: ja.New(filepath.Join(cfg.LexiconDir, "ja"))}
	switch cfg.Espeak {
	case "off":
	case "":
		if path, err := exec.LookPath("espeak-ng"); err == nil {
			p.espeak = path
			p.espeakLib = openEspeakLib() == nil
		}
	default:
		if _, err := exec.LookPath(cfg.Espeak); err != nil {
			return nil, fmt.Errorf("espeak-ng binary %q: %w", cfg.Espeak, err)
		}
		p.espeak = cfg.Espeak
	}
	p.us = p.newG2P(us, cmu, false)
	p.gb = p.newG2P(gb, cmu, true)
	p.us.tags, p.gb.tags = tagger{model, us}, tagger{model, gb}
	return p, nil
}

func (p *Phonemizer) newG2P(lx *lexicon, cmu cmuDict, british bool) *g2p {
	g := &g2p{lx: lx}
	lts := &letterToSound{lx: lx, british: british, cmu: cmu}
	if p.espeak != "" {
		voice := "en-us"
		if british {
			voice = "en-gb"
		}
		e := &espeak{bin: p.espeak, voice: voice, british: british, cache: map[string]string{},
			proc: &espeakProc{bin: p.espeak, voice: voice}, lib: p.espeakLib}
		if british {
			p.gbEspeak = e
		} else {
			p.usEspeak = e
		}
		if !e.lib {
			// A sentence's unknown words go to the helper process together; the library
			// answers a word in tens of microseconds, so it is asked as each one comes.
			g.prefetch, g.cached = e.prefetch, e.cached
		}
		g.fallback = func(w string) (string, bool) {
			if ps, ok := e.phonemize(w); ok {
				return ps, true
			}
			return lts.phonemize(w)
		}
	} else {
		g.fallback = lts.phonemize
	}
	return g
}

// Close stops the espeak-ng helper processes, if any were started. The Phonemizer stays usable
// (a later unknown word starts them again).
func (p *Phonemizer) Close() error {
	for _, e := range []*espeak{p.usEspeak, p.gbEspeak} {
		if e != nil {
			e.proc.Close()
		}
	}
	return nil
}

// EspeakPath is the espeak-ng binary used for out-of-vocabulary words, "" when none.
func (p *Phonemizer) EspeakPath() string { return p.espeak }

func (p *Phonemizer) dialect(lang string) (*g2p, error) {
	switch {
	case IsBritish(lang):
		return p.gb, nil
	case isAmerican(lang):
		return p.us, nil
	}
	return nil, fmt.Errorf("unsupported language %q (want en-us or en-gb)", lang)
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
func Tokenize(phonemes string) []int64 {
	ids := make([]int64, 0, len(phonemes))
	for _, r := range phonemes {
		if id, ok := vocab[r]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}

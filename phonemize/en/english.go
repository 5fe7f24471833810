package en

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/kokoro-sm/kokoro/phonemize/espeak"
	"github.com/kokoro-sm/kokoro/phonemize/internal/postag"
)

// Dialect is the English a G2P reads.
type Dialect int

// The dialects misaki reads.
const (
	American Dialect = iota // en-us
	British                 // en-gb
)

// Config configures a G2P.
type Config struct {
	LexiconDir string // directory with us_gold.json, us_silver.json, gb_gold.json, gb_silver.json and cmudict.dict
	// Espeak reads the words no lexicon knows; its zero value leaves them to the built-in
	// fallback.
	Espeak espeak.Install
}

// G2P converts English text to Kokoro phonemes, in both dialects. It is safe for concurrent
// use.
type G2P struct {
	us, gb             *g2p
	usEspeak, gbEspeak *espeakFallback // nil without espeak-ng
}

// New loads both dialects' lexicons, the CMU dictionary and the tagger.
func New(cfg Config) (*G2P, error) {
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
	p := &G2P{}
	p.us, p.usEspeak = newG2P(us, cmu, cfg.Espeak, false)
	p.gb, p.gbEspeak = newG2P(gb, cmu, cfg.Espeak, true)
	p.us.tags, p.gb.tags = tagger{model, us}, tagger{model, gb}
	return p, nil
}

// newG2P is one dialect's converter, with its espeak-ng fallback when there is an install.
func newG2P(lx *lexicon, cmu cmuDict, in espeak.Install, british bool) (*g2p, *espeakFallback) {
	g := &g2p{lx: lx}
	lts := &letterToSound{lx: lx, british: british, cmu: cmu}
	if in.Bin == "" {
		g.fallback = lts.phonemize
		return g, nil
	}
	voice := "en-us"
	if british {
		voice = "en-gb"
	}
	e := &espeakFallback{voice: in.Voice(voice), british: british, cache: map[string]string{}}
	if e.voice.Batches() {
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
	return g, e
}

// Close stops the espeak-ng helper processes, if any were started. The G2P stays usable (a
// later unknown word starts them again).
func (p *G2P) Close() {
	for _, e := range []*espeakFallback{p.usEspeak, p.gbEspeak} {
		if e != nil {
			e.voice.Close()
		}
	}
}

// Word is one word or punctuation mark of a reading.
type Word struct {
	Text     string // the source text ("" for a reading with no text of its own)
	Tag      string // Penn Treebank tag from the tagger
	Phonemes string
	Space    string // whitespace that followed it in the source ("" or " ")
}

// Read converts one text in dialect d: its phoneme string and its words.
func (p *G2P) Read(text string, d Dialect) (string, []Word) { return p.ReadWith(text, d, Switches{}) }

// ReadWith is Read with some of the rewrites before reading turned off.
func (p *G2P) ReadWith(text string, d Dialect, sw Switches) (string, []Word) {
	g := p.us
	if d == British {
		g = p.gb
	}
	ps, toks := g.convert(text, sw)
	words := make([]Word, len(toks))
	for i, t := range toks {
		words[i] = Word{Text: t.text, Tag: t.tag, Phonemes: t.ps, Space: t.ws}
	}
	return ps, words
}

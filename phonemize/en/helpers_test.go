package en

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/espeak"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// loaded is a G2P loaded once for the whole test binary, with the espeak-ng it reads through.
type loaded struct {
	once sync.Once
	g    *G2P
	in   espeak.Install
	err  error
}

var (
	shared  loaded // espeak-ng from PATH, through its library when it loads
	offline loaded // the built-in fallback only: fast and deterministic
)

func (l *loaded) get(t testing.TB, spec string) (*G2P, espeak.Install) {
	t.Helper()
	l.once.Do(func() { l.g, l.in, l.err = newG2PFor(t, spec) })
	if l.err != nil {
		t.Fatal(l.err)
	}
	return l.g, l.in
}

// newG2PFor loads a G2P with espeak-ng as spec names it (espeak.Locate: "" from PATH, "off",
// or a binary's path), as package phonemize does.
func newG2PFor(t testing.TB, spec string) (*G2P, espeak.Install, error) {
	in, err := espeak.Locate(spec)
	if err != nil {
		return nil, in, err
	}
	g, err := New(Config{LexiconDir: testenv.Assets(t).Lexicon, Espeak: in})
	return g, in, err
}

// testPhonemizer is the shared G2P, with espeak-ng when it is installed.
func testPhonemizer(t testing.TB) *G2P {
	g, _ := shared.get(t, "")
	return g
}

// offlinePhonemizer is the shared G2P that reads with the built-in fallback only.
func offlinePhonemizer(t testing.TB) *G2P {
	g, _ := offline.get(t, "off")
	return g
}

// requireEspeak returns the shared G2P when it found espeak-ng (see corpus.RequireEspeak).
func requireEspeak(t *testing.T) *G2P {
	t.Helper()
	g, in := shared.get(t, "")
	corpus.RequireEspeak(t, in.Bin)
	return g
}

var errEmptyText = errors.New("empty text")

// Phonemize reads text in the dialect lang names ("en-gb"; anything else American) into one
// phoneme string, as package phonemize's Phonemizer.Phonemize does for English.
func (p *G2P) Phonemize(text, lang string) (string, error) {
	if strings.TrimSpace(text) == "" {
		return "", errEmptyText
	}
	d := American
	if lang == "en-gb" {
		d = British
	}
	ps, _ := p.Read(text, d)
	return strings.TrimSpace(ps), nil
}

// dialect is the converter of the dialect lang names, as Phonemize picks it.
func (p *G2P) dialect(lang string) (*g2p, error) {
	if lang == "en-gb" {
		return p.gb, nil
	}
	return p.us, nil
}

package phonemize

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

var (
	sharedOnce sync.Once
	sharedP    *Phonemizer
	sharedErr  error
)

// requireEspeak returns the shared phonemizer when it found espeak-ng (see corpus.RequireEspeak).
func requireEspeak(t *testing.T) *Phonemizer {
	t.Helper()
	p := testPhonemizer(t)
	corpus.RequireEspeak(t, p.EspeakPath())
	return p
}

// testPhonemizer loads the lexicons once for the whole test binary.
func testPhonemizer(t testing.TB) *Phonemizer {
	t.Helper()
	p := testenv.Assets(t)
	sharedOnce.Do(func() { sharedP, sharedErr = New(Config{LexiconDir: p.Lexicon}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedP
}

func TestPhonemizeBasics(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	cases := []struct {
		text, lang, want string
	}{
		{"Hello, world.", "en-us", "həlˈO, wˈɜɹld."},
		{"[Kokoro](/kˈOkəɹO/) is a model.", "en-us", "kˈOkəɹO ɪz ɐ mˈɑdᵊl."},
		{"The apple.", "en-us", "ði ˈæpᵊl."},
		{"The pear.", "en-us", "ðə pˈɛɹ."},
	}
	for _, c := range cases {
		t.Run(corpus.CaseName(c.text), func(t *testing.T) {
			got, err := p.Phonemize(c.text, c.lang)
			if err != nil {
				t.Fatalf("Phonemize(%q): %v", c.text, err)
			}
			if got != c.want {
				t.Errorf("Phonemize(%q, %s) = %q, want %q", c.text, c.lang, got, c.want)
			}
		})
	}
}

func TestEmptyText(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, s := range []string{"", "   ", "\n\t"} {
		if _, err := p.Phonemize(s, ""); !errors.Is(err, ErrEmptyText) {
			t.Errorf("Phonemize(%q) error = %v, want ErrEmptyText", s, err)
		}
		if _, err := p.Pieces(s, ""); !errors.Is(err, ErrEmptyText) {
			t.Errorf("Pieces(%q) error = %v, want ErrEmptyText", s, err)
		}
	}
}

func TestMissingLexicon(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := New(Config{LexiconDir: dir})
	if err == nil {
		t.Fatal("New with an empty lexicon directory succeeded")
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, "us_gold.json")) || !strings.Contains(err.Error(), "make setup") {
		t.Errorf("error %q should name the missing file and `make setup`", err)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %q should wrap os.ErrNotExist", err)
	}
}

func TestLangForVoice(t *testing.T) {
	t.Parallel()
	for voice, want := range map[string]string{"af_heart": "en-us", "am_adam": "en-us", "bf_emma": "en-gb", "bm_george": "en-gb", "zf_x": "zh", "ef_dora": "es", "pm_alex": "pt-br", "custom": "en-us", "": "en-us"} {
		if got := LangForVoice(voice); got != want {
			t.Errorf("LangForVoice(%q) = %q, want %q", voice, got, want)
		}
	}
}

func TestTokenize(t *testing.T) {
	t.Parallel()
	got := Tokenize("hˈə ❓")
	want := []int64{50, 156, 83, 16}
	if len(got) != len(want) {
		t.Fatalf("Tokenize = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Tokenize = %v, want %v", got, want)
		}
	}
}

// TestConcurrentUse runs many conversions at once (run with -race): the lexicons are shared
// read-only and the espeak-ng helper is serialised.
func TestConcurrentUse(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	texts := []string{"The quokka read 3 books.", "Siobhan paid £4.50 at 3:30.", "They record a record; well-known!"}
	want := make([]string, len(texts))
	for i, s := range texts {
		ps, err := p.Phonemize(s, LangForVoice([]string{"af", "bf", "am"}[i]))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = ps
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				i := (g + k) % len(texts)
				got, err := p.Phonemize(texts[i], LangForVoice([]string{"af", "bf", "am"}[i]))
				if err != nil || got != want[i] {
					t.Errorf("concurrent Phonemize(%q) = %q, %v; want %q", texts[i], got, err, want[i])
					return
				}
				if _, err := p.Pieces(texts[i], ""); err != nil {
					t.Errorf("concurrent Pieces: %v", err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestEspeakLeavesNoGoroutine: callers' tests verify that no goroutine outlives them, so the
// long-lived espeak-ng helper must not keep one.
func TestEspeakLeavesNoGoroutine(t *testing.T) {
	paths := testenv.Assets(t)
	requireEspeak(t)
	before := goleak.IgnoreCurrent()
	p, err := New(Config{LexiconDir: paths.Lexicon})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Phonemize("Quokkas and Siobhan.", "en-us"); err != nil || got == "" {
		t.Fatalf("Phonemize = %q, %v", got, err)
	}
	goleak.VerifyNone(t, before)
	p.Close()
}

// TestWithSwitches: a phonemizer With switches reads English with those rewrites off, the
// phonemizer it came from is unchanged.
func TestWithSwitches(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	read := func(p *Phonemizer, text, lang string) string {
		t.Helper()
		ps, err := p.Phonemize(text, lang)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	def := read(p, "It is 5 km away.", "en-us")
	off := read(p.With(Switches{UnitsOff: true}), "It is 5 km away.", "en-us")
	if def == off || read(p, "It is 5 km away.", "en-us") != def {
		t.Errorf("units on %q, off %q: want them to differ and the original unchanged", def, off)
	}
	if a, b := read(p, "Call 555-0134.", "en-gb"), read(p.With(Switches{PhonesOff: true}), "Call 555-0134.", "en-gb"); a == b {
		t.Errorf("phones on and off both read %q", a)
	}
}

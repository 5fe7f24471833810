package markup

import (
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// TestRealCorpusPhonemes reads the corpus cases that list phonemes through the real
// phonemizer (lexicons of make setup, no espeak-ng): spelled codes, numbers, dates, phone
// numbers, aliases and phoneme overrides are spoken as the tag says, not as the text is
// written.
func TestRealCorpusPhonemes(t *testing.T) {
	paths := testenv.Assets(t)
	p, err := phonemize.New(phonemize.Config{LexiconDir: paths.Lexicon, Espeak: "off"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, cases := readCorpus(t)
	checked := 0
	for _, c := range cases {
		if len(c.phonemes) == 0 {
			continue
		}
		d, err := Parse(c.doc)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		segs := d.Segments()
		if len(segs) != len(c.phonemes) {
			t.Errorf("%s: %d segments, %d phoneme lines", c.name, len(segs), len(c.phonemes))
			continue
		}
		for i, s := range segs {
			lang := s.Style.Lang
			if lang == "" {
				lang = "en-us"
			}
			got, err := p.Phonemize(s.Text, lang)
			if err != nil {
				t.Errorf("%s: segment %d %q: %v", c.name, i, s.Text, err)
				continue
			}
			if want := strings.TrimSpace(c.phonemes[i]); got != want {
				t.Errorf("%s: segment %d %q reads\n%s\nwant\n%s", c.name, i, s.Text, got, want)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("checked %d segments through the phonemizer, want at least 10", checked)
	}
}

// TestRealLexiconPhonemes changes a word's phonemes with a PLS lexicon, through the real
// phonemizer: the lexicon's reading wins over the dictionaries'.
func TestRealLexiconPhonemes(t *testing.T) {
	paths := testenv.Assets(t)
	p, err := phonemize.New(phonemize.Config{LexiconDir: paths.Lexicon, Espeak: "off"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	lxs, err := LoadLexicons("testdata/lexicons/good")
	if err != nil {
		t.Fatal(err)
	}
	read := func(lx ...*Lexicon) string {
		d := PlainDoc("I like tomato.")
		d.ApplyLexicons(lx)
		ps, err := p.Phonemize(d.Segments()[0].Text, "en-us")
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	plain, british, sampa := read(), read(lxs["acme"]), read(lxs["sampa"])
	if !strings.Contains(british, "təˈmɑːtO") || strings.Contains(plain, "təˈmɑːtO") || !strings.Contains(sampa, "təˈmAtO") {
		t.Errorf("tomato reads %q plain, %q with acme, %q with sampa", plain, british, sampa)
	}
}

// TestRealPhonemeInput speaks a phoneme text as written: the phonemizer hands back the same
// phonemes, punctuation included.
func TestRealPhonemeInput(t *testing.T) {
	paths := testenv.Assets(t)
	p, err := phonemize.New(phonemize.Config{LexiconDir: paths.Lexicon, Espeak: "off"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, in := range []string{"həlˈO, wˈɜɹld!", "ðə kwˈɪk bɹˈWn fˈɑks.", "kˈOkəɹO"} {
		d, err := FromPhonemes(in)
		if err != nil {
			t.Fatal(err)
		}
		segs := d.Segments()
		got, err := p.Phonemize(segs[0].Text, segs[0].Style.Lang)
		if err != nil {
			t.Fatal(err)
		}
		if got != in {
			t.Errorf("%q (as %q) reads %q", in, segs[0].Text, got)
		}
	}
	if _, err := FromPhonemes("hello ☃"); err == nil || !strings.Contains(err.Error(), "☃") {
		t.Errorf("a snowman: %v", err)
	}
}

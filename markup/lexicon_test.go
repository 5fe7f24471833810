package markup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadLexicons loads PLS (IPA and X-SAMPA) and JSON lexicons by their file names.
func TestLoadLexicons(t *testing.T) {
	lxs, err := LoadLexicons("testdata/lexicons/good")
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]int{"acme": 4, "sampa": 2, "names": 2} {
		if lx := lxs[name]; lx == nil || lx.Len() != n {
			t.Errorf("lexicon %s: %+v, want %d graphemes", name, lx, n)
		}
	}
}

// TestBadLexicons refuses each bad file with ErrLexicon, naming the file and the line at
// fault.
func TestBadLexicons(t *testing.T) {
	for file, line := range map[string]string{
		"badphoneme.pls": ":5:", "unclosed.pls": ":6:", "nothing.pls": ":5:", "entity.pls": ":2:",
		"alphabet.pls": ":2:", "both.json": ":4:", "syntax.json": ":3:",
	} {
		path := filepath.Join("testdata/lexicons/bad", file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(file, ".json") {
			_, err = ParseLexiconJSON("x", path, b)
		} else {
			_, err = ParsePLS("x", path, b)
		}
		if !errors.Is(err, ErrLexicon) || !strings.Contains(err.Error(), path+line) {
			t.Errorf("%s: %v, want ErrLexicon at %s%s", file, err, path, line)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad-name!.pls"), []byte("<lexicon/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLexicons(dir); !errors.Is(err, ErrLexicon) || !strings.Contains(err.Error(), "bad-name!") {
		t.Errorf("a bad lexicon name: %v", err)
	}
}

// TestApplyLexicons reads whole words with the first lexicon that has them: phonemes as an
// override, an alias in place of the word, the longest grapheme first; words inside other
// words and text a tag renders are left alone.
func TestApplyLexicons(t *testing.T) {
	lxs, err := LoadLexicons("testdata/lexicons/good")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc   string
		order []string
		want  string
	}{
		{"I like tomato and tomatoes.", []string{"acme"}, "I like [tomato](/təˈmɑːtO/) and tomatoes."},
		{"I like tomato.", []string{"sampa", "acme"}, "I like [tomato](/təˈmAtO/)."},
		{"W3C in New York City, New York.", []string{"acme"}, "World Wide Web Consortium in the Big Apple, New York."},
		{`<speak>Kokoro <sub alias="Kokoro">K</sub> uses SQL.</speak>`, []string{"names"}, "[Kokoro](/kˈOkəɹO/) Kokoro uses sequel."},
	} {
		var d *Doc
		if IsSSML(c.doc) {
			if d, err = Parse(c.doc); err != nil {
				t.Fatal(err)
			}
		} else {
			d = PlainDoc(c.doc)
		}
		var use []*Lexicon
		for _, n := range c.order {
			use = append(use, lxs[n])
		}
		d.ApplyLexicons(use)
		segs := d.Segments()
		if got := segs[0].Text; got != c.want {
			t.Errorf("%s: %q, want %q", c.doc, got, c.want)
		}
		for _, s := range segs {
			for _, p := range s.Pieces {
				if p.Src.Start < 0 || p.Src.End > len(c.doc) {
					t.Errorf("%s: piece %+v outside the text", c.doc, p)
				}
			}
		}
	}
}

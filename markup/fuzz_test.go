package markup

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// FuzzParse feeds the parser arbitrary documents: it never panics, refuses with ErrSSML, and
// what it accepts cuts into segments whose marks lie in their text and whose pieces map to
// bytes of the document.
func FuzzParse(f *testing.F) {
	f.Add(`<speak>Hello <break time="1s"/> world.</speak>`)
	f.Add(`<speak><say-as interpret-as="telephone">+1 (202) 555-1212 x12</say-as></speak>`)
	f.Add(`<speak><prosody rate="50%" volume="+3dB"><emphasis>a</emphasis><mark name="m"/></prosody></speak>`)
	f.Add(`<speak><phoneme alphabet="x-sampa" ph='r\@` + "`" + `'>x</phoneme>&amp;<![CDATA[<]]></speak>`)
	f.Add(`<speak><p><s>a</s></p><lang xml:lang="fr">b</lang><w role="amazon:VB">c</w></speak>`)
	f.Add(`<speak><say-as interpret-as="date" format="yyyymmdd">20240229</say-as></speak>`)
	f.Add("<speak><say-as interpret-as=\"fraction\">1½</say-as><say-as interpret-as=\"time\">1'2\"</say-as></speak>")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := Parse(doc)
		if err != nil {
			if !errors.Is(err, ErrSSML) {
				t.Fatalf("%v does not wrap ErrSSML", err)
			}
			return
		}
		for _, s := range d.Segments() {
			for _, m := range s.Marks {
				if m.At < 0 || m.At > len(s.Text) {
					t.Fatalf("mark %q at %d of %q", m.Name, m.At, s.Text)
				}
			}
			for _, p := range s.Pieces {
				if p.At < 0 || p.At+p.Len > len(s.Text)+1 || p.Src.Start < 0 || p.Src.End > len(doc) || p.Src.Start > p.Src.End {
					t.Fatalf("piece %+v of %q in a %d-byte document", p, s.Text, len(doc))
				}
				if p.Exact && !strings.Contains(doc[p.Src.Start:p.Src.End], strings.TrimSpace(s.Text[p.At:min(p.At+p.Len, len(s.Text))])) {
					t.Fatalf("exact piece %+v: %q is not in %q", p, s.Text[p.At:min(p.At+p.Len, len(s.Text))], doc[p.Src.Start:p.Src.End])
				}
			}
			if d := s.Pause(func(Pause) time.Duration { return time.Second }); d < 0 || d > MaxBreak {
				t.Fatalf("pause %v", d)
			}
		}
	})
}

// FuzzLexicon feeds both lexicon parsers arbitrary files: they never panic, refuse with
// ErrLexicon, and a lexicon they accept applies to any text without leaving it.
func FuzzLexicon(f *testing.F) {
	for _, p := range []string{"testdata/lexicons/good/acme.pls", "testdata/lexicons/good/names.json", "testdata/lexicons/bad/both.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "tomato W3C Kokoro SQL")
	}
	f.Fuzz(func(t *testing.T, b []byte, text string) {
		for _, parse := range []func(string, string, []byte) (*Lexicon, error){ParsePLS, ParseLexiconJSON} {
			lx, err := parse("x", "x", b)
			if err != nil {
				if !errors.Is(err, ErrLexicon) {
					t.Fatalf("%v does not wrap ErrLexicon", err)
				}
				continue
			}
			d := PlainDoc(text)
			d.ApplyLexicons([]*Lexicon{lx})
			for _, s := range d.Segments() {
				for _, p := range s.Pieces {
					if p.Src.Start < 0 || p.Src.End > len(text) || p.Src.Start > p.Src.End {
						t.Fatalf("piece %+v of a %d-byte text", p, len(text))
					}
				}
			}
		}
	})
}

// FuzzFromPhonemes feeds phoneme input arbitrary text: it never panics, refuses with
// ErrPhonemes, and what it accepts maps every piece into the input.
func FuzzFromPhonemes(f *testing.F) {
	f.Add("həlˈO, wˈɜɹld!")
	f.Add("  ðə  (kwˈɪk) …")
	f.Fuzz(func(t *testing.T, ps string) {
		d, err := FromPhonemes(ps)
		if err != nil {
			if !errors.Is(err, ErrPhonemes) {
				t.Fatalf("%v does not wrap ErrPhonemes", err)
			}
			return
		}
		for _, s := range d.Segments() {
			for _, p := range s.Pieces {
				if p.Src.Start < 0 || p.Src.End > len(ps) || p.Src.Start > p.Src.End {
					t.Fatalf("piece %+v of %q", p, ps)
				}
			}
		}
	})
}

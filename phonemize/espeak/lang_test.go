package espeak

import (
	"errors"
	"strings"
	"testing"
)

// TestEspeakLangSteps checks the phonemizer package's steps on texts whose pieces are read by
// a stand-in espeak-ng: where the punctuation goes back, how language-switch flags, ties and
// separators are tidied, and the mapping to Kokoro's symbols.
func TestEspeakLangSteps(t *testing.T) {
	t.Parallel()
	// The stand-in answers each piece with its words upper-cased, as espeak-ng would answer
	// with each word's phonemes.
	fake := func(voice, text string) (string, error) {
		if voice != "roa/es" {
			return "", errors.New("wrong voice " + voice)
		}
		return strings.ToUpper(strings.TrimSpace(text)), nil
	}
	e := &Reader{voice: "roa/es", phonemes: fake}
	for _, c := range []struct{ in, want string }{
		{"hola mundo", "HOLA MUNDO"},
		{"hola, mundo.", "HOLA, MUNDO."},
		{"¿qué tal? bien!", "¿QUÉ TAL? BIEN!"},
		{"...", "..."},
		{"dijo «hola» y (luego) se fue", "DIJO “HOLA” Y (LUEGO) SE FUE"},
		{"a - b", "A  B"}, // hyphens are removed, as the reference removes them
		{"  espacios   ", "ESPACIOS"},
		{"uno; dos: tres — cuatro…", "UNO; DOS: TRES — CUATRO…"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := e.Read(c.in)
			if err != nil || got != c.want {
				t.Errorf("Read(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
	// espeak-ng's own marks: flags, ties, separators and two-letter phonemes.
	e.phonemes = func(_, text string) (string, error) {
		return map[string]string{
			"x": "(en)ha\u0361ʊs(es) t\u0361ʃe__ o\u0361ʊ\n d\u0361ʒ",
		}[text], nil
	}
	if got, _ := e.Read("x"); got != "hWs ʧe O ʤ" {
		t.Errorf("tidying espeak-ng's answer: got %q, want %q", got, "hWs ʧe O ʤ")
	}
}

// FuzzEspeakLangSteps feeds any text through the phonemizer package's steps with a stand-in
// espeak-ng: they never panic, never leave a tie, and keep every piece's words.
func FuzzEspeakLangSteps(f *testing.F) {
	for _, s := range []string{"hola, mundo.", "¿qué? ¡sí!", "«a» (b) [c] {d}", "...", " , ", "a - b — c…", "x\ny"} {
		f.Add(s)
	}
	e := &Reader{voice: "roa/es", phonemes: func(_, text string) (string, error) {
		return strings.Join(strings.Fields(text), " t\u0361ʃ "), nil
	}}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := e.Read(text)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(got, "^\u0361") {
			t.Errorf("Read(%q) = %q keeps a tie", text, got)
		}
	})
}

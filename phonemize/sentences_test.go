package phonemize

import (
	"strings"
	"testing"
	"unicode"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

func TestCutSentences(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, done, rest string }{
		{"Hello there", "", "Hello there"},
		{"Hello there.", "", "Hello there."}, // the period may be a decimal point still
		{"Hello there. How", "Hello there.", "How"},
		{"One! Two? Three… four", "One! Two? Three…", "four"},
		{`He said "stop." Then`, `He said "stop."`, "Then"},
		{"Pi is 3.14 and e is 2.71. Next", "Pi is 3.14 and e is 2.71.", "Next"},
		{"Ask Dr. Smith now", "", "Ask Dr. Smith now"},
		{"J. R. R. Tolkien wrote", "", "J. R. R. Tolkien wrote"},
		{"Line one\nline two", "Line one", "line two"},
		{strings.Repeat("word ", 50) + "clause, more", strings.Repeat("word ", 50) + "clause,", "more"},
		{strings.Repeat("word ", 130) + "end", strings.TrimSpace(strings.Repeat("word ", 130)), "end"},
	}
	for _, tc := range cases {
		t.Run(corpus.CaseName(tc.in), func(t *testing.T) {
			done, rest := CutSentences(tc.in)
			if done != tc.done || rest != tc.rest {
				t.Errorf("CutSentences(%.40q) = (%.40q, %q), want (%.40q, %q)", tc.in, done, rest, tc.done, tc.rest)
			}
		})
	}
}

// Cutting never loses or invents text: the sentences and the rest hold every non-space rune
// of the input, in order.
func FuzzCutSentences(f *testing.F) {
	for _, s := range []string{"Hello there. How", "Mr. X! Y? Z…\n", strings.Repeat("a, ", 200), "“Quote.” Next"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		done, rest := CutSentences(s)
		strip := func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) {
					return -1
				}
				return r
			}, s)
		}
		if strip(done)+strip(rest) != strip(s) {
			t.Fatalf("CutSentences(%q) = %q + %q", s, done, rest)
		}
	})
}

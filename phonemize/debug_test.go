package phonemize

import (
	"os"
	"testing"
)

func TestDebugTags(t *testing.T) {
	s := os.Getenv("PHONEMIZE_DEBUG")
	if s == "" {
		t.Skip("set PHONEMIZE_DEBUG to a sentence")
	}
	p := testPhonemizer(t)
	text, _ := preprocess(s)
	toks := tokenize(text)
	tagger{p.us.lx}.tagTokens(toks)
	for _, tk := range toks {
		t.Logf("%q %s ws=%q", tk.text, tk.tag, tk.ws)
	}
	ps, _ := p.Phonemize(s, "en-us")
	t.Log(ps)
}

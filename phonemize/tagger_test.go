package phonemize

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

type taggedSentence struct {
	text   string
	tokens []string
	tags   []string
}

func loadTagged(t *testing.T) []taggedSentence {
	t.Helper()
	f, err := os.Open("testdata/spacy_tags.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []taggedSentence
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		parts := strings.Split(sc.Text(), "\t")
		s := taggedSentence{text: parts[0]}
		for i := 1; i+1 < len(parts); i += 2 {
			s.tokens = append(s.tokens, parts[i])
			s.tags = append(s.tags, parts[i+1])
		}
		out = append(out, s)
	}
	return out
}

// TestTokenizerAndTaggerAgreement measures how often the tokenizer splits a corpus sentence
// exactly as the reference tokenizer does, and how often the tagger agrees with the reference
// tagger on those sentences.
func TestTokenizerAndTaggerAgreement(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	sents := loadTagged(t)
	var sameSplit, tagOK, tagAll int
	var report []string
	for _, s := range sents {
		text, _ := preprocess(s.text)
		toks := tokenize(text)
		tagger{p.us.lx}.tagTokens(toks)
		got := make([]string, len(toks))
		for i, tk := range toks {
			got[i] = tk.text
		}
		if strings.Join(got, "\x00") != strings.Join(s.tokens, "\x00") {
			report = append(report, fmt.Sprintf("split %q\n   got  %q\n   want %q", s.text, got, s.tokens))
			continue
		}
		sameSplit++
		var bad []string
		for i, tk := range toks {
			tagAll++
			if tk.tag == s.tags[i] {
				tagOK++
			} else {
				bad = append(bad, fmt.Sprintf("%s/%s(want %s)", tk.text, tk.tag, s.tags[i]))
			}
		}
		if len(bad) > 0 {
			report = append(report, fmt.Sprintf("tags %q: %s", s.text, strings.Join(bad, " ")))
		}
	}
	splitRate := float64(sameSplit) / float64(len(sents))
	tagRate := float64(tagOK) / float64(max(tagAll, 1))
	t.Logf("tokenizer: %d/%d sentences split as the reference (%.1f%%); tagger: %d/%d tags agree (%.1f%%)",
		sameSplit, len(sents), splitRate*100, tagOK, tagAll, tagRate*100)
	if os.Getenv("PHONEMIZE_SHOW_DIFFS") != "" {
		for _, r := range report {
			t.Log(r)
		}
	}
	if splitRate < 0.97 || tagRate < 0.83 {
		t.Errorf("agreement too low: split %.1f%%, tags %.1f%%", splitRate*100, tagRate*100)
	}
}

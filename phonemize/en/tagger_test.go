package en

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

type taggedSentence struct {
	text   string
	tokens []string
	tags   []string
}

func loadTaggedFile(t *testing.T, name string) []taggedSentence {
	t.Helper()
	f, err := os.Open("testdata/" + name)
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

// TestTokenizerAndTaggerAgreement measures how often the tokenizer splits a sentence exactly as
// the reference tokenizer does, and how often the tagger agrees with the reference tagger on the
// sentences split alike. wild_dev_tags.tsv is real English the tagger was not trained on (the
// development bucket of scripts/corpus/gen_wild_corpus.py), so it measures how the tagger generalizes;
// wild_heldout_tags.tsv is the held-out corpus's text, measured once after the rules were frozen;
// wild2_heldout_tags.tsv was too (94.5 %, Moby-Dick's archaic dialogue the hardest) and is
// development text since: the rest of its sources' text is training text, its sentences are not;
// wild3_heldout_tags.tsv is the third wild corpus's text, measured once with it (98.8 % split
// alike, 96.0 % of tags agree) and development text since; wild4_heldout_tags.tsv is the fourth
// wild corpus's text, measured once with it (99.5 % split alike, 95.4 % of tags agree) and
// development text since; wild5_heldout_tags.tsv is the fifth wild corpus's text, measured once
// with it (99.8 % split alike, 95.9 % of tags agree); wild6_heldout_tags.tsv is the sixth wild
// corpus's text, measured once with it (99.8 % split alike, 96.5 % of tags agree),
// wild7_heldout_tags.tsv the seventh's (99.8 % split alike, 95.6 % of tags agree) and
// wild8_heldout_tags.tsv the eighth's (99.8 % split alike, 95.9 % of tags agree);
// spacy_tags.tsv holds the older corpora's sentences, which are part of its training text.
// The rest of the third to fifth corpora's sources' text is training text too, their sentences
// are not. Limits: the measured agreement less about half a point (97.1 %, 96.7 % and 97.9 %
// when set; with the wild2 sources in the training text 97.3 %, 96.9 %, 95.9 % and 98.3 %; with
// the third to fifth rounds' sources too 97.3 % dev, 97.0 % held out, 96.3 % wild2, 96.8 %
// wild3, 96.4 % wild4, 96.9 % wild5 and 98.5 %).
func TestTokenizerAndTaggerAgreement(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, c := range []struct {
		file               string
		minSplit, minAgree float64
	}{
		{"wild_dev_tags.tsv", 0.97, 0.965},
		{"wild_heldout_tags.tsv", 0.97, 0.962},
		{"wild2_heldout_tags.tsv", 0.98, 0.954},
		{"wild3_heldout_tags.tsv", 0.98, 0.955},
		{"wild4_heldout_tags.tsv", 0.99, 0.949},
		{"wild5_heldout_tags.tsv", 0.99, 0.954},
		{"wild6_heldout_tags.tsv", 0.99, 0.96},
		{"wild7_heldout_tags.tsv", 0.99, 0.95},
		{"wild8_heldout_tags.tsv", 0.99, 0.955},
		{"spacy_tags.tsv", 0.99, 0.975},
	} {
		t.Run(c.file, func(t *testing.T) {
			sents := loadTaggedFile(t, c.file)
			var sameSplit, tagOK, tagAll int
			var report []string
			for _, s := range sents {
				text, _ := preprocess(s.text, Switches{})
				toks := tokenize(text)
				p.us.tags.tagTokens(toks)
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
			t.Logf("%s: tokenizer: %d/%d sentences split as the reference (%.1f%%); tagger: %d/%d tags agree (%.1f%%)",
				c.file, sameSplit, len(sents), splitRate*100, tagOK, tagAll, tagRate*100)
			if os.Getenv("PHONEMIZE_SHOW_DIFFS") != "" {
				for _, r := range report {
					t.Log(r)
				}
			}
			if splitRate < c.minSplit || tagRate < c.minAgree {
				t.Errorf("%s: agreement too low: split %.1f%% (min %.1f%%), tags %.1f%% (min %.1f%%)",
					c.file, splitRate*100, c.minSplit*100, tagRate*100, c.minAgree*100)
			}
		})
	}
}

// TestApostropheAfterAnS checks how an apostrophe written against a word in s is tagged: the
// possessive for a straight one, a closing quote for a straight one while a single quotation is
// open and for a curly one, each the reference tagger's majority reading in the tagged
// training text.
func TestApostropheAfterAnS(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, c := range []struct {
		text string
		at   int // token index of the apostrophe
		want string
	}{
		{"The boys' toys are here.", 2, "POS"},
		{"They call them 'pits' and 'lands' here.", 5, "''"},
		{"They call them 'pits' and 'lands' here.", 9, "''"},
		{"Two days’ travel south of here.", 2, "''"},
		{"The word ‘blinkenlights’ is old.", 4, "''"},
	} {
		t.Run(corpus.CaseName(c.text), func(t *testing.T) {
			toks := tokenize(c.text)
			p.us.tags.tagTokens(toks)
			if c.at >= len(toks) || !strings.ContainsAny(toks[c.at].text, "'’") {
				t.Fatalf("%q: token %d is not the apostrophe: %v", c.text, c.at, toks)
			}
			if toks[c.at].tag != c.want {
				t.Errorf("%q: %q tagged %s, want %s", c.text, toks[c.at].text, toks[c.at].tag, c.want)
			}
		})
	}
}

// TestThatBeforeAStop checks that "that" ending a clause before a stop, question mark or
// semicolon is the stressed pronoun, as misaki 0.9.4 reads these sentences (US, built-in
// fallback alone), while before a comma the model still decides.
func TestThatBeforeAStop(t *testing.T) {
	p := offlinePhonemizer(t)
	t.Parallel()
	expectReadings(t, p, []reading{
		{"Did anyone feel that?", "dˈɪd ˈɛniwˌʌn fˈil ðˈæt?"},
		{"Nobody wanted that; they left.", "nˈObˌɑdi wˈɑntᵻd ðˈæt; ðA lˈɛft."},
		{"He said that.", "hˌi sˈɛd ðˈæt."},
	})
}

// TestPartOfSpeechOverride: [word](@TAG) reads a homograph as that part of speech, whatever
// the tagger made of it; a link whose target is not a tag's shape is dropped, its word read.
func TestPartOfSpeechOverride(t *testing.T) {
	p := offlinePhonemizer(t)
	t.Parallel()
	expectReadings(t, p, []reading{
		{"I [read](@VBD) it.", "ˌI ɹˈɛd ɪt."},
		{"I [read](@VB) it.", "ˌI ɹˈid ɪt."},
		{"[object](@VB)", "əbʤˈɛkt"},
		{"[object](@NN)", "ˈɑbʤəkt"},
		{"They [live](@VBP) here.", "ðˌA lˈɪv hˈɪɹ."},
		{"They [live](@JJ) here.", "ðˌA lˈIv hˈɪɹ."},
		{"I [read](@vbd) it.", "ˌI ɹˈɛd ɪt."},
	})
}

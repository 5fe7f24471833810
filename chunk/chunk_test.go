package chunk

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

func TestChunks(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	long := strings.Repeat("The quick brown fox jumps over the lazy dog, and then it runs away; nobody knows where. ", 30)
	noPunct := strings.Repeat("word ", 400)
	cases := []struct {
		name  string
		text  string
		opt   Options
		first int
	}{
		{"short", "Hello there.", Options{}, DefaultFirstChunkMaxIDs},
		{"long", long, Options{}, DefaultFirstChunkMaxIDs},
		{"long-gb", long, Options{Lang: "en-gb", Policy: Policy{FirstChunkMaxIDs: 40, MaxChunkIDs: 200}}, 40},
		{"no-punctuation", noPunct, Options{}, DefaultFirstChunkMaxIDs},
		{"one-huge-word", strings.Repeat("x", 3000), Options{Policy: Policy{MaxChunkIDs: 100}}, DefaultFirstChunkMaxIDs},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chunks, err := p.Chunks(c.text, c.opt)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			max := c.opt.MaxChunkIDs
			if max == 0 {
				max = model.MaxIDs
			}
			var words int
			for i, ch := range chunks {
				lim := max
				if i == 0 {
					lim = min(c.first, max)
				}
				if len(ch.IDs) < 1 || len(ch.IDs) > lim {
					t.Errorf("%s: chunk %d has %d ids, want 1..%d", c.name, i, len(ch.IDs), lim)
				}
				if got := phonemize.Tokenize(ch.Phonemes); len(got) != len(ch.IDs) {
					t.Errorf("%s: chunk %d ids do not match its phonemes", c.name, i)
				}
				words += len(strings.Fields(ch.Text))
			}
			if c.name != "one-huge-word" && words != len(strings.Fields(c.text)) {
				t.Errorf("%s: chunks carry %d words of %d", c.name, words, len(strings.Fields(c.text)))
			}
			if c.name == "long" {
				if !strings.HasSuffix(chunks[0].Text, ",") && !strings.HasSuffix(chunks[0].Text, ".") && !strings.HasSuffix(chunks[0].Text, ";") {
					t.Errorf("long: first chunk %q does not end at a clause boundary", chunks[0].Text)
				}
				for i, ch := range chunks[1 : len(chunks)-1] {
					if !strings.HasSuffix(ch.Text, ".") {
						t.Errorf("long: chunk %d %q does not end at a sentence end", i+1, ch.Text)
					}
				}
			}
		})
	}
}

// Whoever joins the chunks back into one utterance needs to know which boundary each chunk
// ends on, to put back the pause the text asks for there and no more.
func TestChunkBreaks(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, c := range []struct {
		text  string
		first int
		want  []Break
	}{
		{"Hello there.", 0, []Break{BreakEnd}},
		{"When the rain stopped, we walked all the way to the old station in the dark.", 30, []Break{BreakComma, BreakWord, BreakWord, BreakEnd}},
		{"It was late; everyone was tired. Nobody wanted to leave.", 20, []Break{BreakClause, BreakSentence, BreakEnd}},
		{"Wait — what was that? I heard something!", 12, []Break{BreakComma, BreakSentence, BreakEnd}},
		// Short paragraphs that would fit in one chunk still end their own.
		{"Dear Anna,\n\nThanks for the letter.\r\n  \r\nBest, Tom", 0, []Break{BreakParagraph, BreakParagraph, BreakEnd}},
		{"One line\nwraps here.\n\n \n\n\nThe end.", 0, []Break{BreakParagraph, BreakEnd}},
	} {
		t.Run(caseName(c.text), func(t *testing.T) {
			opt := Options{Policy: Policy{FirstChunkMaxIDs: c.first, MaxChunkIDs: max(c.first, 30)}}
			if c.first == 0 {
				opt.MaxChunkIDs = 0
			}
			chunks, err := p.Chunks(c.text, opt)
			if err != nil {
				t.Fatalf("%q: %v", c.text, err)
			}
			var got []Break
			for _, ch := range chunks {
				got = append(got, ch.Break)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				for _, ch := range chunks {
					t.Logf("  %q %v", ch.Text, ch.Break)
				}
				t.Errorf("%q: breaks %v, want %v", c.text, got, c.want)
			}
		})
	}
}

// TestChunkSentenceIDs: a chunk knows how many ids its sentences have, so that each part of a
// sentence cut for early audio can be spoken with the whole sentence's style row.
func TestChunkSentenceIDs(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	ids := func(text string) int { // the ids of text spoken as one chunk
		cs, err := p.Chunks(text, Options{Policy: Policy{FirstChunkMinIDs: model.MaxIDs, FirstChunkMaxIDs: model.MaxIDs}})
		if err != nil || len(cs) != 1 {
			t.Fatalf("Chunks(%q): %d chunks, %v", text, len(cs), err)
		}
		return len(cs[0].IDs)
	}
	first, second := "Thanks for calling, how can I help you today?", "We are open until six."
	cs, err := p.Chunks(first+" "+second, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Text != "Thanks for calling," {
		t.Fatalf("chunks %q, want the first sentence cut at its comma", texts(cs))
	}
	// Both parts of the cut sentence carry its whole length, with the space after it (the
	// second chunk also holds the next sentence).
	if want := ids(first) + 1; cs[0].SentenceIDs != want {
		t.Errorf("first part: %d sentence ids, want %d", cs[0].SentenceIDs, want)
	}
	if want := ids(first) + 1 + ids(second); cs[1].SentenceIDs != want {
		t.Errorf("second chunk: %d sentence ids, its two sentences have %d", cs[1].SentenceIDs, want)
	}
	// Chunks of whole sentences carry their own length, and no chunk more than model.MaxIDs.
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 40)
	cs, err = p.Chunks(long, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if c.SentenceIDs < len(c.IDs) || c.SentenceIDs > model.MaxIDs {
			t.Errorf("chunk %d: %d sentence ids for %d ids", i, c.SentenceIDs, len(c.IDs))
		}
		if i > 0 && c.SentenceIDs > len(c.IDs)+1 {
			t.Errorf("chunk %d of whole sentences: %d sentence ids for %d ids", i, c.SentenceIDs, len(c.IDs))
		}
	}
	// A sentence without a stop running past model.MaxIDs is capped.
	cs, err = p.Chunks(strings.Repeat("word ", 400), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if c.SentenceIDs != model.MaxIDs {
			t.Errorf("chunk %d of an endless sentence: %d sentence ids, want %d", i, c.SentenceIDs, model.MaxIDs)
		}
	}
}

func texts(cs []Chunk) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

// TestFirstChunkWholeSentence: with FirstChunkWholeSentence the first chunk is the first
// sentence, whatever its commas, and only a sentence longer than model.MaxIDs is cut.
func TestFirstChunkWholeSentence(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	text := "Thanks for calling, how can I help you today? We are open until six, every day."
	for _, lang := range []string{"en-us", "en-gb"} {
		t.Run(lang, func(t *testing.T) {
			cs, err := p.Chunks(text, Options{Lang: lang, FirstChunkWholeSentence: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(cs); len(got) != 2 || got[0] != "Thanks for calling, how can I help you today?" {
				t.Errorf("%s: chunks %q, want the first sentence whole, then the second", lang, got)
			}
			if cs, _ := p.Chunks(text, Options{Lang: lang}); cs[0].Text != "Thanks for calling," {
				t.Errorf("%s: without the option the first chunk is %q, want the first phrase", lang, cs[0].Text)
			}
		})
	}
	long := strings.Repeat("one more word, ", 120) + "and the end."
	cs, err := p.Chunks(long, Options{FirstChunkWholeSentence: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 2 || len(cs[0].IDs) > model.MaxIDs || len(cs[0].IDs) < model.MaxIDs/2 || !strings.HasSuffix(cs[0].Text, ",") {
		t.Errorf("a sentence of %d chunks: first has %d ids and ends %q; want it cut at a comma within %d ids",
			len(cs), len(cs[0].IDs), lastRuneStr(cs[0].Text), model.MaxIDs)
	}
}

// A sentence cut for its budget is cut between phrases where it can be: before a word that
// opens one ("to the old station"), never after one that leans on the next ("the", "to",
// "old", "your"), nor inside a compound noun.
func TestLaterCutsKeepPhrases(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	leaning := map[string]bool{"the": true, "to": true, "in": true, "old": true, "your": true, "a": true, "and": true, "front": true, "at": true, "will": true}
	for _, text := range []string{
		"When the rain stopped, we walked all the way to the old station in the dark.",
		"Your order shipped this morning and will arrive at the front desk of your building on Friday.",
	} {
		for _, max := range []int{20, 24, 30} {
			cs, err := p.Chunks(text, Options{Policy: Policy{FirstChunkMaxIDs: max, MaxChunkIDs: max}})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs[:len(cs)-1] {
				w := strings.Fields(c.Text)
				if last := strings.ToLower(w[len(w)-1]); leaning[last] {
					t.Errorf("budget %d: chunk %q ends on %q, which belongs with the next word (%q)", max, c.Text, last, texts(cs))
				}
			}
		}
	}
}

// caseName is a table case's subtest name: its text, cut to 40 characters.
func caseName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40])
	}
	return s
}

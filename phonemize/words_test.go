package phonemize

import (
	"slices"
	"strings"
	"testing"
)

// Every chunk's words are its text as written, in order, and between them they hold every id
// of speech the chunk has, each word at least one.
func TestChunkWordsCoverTheChunk(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	texts := []string{
		"It costs $5.50, don't you think? Dr. Smith's 3rd car—a Ford—left at 10:30 a.m. on 2024-01-02.",
		`I've got the U.S.A. on "quotes" (parens) e.g. 1,234 items; well-known.`,
		"Hello…   world!!  \n\n New para.",
		strings.Repeat("The quick brown fox jumps over the lazy dog, and then it runs away; nobody knows where. ", 8),
		strings.Repeat("supercalifragilisticexpialidocious", 20) + " end.",
	}
	for _, text := range texts {
		for _, opt := range []Options{{}, {FirstChunkAt: FirstAtWord, MaxIDs: 40, Context: true}, {Lang: "en-gb"}} {
			chunks, err := p.Chunks(text, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range chunks {
				at := 0
				var joined string
				for _, w := range c.Words {
					if w.Start < at || w.End < w.Start || w.End > len(c.IDs) {
						t.Fatalf("%q chunk %d: word %q has ids [%d,%d) after %d of %d", text, i, w.Text, w.Start, w.End, at, len(c.IDs))
					}
					if !slices.ContainsFunc(c.IDs[w.Start:w.End], func(id int64) bool { return !Silent(id) }) && hasWordRune(w.Text) {
						t.Errorf("%q chunk %d: word %q has no id of speech", text, i, w.Text)
					}
					for j := at; j < w.Start; j++ {
						if !Silent(c.IDs[j]) {
							t.Errorf("%q chunk %d: id %d before word %q belongs to no word", text, i, j, w.Text)
						}
					}
					at = w.End
					joined += w.Text
				}
				for j := at; j < len(c.IDs); j++ {
					if !Silent(c.IDs[j]) {
						t.Errorf("%q chunk %d: id %d after the last word belongs to no word", text, i, j)
					}
				}
				if want := strings.Join(strings.Fields(c.Text), ""); joined != want {
					t.Errorf("%q chunk %d: words %q, want the text %q", text, i, joined, want)
				}
			}
		}
	}
}

// A word keeps the text it was written as, whatever it is spoken as, with the punctuation
// written against it.
func TestChunkWordsAsWritten(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	cases := []struct {
		text string
		want []string
	}{
		{"It costs $5.50, don't you think?", []string{"It", "costs", "$5.50,", "don't", "you", "think?"}},
		{"Dr. Smith left at 10:30 a.m. today.", []string{"Dr.", "Smith", "left", "at", "10:30", "a.m.", "today."}},
		{`He said "yes" (twice) — well-known.`, []string{"He", "said", `"yes"`, "(twice)—", "well-known."}},
		{"Hello… world!!", []string{"Hello…", "world!!"}},
	}
	for _, c := range cases {
		chunks, err := p.Chunks(c.text, Options{FirstChunkMinIDs: 500, FirstChunkMaxIDs: 500})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range chunks {
			for _, w := range ch.Words {
				got = append(got, w.Text)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: words %q, want %q", c.text, got, c.want)
		}
	}
}

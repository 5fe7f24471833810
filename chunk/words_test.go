package chunk

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// The chunks' words are the text as written, in order, and between them each chunk's words hold
// every id of speech it has, each word at least one.
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
	type langText struct{ lang, text string }
	var cases []langText
	for _, text := range texts {
		cases = append(cases, langText{"", text}, langText{"en-gb", text})
	}
	// The other languages' readers: espeak-ng's words paired with the text's, or not
	// ("les amis" read as "lez amˈi"), and Japanese and Mandarin, written without spaces.
	cases = append(cases,
		langText{"es", "Hola, ¿cómo estás? Tengo 25 años y vivo en la calle Mayor, número 3."},
		langText{"fr-fr", "Les amis sont arrivés à 10h30, n'est-ce pas? Oui."},
		langText{"hi", "मेरा नाम राम है। मैं 25 साल का हूँ।"},
		langText{"it", "Ciao, come stai? Ho 3 gatti."},
		langText{"pt-br", "Olá, tudo bem? Eu tenho 42 anos."},
		langText{"ja", "こんにちは、お元気ですか。私は昨日の朝早く東京駅から新幹線に乗って大阪まで友達に会いに行きました。"},
		langText{"zh", "你好，我今天很高兴。我有3本书，你呢？"},
		langText{"en-us", "I ❤ NY and 東京 too."},
	)
	for _, c := range cases {
		t.Run(caseName(c.lang+" "+c.text), func(t *testing.T) {
			text := c.text
			for _, opt := range []Options{{Lang: c.lang}, {Lang: c.lang, Policy: Policy{FirstChunkAt: FirstAtWord, MaxChunkIDs: 40}, Context: true}} {
				chunks, err := p.Chunks(text, opt)
				if err != nil {
					t.Fatal(err)
				}
				squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
				var joined, want, prevLast, prevText string
				for i, c := range chunks {
					at := 0
					for k, w := range c.Words {
						if w.Start < at || w.End < w.Start || w.End > len(c.IDs) {
							t.Fatalf("%q chunk %d: word %q has ids [%d,%d) after %d of %d", text, i, w.Text, w.Start, w.End, at, len(c.IDs))
						}
						if !slices.ContainsFunc(c.IDs[w.Start:w.End], func(id int64) bool { return !phonemize.Silent(id) }) && hasWordRune(w.Text) {
							t.Errorf("%q chunk %d: word %q has no id of speech", text, i, w.Text)
						}
						for j := at; j < w.Start; j++ {
							if !phonemize.Silent(c.IDs[j]) {
								t.Errorf("%q chunk %d: id %d before word %q belongs to no word", text, i, j, w.Text)
							}
						}
						at = w.End
						// A word a cut divides is named whole on both sides, and written in the
						// text of one of the two chunks.
						if w.Text == "" {
							t.Errorf("%q chunk %d: a word with no text", text, i)
						}
						wt := squash(w.Text)
						if k == 0 && i > 0 && prevLast != "" && strings.HasPrefix(wt, prevLast) &&
							!(strings.Contains(squash(prevText), prevLast) && strings.Contains(squash(c.Text), prevLast)) {
							wt = strings.TrimPrefix(wt, prevLast) // with the punctuation after it
						}
						joined += wt
					}
					for j := at; j < len(c.IDs); j++ {
						if !phonemize.Silent(c.IDs[j]) {
							t.Errorf("%q chunk %d: id %d after the last word belongs to no word", text, i, j)
						}
					}
					want += squash(c.Text)
					if n := len(c.Words); n > 0 {
						prevLast = squash(c.Words[n-1].Text)
					}
					prevText = c.Text
				}
				if joined != want {
					t.Errorf("%q %+v: words %q, want the text %q", text, opt, joined, want)
				}
			}
		})
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
		lang string
	}{
		{"It costs $5.50, don't you think?", []string{"It", "costs", "$5.50,", "don't", "you", "think?"}, ""},
		{"Dr. Smith left at 10:30 a.m. today.", []string{"Dr.", "Smith", "left", "at", "10:30", "a.m.", "today."}, ""},
		{`He said "yes" (twice) — well-known.`, []string{"He", "said", `"yes"`, "(twice)—", "well-known."}, ""},
		{"Hello… world!!", []string{"Hello…", "world!!"}, ""},
		{"I ❤ NY.", []string{"I", "❤", "NY."}, ""}, // a symbol read out is a word
		{"Tengo 25 años.", []string{"Tengo", "25", "años."}, "es"},
		{"मैं 25 साल का हूँ।", []string{"मैं", "25", "साल", "का", "हूँ।"}, "hi"},
		// espeak-ng reads six words of the text as eight: the phrase is the word.
		{"Les amis sont arrivés à 10h30, n'est-ce pas?", []string{"Les amis sont arrivés à 10h30,", "n'est-ce pas?"}, "fr-fr"},
		// Japanese has no spaces to pair its readings with: each phrase is a word.
		{"こんにちは、お元気ですか。", []string{"こんにちは、", "お元気ですか。"}, "ja"},
		{"你好，我今天很高兴。", []string{"你好,", "我", "今天", "很", "高兴."}, "zh"},
	}
	for _, c := range cases {
		t.Run(caseName(c.text), func(t *testing.T) {
			chunks, err := p.Chunks(c.text, Options{Lang: c.lang, Policy: Policy{FirstChunkMinIDs: 500, FirstChunkMaxIDs: 500}})
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
				t.Errorf("%s %q: words %q, want %q", c.lang, c.text, got, c.want)
			}
		})
	}
}

// A phrase or word that a chunk's end cuts is named whole in both chunks, each with the ids
// of its part there: a client is never sent a timed word with no text.
func TestChunkWordsCutByAChunk(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	long := strings.Repeat("supercalifragilisticexpialidocious", 8)
	cases := []struct{ lang, text, word string }{
		{"ja", "私は昨日の朝早く東京駅から新幹線に乗って大阪まで友達に会いに行きました。", "私は昨日の朝早く東京駅から新幹線に乗って大阪まで友達に会いに行きました。"},
		{"en-us", long + " end.", long},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			chunks, err := p.Chunks(c.text, Options{Lang: c.lang, Policy: Policy{MaxChunkIDs: 40}})
			if err != nil {
				t.Fatal(err)
			}
			parts := 0
			for i, ch := range chunks {
				for _, w := range ch.Words {
					if w.Text == c.word {
						parts++
					}
					if w.End <= w.Start {
						t.Errorf("%s chunk %d: word %q has ids [%d,%d)", c.lang, i, w.Text, w.Start, w.End)
					}
				}
			}
			if len(chunks) < 3 || parts != len(chunks)-1 && parts != len(chunks) {
				t.Errorf("%s: %q named in %d of %d chunks", c.lang, c.word, parts, len(chunks))
			}
		})
	}
}

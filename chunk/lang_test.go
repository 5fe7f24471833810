package chunk

import (
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// TestLangChunks checks that chunks of each espeak-ng language end on that language's
// punctuation and that their phonemes, joined, are the whole text's.
func TestLangChunks(t *testing.T) {
	p := testPhonemizer(t)
	for _, c := range []struct{ lang, text string }{
		{"es", "Hola, ¿cómo estás? Hoy hace buen tiempo en Madrid. Vamos al parque, luego comemos."},
		{"fr-fr", "Bonjour, comment allez-vous ? Il fait beau à Paris aujourd'hui. Nous irons au parc."},
		{"it", "Ciao, come stai? Oggi fa bel tempo a Roma. Andiamo al parco, poi mangiamo."},
		{"pt-br", "Olá, tudo bem? Hoje faz sol em São Paulo. Vamos ao parque, depois almoçamos."},
		{"hi", "नमस्ते, आप कैसे हैं। आज मौसम अच्छा है। हम पार्क जाएंगे।"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			whole, err := p.Phonemize(c.text, c.lang)
			if err != nil {
				t.Fatal(err)
			}
			chunks, err := p.Chunks(c.text, Options{Lang: c.lang, Policy: Policy{FirstChunkMinIDs: 4, MaxChunkIDs: 40}})
			if err != nil {
				t.Fatal(err)
			}
			if len(chunks) < 3 {
				t.Errorf("%s: %d chunks, want one a sentence or phrase at least: %+v", c.lang, len(chunks), chunks)
			}
			var joined []string
			for i, ch := range chunks {
				joined = append(joined, ch.Phonemes)
				if i < len(chunks)-1 && ch.Break < BreakComma {
					t.Errorf("%s: chunk %d (%q) ends between words, want at punctuation", c.lang, i, ch.Text)
				}
				if !slices.Equal(ch.IDs, phonemize.Tokenize(ch.Phonemes)) {
					t.Errorf("%s: chunk %d ids are not its phonemes' ids", c.lang, i)
				}
			}
			if got := strings.Join(joined, " "); got != whole {
				t.Errorf("%s: chunks joined\n  %s\nwant the whole text's\n  %s", c.lang, got, whole)
			}
			if c.lang == "hi" && chunks[0].Break != BreakComma || c.lang == "hi" && chunks[1].Break != BreakSentence {
				t.Errorf("hi: breaks %v, %v; want the comma, then the danda's sentence end", chunks[0].Break, chunks[1].Break)
			}
		})
	}
}

// TestMandarinChunks checks that Mandarin chunks end on its punctuation (the full-width marks,
// which its reader writes as ASCII ones in the phonemes) and join back to the whole reading.
func TestMandarinChunks(t *testing.T) {
	p := testPhonemizer(t)
	text := "你好，今天天气很好。我们明天去公园散步吧！你觉得怎么样？"
	whole, err := p.Phonemize(text, "zh")
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := p.Chunks(text, Options{Lang: "zh", Policy: Policy{FirstChunkMinIDs: 4, MaxChunkIDs: 60}})
	if err != nil {
		t.Fatal(err)
	}
	var joined []string
	for i, ch := range chunks {
		joined = append(joined, ch.Phonemes)
		if i < len(chunks)-1 && ch.Break < BreakComma {
			t.Errorf("chunk %d (%q) ends between words, want at punctuation", i, ch.Text)
		}
	}
	if len(chunks) < 3 || chunks[0].Break != BreakComma {
		t.Errorf("chunks %+v: want the first at the comma, then a sentence each", chunks)
	}
	if got := strings.Join(joined, " "); got != whole {
		t.Errorf("chunks joined\n  %s\nwant the whole text's\n  %s", got, whole)
	}
}

// TestJapaneseChunks checks that Japanese chunks end on its punctuation (。、！？, which its
// reader writes as ASCII marks) and join back to the whole reading, with the text beside them.
func TestJapaneseChunks(t *testing.T) {
	p := testPhonemizer(t)
	text := "こんにちは、お元気ですか。今日はいい天気ですね！明日も晴れるでしょうか？"
	whole, err := p.Phonemize(text, "ja")
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := p.Chunks(text, Options{Lang: "ja", Policy: Policy{FirstChunkMinIDs: 4, MaxChunkIDs: 60}})
	if err != nil {
		t.Fatal(err)
	}
	var joined, texts []string
	for i, ch := range chunks {
		joined = append(joined, ch.Phonemes)
		texts = append(texts, ch.Text)
		if i < len(chunks)-1 && ch.Break < BreakComma {
			t.Errorf("chunk %d (%q) ends between words, want at punctuation", i, ch.Text)
		}
	}
	if len(chunks) < 3 || chunks[0].Break != BreakComma || chunks[0].Text != "こんにちは、" {
		t.Errorf("chunks %+v: want the first at the comma, then a sentence each", chunks)
	}
	if got := strings.Join(joined, " "); got != whole {
		t.Errorf("chunks joined\n  %s\nwant the whole text's\n  %s", got, whole)
	}
	if got := strings.ReplaceAll(strings.Join(texts, ""), " ", ""); got != text {
		t.Errorf("chunk texts %q, want the text back", texts)
	}
}

// TestFirstChunkAtPunctuationInOtherLanguages: the early first-chunk rules cut on English cues;
// in another language the first chunk ends at its punctuation whatever FirstChunkAt says.
func TestFirstChunkAtPunctuationInOtherLanguages(t *testing.T) {
	p := testPhonemizer(t)
	text := "Mañana por la mañana vamos a visitar a nuestros amigos, y después comeremos en el centro."
	for _, at := range []FirstAt{FirstAtPhrase, FirstAtWord} {
		t.Run(at.String(), func(t *testing.T) {
			chunks, err := p.Chunks(text, Options{Lang: "es", Policy: Policy{FirstChunkAt: at}})
			if err != nil {
				t.Fatal(err)
			}
			if chunks[0].Break != BreakComma || !strings.HasSuffix(chunks[0].Text, "amigos,") {
				t.Errorf("FirstChunkAt %s: first chunk %q ends on %s, want at the comma", at, chunks[0].Text, chunks[0].Break)
			}
		})
	}
}

package tts_test

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

// langSpeakCase is one line of testdata/lang_speak.tsv: a sentence in a language, a voice of
// that language, and the reference pipeline's phonemes for it.
type langSpeakCase struct{ lang, voice, text, phonemes string }

func loadLangSpeak(t *testing.T) []langSpeakCase {
	t.Helper()
	f, err := os.Open("testdata/lang_speak.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []langSpeakCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		out = append(out, langSpeakCase{p[0], p[1], p[2], p[3]})
	}
	return out
}

// TestRealModelSpeaksEachLanguage speaks one sentence in each language with one of its voices
// (and the first language's by lang over an English voice too), and checks that the model was
// given the reference's token ids (its phonemes through the vocabulary, the chunks joined by
// a space), that what came out is speech-long and audible, and that its words are timed.
func TestRealModelSpeaksEachLanguage(t *testing.T) {
	t.Parallel()
	e := realEngine(t, 1, 2)
	for i, c := range loadLangSpeak(t) {
		want := phonemize.Tokenize(c.phonemes)
		reqs := []tts.Request{{Text: c.text, Voice: c.voice}}
		if i == 0 {
			// lang chooses the reader whatever the voice; one language shows it, as every
			// language's request resolves its lang the same way.
			reqs = append(reqs, tts.Request{Text: c.text, Voice: "af_heart", Lang: c.lang})
		}
		for _, req := range reqs {
			var ids []int64
			var pcm []float32
			var words, last string
			st, err := checkStream(context.Background(), e, req, func(ch tts.Chunk) error {
				if len(ids) > 0 {
					ids = append(ids, phonemize.SpaceID)
				}
				ids = append(ids, phonemize.Tokenize(ch.Phonemes)...)
				pcm = append(pcm, ch.PCM...)
				end := 0
				for k, w := range ch.Words {
					if w.Text == "" || w.Start < end || w.End <= w.Start || w.End > len(ch.PCM) {
						t.Errorf("%s %s: chunk %d word %+v after sample %d of %d", c.lang, req.Voice, ch.Index, w, end, len(ch.PCM))
					}
					end = w.End
					if k == 0 && w.Text == last {
						continue // a phrase a chunk cut, named in both
					}
					words += w.Text
				}
				if n := len(ch.Words); n > 0 {
					last = ch.Words[n-1].Text
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s %s: %v", c.lang, req.Voice, err)
			}
			if !slices.Equal(ids, want) {
				t.Errorf("%s %s: ids\n  %v\nwant the reference's\n  %v", c.lang, req.Voice, ids, want)
			}
			// Every language's words are timed, in order, and between them they are the text
			// (Mandarin's with its punctuation written as the reader writes it).
			if want := strings.Join(strings.Fields(c.text), ""); c.lang != "zh" && strings.Join(strings.Fields(words), "") != want {
				t.Errorf("%s %s: timed words %q, want the text %q", c.lang, req.Voice, words, want)
			}
			if c.lang == "zh" && len([]rune(words)) != len([]rune(c.text)) {
				t.Errorf("%s %s: timed words %q for the text %q", c.lang, req.Voice, words, c.text)
			}
			sec := st.AudioDuration.Seconds()
			if rms, _ := levels(pcm); rms < 0.02 || sec < 1.5 || sec > 8 {
				t.Errorf("%s %s: %.2f s of audio, rms %.3f", c.lang, req.Voice, sec, rms)
			}
			t.Logf("%s %s: %.2f s of audio for %q", c.lang, req.Voice, sec, c.text)
		}
	}
}

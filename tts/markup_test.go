package tts

import (
	"context"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// wholePhonemizer makes one chunk of the whole text, its ids the text's letters.
type wholePhonemizer struct{}

func (wholePhonemizer) Chunks(text string, _ chunk.Options) ([]chunk.Chunk, error) {
	return []chunk.Chunk{{Text: text, Phonemes: text, IDs: phonemize.Tokenize(text)}}, nil
}

// speakMarkup streams an SSML document through a real engine on the stand-in model.
func speakMarkup(t *testing.T, doc string) ([]Chunk, []int64) {
	t.Helper()
	e := New(Config{}, wholePhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	d, err := markup.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	req, err := CheckMarkup(e, Request{Markup: d.Segments(), Voice: "af_heart", Lang: "en-us"})
	if err != nil {
		t.Fatal(err)
	}
	var got []Chunk
	var starts []int64
	at := int64(0)
	if _, err := StreamMarkup(context.Background(), e, req, func(c Chunk) error {
		got = append(got, c)
		starts = append(starts, at)
		at += int64(len(c.PCM))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got, starts
}

// audible is the first and last non-zero sample of the chunks joined.
func audibleRuns(chunks []Chunk) [][2]int {
	var runs [][2]int
	at, in := 0, false
	for _, c := range chunks {
		for _, v := range c.PCM {
			if v != 0 && !in {
				runs, in = append(runs, [2]int{at, 0}), true
			}
			if v == 0 && in {
				runs[len(runs)-1][1], in = at, false
			}
			at++
		}
	}
	if in {
		runs[len(runs)-1][1] = at
	}
	return runs
}

// TestBreakIsSilenceOfItsLength hears each break as the silence between the speech around
// it, at its length to a frame, however long, and sent in chunks no longer than a second.
func TestBreakIsSilenceOfItsLength(t *testing.T) {
	const frame = 600
	for _, c := range []struct {
		doc  string
		want time.Duration
	}{
		{`<speak>one <break time="3s"/> two</speak>`, 3 * time.Second},
		{`<speak>one <break time="250ms"/> two</speak>`, 250 * time.Millisecond},
		{`<speak>one <break time="10s"/> two</speak>`, 10 * time.Second},
		{`<speak>one <break strength="strong"/> two</speak>`, JoinPause(chunk.BreakSentence)},
		{`<speak><p>one</p><p>two</p></speak>`, JoinPause(chunk.BreakParagraph)},
	} {
		chunks, _ := speakMarkup(t, c.doc)
		runs := audibleRuns(chunks)
		if len(runs) != 2 {
			t.Fatalf("%s: %d runs of sound, want 2", c.doc, len(runs))
		}
		gap := runs[1][0] - runs[0][1]
		if d := gap - samples(c.want); d < -frame || d > frame {
			t.Errorf("%s: a pause of %d samples, want %d ± %d", c.doc, gap, samples(c.want), frame)
		}
		for i, ch := range chunks {
			if ch.Index != i || ch.Final != (i == len(chunks)-1) {
				t.Errorf("%s: chunk %d has index %d, final %v", c.doc, i, ch.Index, ch.Final)
			}
			if ch.Duration() > time.Second && len(ch.Words) == 0 {
				t.Errorf("%s: a silent chunk of %v", c.doc, ch.Duration())
			}
		}
	}
}

// TestWordTimesAcrossPauses places every word after a pause where its sound is, and each
// mark at the start of the word after it.
func TestWordTimesAcrossPauses(t *testing.T) {
	chunks, starts := speakMarkup(t, `<speak>one <break time="2s"/><mark name="m"/>two <break time="500ms"/> three</speak>`)
	runs := audibleRuns(chunks)
	if len(runs) != 3 {
		t.Fatalf("%d runs of sound, want 3", len(runs))
	}
	var words [][2]int
	marks := map[string]int{}
	for i, c := range chunks {
		for _, w := range c.Words {
			words = append(words, [2]int{int(starts[i]) + w.Start, int(starts[i]) + w.End})
		}
		for _, m := range c.Marks {
			marks[m.Name] = int(starts[i]) + m.At
		}
	}
	if len(words) != 3 {
		t.Fatalf("%d words, want 3", len(words))
	}
	for i, w := range words {
		if w != runs[i] {
			t.Errorf("word %d at %v, its sound at %v", i, w, runs[i])
		}
	}
	if at, ok := marks["m"]; !ok || at != words[1][0] {
		t.Errorf("mark m at %d (found %v), want %d: the start of the word after it", at, ok, words[1][0])
	}
}

// TestMarkupStyle speaks a prosody rate as the segment's speed and a silent volume as
// silence.
func TestMarkupStyle(t *testing.T) {
	plain, _ := speakMarkup(t, `<speak>aa</speak>`)
	slow, _ := speakMarkup(t, `<speak><prosody rate="50%">aa</prosody></speak>`)
	if got, want := len(slow[0].PCM)-len(plain[0].PCM), len(plain[0].PCM)-samples(JoinLead+EndTail); got != want {
		t.Errorf("at half speed the speech is %d samples longer, want %d", got, want)
	}
	quiet, _ := speakMarkup(t, `<speak>aa <prosody volume="silent">bb</prosody></speak>`)
	if runs := audibleRuns(quiet); len(runs) != 1 {
		t.Errorf("%d runs of sound with the second segment silent, want 1", len(runs))
	}
}

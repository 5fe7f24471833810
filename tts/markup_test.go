package tts

import (
	"context"
	"strings"
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

// resolvedMarkup is segs to be spoken by af_heart in American English, as the engine's check
// resolves a request of markup.
func resolvedMarkup(t *testing.T, e *Engine, segs []markup.Segment) Resolved {
	t.Helper()
	r, err := e.CheckVoice(Request{Voice: "af_heart", Lang: "en-us"})
	if err != nil {
		t.Fatal(err)
	}
	r.Markup = segs
	return r
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
	req, err := CheckMarkup(e, resolvedMarkup(t, e, d.Segments()))
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
			if m.Type == MarkSSML {
				marks[m.Value] = int(starts[i]) + m.At
			}
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

// TestSpeechMarks places Polly's speech marks on a plain text and on a document: word marks
// whose bytes slice the input to the word, at the word's sound; sentence marks at their first
// word; visemes in order inside their words; a <mark> with its tag's bytes.
func TestSpeechMarks(t *testing.T) {
	e := New(Config{}, wholePhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	for _, c := range []struct {
		name      string
		segs      []markup.Segment
		words     []string
		sentences []string
	}{
		{"plain", markup.Plain("Hello there. Bye now."), []string{"Hello", "there.", "Bye", "now."}, []string{"Hello there.", "Bye now."}},
		{"ssml", mustSegments(t, `<speak>Call <say-as interpret-as="digits">42</say-as> <break time="1s"/><mark name="m"/>now.</speak>`),
			[]string{"Call", "42", "now."}, []string{`Call <say-as interpret-as="digits">42</say-as> <break time="1s"/><mark name="m"/>now.`}},
	} {
		req, err := CheckMarkup(e, resolvedMarkup(t, e, c.segs))
		if err != nil {
			t.Fatal(err)
		}
		var marks []Mark
		var words []Word
		at := 0
		if _, err := StreamMarkup(context.Background(), e, req, func(ch Chunk) error {
			for _, m := range ch.Marks {
				m.At += at
				marks = append(marks, m)
			}
			for _, w := range ch.Words {
				w.Start, w.End = w.Start+at, w.End+at
				words = append(words, w)
			}
			at += len(ch.PCM)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		src := c.segs[0].Source
		var gotWords, gotSentences []string
		wordAt := map[int]bool{}
		for _, w := range words {
			wordAt[w.Start] = true
		}
		prev := -1
		for _, m := range marks {
			switch m.Type {
			case MarkWord:
				if src[m.Start:m.End] != m.Value || !wordAt[m.At] {
					t.Errorf("%s: word mark %+v: bytes %q, at a word's start %v", c.name, m, src[m.Start:m.End], wordAt[m.At])
				}
				gotWords = append(gotWords, m.Value)
			case MarkSentence:
				gotSentences = append(gotSentences, m.Value)
			case MarkViseme:
				if m.At < prev {
					t.Errorf("%s: viseme %v before the one before it (%d)", c.name, m, prev)
				}
				inside := false
				for _, w := range words {
					inside = inside || m.At >= w.Start && m.At <= w.End
				}
				if !inside {
					t.Errorf("%s: viseme %v outside every word", c.name, m)
				}
				prev = m.At
			case MarkSSML:
				if src[m.Start:m.End] != `<mark name="m"/>` || m.At != words[len(words)-1].Start {
					t.Errorf("%s: ssml mark %+v", c.name, m)
				}
			}
		}
		if strings.Join(gotWords, "|") != strings.Join(c.words, "|") || strings.Join(gotSentences, "|") != strings.Join(c.sentences, "|") {
			t.Errorf("%s: words %q sentences %q, want %q %q", c.name, gotWords, gotSentences, c.words, c.sentences)
		}
	}
}

func mustSegments(t *testing.T, doc string) []markup.Segment {
	t.Helper()
	d, err := markup.Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	return d.Segments()
}

// TestRolesOnlyForEnglish: a <w role> reaches an English segment as the reader's part-of-speech
// override, and a segment in another language as the word written.
func TestRolesOnlyForEnglish(t *testing.T) {
	t.Parallel()
	e := New(Config{}, wholePhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	d, err := markup.Parse(`<speak>I <w role="amazon:VBD">read</w> it. <lang xml:lang="fr-FR">Je <w role="amazon:VB">lis</w>.</lang></speak>`)
	if err != nil {
		t.Fatal(err)
	}
	req, err := CheckMarkup(e, resolvedMarkup(t, e, d.Segments()))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range req.Markup {
		texts = append(texts, s.Text)
	}
	if len(texts) != 2 || !strings.Contains(texts[0], "[read](@VBD)") || texts[1] != "Je lis." {
		t.Errorf("segments %q: want the override in English and the word alone in French", texts)
	}
}

package captions

import (
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
)

// words makes words of 300 ms each with gaps of gap ms, from text.
func words(text string, gapMS float64) []api.Word {
	var out []api.Word
	at := 20.0
	for i, w := range strings.Fields(text) {
		out = append(out, api.Word{Word: w, Index: i, StartMS: at, EndMS: at + 300})
		at += 300 + gapMS
	}
	return out
}

func TestCuesEndAtSentencesPausesAndLength(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 40)
	cases := []struct {
		name  string
		words []api.Word
		want  []string // cue texts, lines joined by |
	}{
		{"sentences", words("Hello there. How are you? Fine.", 50), []string{"Hello there.", "How are you?", "Fine."}},
		{"quoted sentence end", words(`He said "stop." Then left.`, 50), []string{`He said "stop."`, "Then left."}},
		{"full-width sentence ends", words("こんにちは、 お元気ですか。 はい！ 「そう。」 では", 50), []string{"こんにちは、 お元気ですか。", "はい！", "「そう。」", "では"}},
		{"long pause", append(words("one two", 50), api.Word{Word: "three", Index: 2, StartMS: 2000, EndMS: 2300}), []string{"one two", "three"}},
		{"two lines at most", words(long, 0)[:20], nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cues := Cues(c.words)
			var got []string
			for _, q := range cues {
				got = append(got, strings.Join(q.Lines, "|"))
				for _, l := range q.Lines {
					if len([]rune(l)) > MaxLineChars {
						t.Errorf("%s: line %q longer than %d", c.name, l, MaxLineChars)
					}
				}
				if len(q.Lines) > 2 || q.End-q.Start > MaxCueDuration || q.End <= q.Start {
					t.Errorf("%s: cue %+v", c.name, q)
				}
			}
			if c.want != nil && strings.Join(got, "/") != strings.Join(c.want, "/") {
				t.Errorf("%s: cues %q, want %q", c.name, got, c.want)
			}
			if c.want == nil && len(cues) < 2 {
				t.Errorf("%s: %d cues for 20 words of 300 ms", c.name, len(cues))
			}
		})
	}
}

func TestWriteSRTAndWebVTT(t *testing.T) {
	t.Parallel()
	cues := []Cue{{Start: 20_000_000, End: 3_661_234_000_000, Lines: []string{"Fish & <chips>", "--> there"}}}
	srt, err := Write(FormatSRT, cues)
	if err != nil {
		t.Fatal(err)
	}
	if want := "1\n00:00:00,020 --> 01:01:01,234\nFish & <chips>\n--> there\n\n"; srt != want {
		t.Errorf("srt %q, want %q", srt, want)
	}
	vtt, err := Write(FormatWebVTT, cues)
	if err != nil {
		t.Fatal(err)
	}
	if want := "WEBVTT\n\n00:00:00.020 --> 01:01:01.234\nFish &amp; &lt;chips&gt;\n--&gt; there\n\n"; vtt != want {
		t.Errorf("vtt %q, want %q", vtt, want)
	}
	if _, err := Write("ass", cues); err == nil {
		t.Error("an unknown format was written")
	}
}

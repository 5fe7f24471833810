package markup

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the expected segments of testdata/corpus.txt")

// testPause resolves break strengths as the engine does (tts.JoinPause), so that the corpus
// reads as the audio will pause.
func testPause(p Pause) time.Duration {
	switch p {
	case PauseComma:
		return 160 * time.Millisecond
	case PauseSentence:
		return 270 * time.Millisecond
	case PauseParagraph:
		return 820 * time.Millisecond
	}
	return 0
}

// corpusCase is one document of testdata/corpus.txt.
type corpusCase struct {
	name     string
	doc      string
	want     string   // the segments, markup.String
	phonemes []string // optional: each segment's phonemes
}

const corpusFile = "testdata/corpus.txt"

// readCorpus reads the corpus file: its header, then its cases.
func readCorpus(t *testing.T) (string, []corpusCase) {
	t.Helper()
	b, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	var header strings.Builder
	var cases []corpusCase
	var cur *corpusCase
	section := 0 // 0 doc, 1 want, 2 phonemes
	var doc, want []string
	end := func() {
		if cur != nil {
			cur.doc = strings.Join(doc, "\n")
			if len(want) > 0 {
				cur.want = strings.Join(want, "\n") + "\n"
			}
			cases = append(cases, *cur)
		}
	}
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "=== "):
			end()
			cur, section, doc, want = &corpusCase{name: strings.TrimPrefix(line, "=== ")}, 0, nil, nil
		case cur == nil:
			header.WriteString(line + "\n")
		case line == "--- phonemes":
			section = 2
		case line == "---":
			section = 1
		case section == 0:
			doc = append(doc, line)
		case section == 1:
			want = append(want, line)
		default:
			cur.phonemes = append(cur.phonemes, line)
		}
	}
	end()
	return header.String(), cases
}

// TestCorpus reads every document of the corpus into the segments it expects: the pauses, the
// say-as readings, aliases, phoneme overrides, styles and marks.
func TestCorpus(t *testing.T) {
	header, cases := readCorpus(t)
	if len(cases) < 60 {
		t.Fatalf("the corpus has %d documents, want at least 60", len(cases))
	}
	var out strings.Builder
	out.WriteString(header)
	for _, c := range cases {
		d, err := Parse(c.doc)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := String(d.Segments(), testPause)
		if !*update && got != c.want {
			t.Errorf("%s: segments\n%s\nwant\n%s", c.name, got, c.want)
		}
		out.WriteString("=== " + c.name + "\n" + c.doc + "\n---\n" + got)
		if len(c.phonemes) > 0 {
			out.WriteString("--- phonemes\n" + strings.Join(c.phonemes, "\n") + "\n")
		}
	}
	if *update {
		if err := os.WriteFile(corpusFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

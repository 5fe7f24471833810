package markup

import (
	"strings"
	"unicode"
)

// Plain is a plain text as one segment, every byte of it mapped to itself, so that a text
// without markup is spoken, and its words and sentences are placed, as a document's are.
func Plain(text string) []Segment { return PlainDoc(text).Segments() }

// Sentence is one sentence of a run of segments: it starts at byte At of segment Seg's text
// and reads Src of the document. A sentence may run on across segments (a <break> inside
// it); it ends at sentence punctuation, or at a sentence's or paragraph's pause.
type Sentence struct {
	Seg, At int
	Src     Span
}

// Sentences finds the sentences of segs, in order.
func Sentences(segs []Segment) []Sentence {
	var out []Sentence
	open := false // the last sentence runs on into the next segment
	for i, s := range segs {
		for _, r := range sentenceRanges(s.Text) {
			src := s.SourceOf(r[0], r[1])
			if src.Start < 0 {
				continue
			}
			if open && len(out) > 0 {
				out[len(out)-1].Src.End = src.End
			} else {
				out = append(out, Sentence{Seg: i, At: r[0], Src: src})
			}
			open = !endsSentence(s.Text[r[0]:r[1]])
		}
		for _, b := range s.Breaks {
			if b.Pause >= PauseSentence && b.Time == 0 {
				open = false
			}
		}
	}
	return out
}

// sentenceRanges cuts text into its sentences, [start, end) each without the white space
// around them: after ., !, ? or … (and any closing quote or bracket) followed by white space.
func sentenceRanges(text string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range text {
		if start < 0 {
			if !unicode.IsSpace(r) {
				start = i
			}
			continue
		}
		if unicode.IsSpace(r) && endsSentence(text[start:i]) {
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		end := len(strings.TrimRightFunc(text, unicode.IsSpace))
		if end > start {
			out = append(out, [2]int{start, end})
		}
	}
	return out
}

// endsSentence reports whether s ends with sentence punctuation, closing quotes and brackets
// aside.
func endsSentence(s string) bool {
	s = strings.TrimRight(s, "\"')]}’”»")
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "…")
}

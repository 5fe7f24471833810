// Package captions writes an utterance's word timings as subtitles: SubRip (SRT) and WebVTT.
// Words are grouped into cues the way subtitles are read: a cue ends at the end of a sentence,
// before a long pause, or when it is as long as two lines of text or MaxCueDuration.
package captions

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/api"
)

// Formats a caller may ask for.
const (
	FormatSRT    = "srt"
	FormatWebVTT = "vtt"
)

// Formats lists the caption formats, for error messages.
var Formats = []string{FormatSRT, FormatWebVTT}

// Cue grouping. Two lines of 42 characters are the usual limit of broadcast and streaming
// subtitles; a cue shown longer than 6 s is read as stuck; a pause of 0.7 s or more is a new
// thought (the model pauses about 0.27 s at a sentence end, tts.JoinPause).
const (
	MaxLineChars   = 42
	MaxCueDuration = 6 * time.Second
	cuePause       = 700 * time.Millisecond
)

// Cue is one caption: its text (one or two lines) and when it is shown.
type Cue struct {
	Start, End time.Duration
	Lines      []string
}

// Cues groups words, in order, into captions.
func Cues(words []api.Word) []Cue {
	var cues []Cue
	var cur []api.Word
	flush := func() {
		if len(cur) > 0 {
			cues = append(cues, cue(cur))
			cur = nil
		}
	}
	for _, w := range words {
		if w.Word == "" {
			continue
		}
		if len(cur) > 0 {
			first, last := cur[0], cur[len(cur)-1]
			switch {
			case !fits(append(cur[:len(cur):len(cur)], w)),
				ms(w.EndMS-first.StartMS) > MaxCueDuration,
				ms(w.StartMS-last.EndMS) >= cuePause:
				flush()
			}
		}
		cur = append(cur, w)
		if endsSentence(w.Word) {
			flush()
		}
	}
	flush()
	return cues
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// chars is the length of the words joined by spaces, in characters.
func chars(ws []api.Word) int {
	n := len(ws) - 1
	for _, w := range ws {
		n += utf8.RuneCountInString(w.Word)
	}
	return n
}

// fits reports whether words can be laid out in two lines of MaxLineChars.
func fits(ws []api.Word) bool {
	lines, n := 1, -1
	for _, w := range ws {
		l := utf8.RuneCountInString(w.Word)
		if n >= 0 && n+1+l > MaxLineChars {
			lines, n = lines+1, -1
		}
		n += 1 + l
	}
	return lines <= 2
}

func endsSentence(w string) bool {
	w = strings.TrimRight(w, `"'”’)]」』）`)
	return w != "" && strings.ContainsRune(".!?…。！？", []rune(w)[utf8.RuneCountInString(w)-1])
}

// cue makes one caption of words: one line when it fits, else two broken at the space nearest
// the middle.
func cue(ws []api.Word) Cue {
	c := Cue{Start: ms(ws[0].StartMS), End: ms(ws[len(ws)-1].EndMS)}
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.Word
	}
	line := strings.Join(texts, " ")
	if utf8.RuneCountInString(line) <= MaxLineChars || len(ws) == 1 {
		c.Lines = []string{line}
		return c
	}
	// The most even break that keeps both lines within MaxLineChars (a single word longer
	// than a line, which cannot, gets the most even one).
	best, bestDiff := 1, -1
	for i := 1; i < len(ws); i++ {
		a, b := chars(ws[:i]), chars(ws[i:])
		d := abs(a - b)
		if a > MaxLineChars || b > MaxLineChars {
			d += 1 << 20
		}
		if bestDiff < 0 || d < bestDiff {
			best, bestDiff = i, d
		}
	}
	c.Lines = []string{strings.Join(texts[:best], " "), strings.Join(texts[best:], " ")}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Write renders cues in format (FormatSRT or FormatWebVTT).
func Write(format string, cues []Cue) (string, error) {
	var b strings.Builder
	switch format {
	case FormatSRT:
		for i, c := range cues {
			fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, stamp(c.Start, ','), stamp(c.End, ','), strings.Join(c.Lines, "\n"))
		}
	case FormatWebVTT:
		b.WriteString("WEBVTT\n\n")
		for _, c := range cues {
			lines := make([]string, len(c.Lines))
			for i, l := range c.Lines {
				lines[i] = vttEscape.Replace(l)
			}
			fmt.Fprintf(&b, "%s --> %s\n%s\n\n", stamp(c.Start, '.'), stamp(c.End, '.'), strings.Join(lines, "\n"))
		}
	default:
		return "", fmt.Errorf("caption format %q: want %s", format, strings.Join(Formats, " or "))
	}
	return b.String(), nil
}

// vttEscape escapes what WebVTT cue text reserves: & and < start markup, and > must not form
// the "-->" arrow.
var vttEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// stamp writes d as HH:MM:SS followed by sep and milliseconds (SRT uses a comma, WebVTT a dot).
func stamp(d time.Duration, sep byte) string {
	d = d.Round(time.Millisecond)
	h := d / time.Hour
	m := d % time.Hour / time.Minute
	s := d % time.Minute / time.Second
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", h, m, s, sep, d%time.Second/time.Millisecond)
}

package markup

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Segment is a run of a document spoken in one go: the same rate, volume and language, and
// no pause inside it. Its Text is what the phonemizer reads: the items' words, a <phoneme>
// written as the phonemizer's inline override, [word](/phonemes/).
type Segment struct {
	Text string
	// Source is the whole document the segment was cut from, which Pieces index.
	Source string
	Style  Style
	// Breaks are the pauses after the segment (more than one where breaks meet: the longest
	// wins). A segment may have no text: a pause at the start, or marks alone.
	Breaks []Item
	// Marks are the <mark>s in the segment, at byte offsets of Text.
	Marks []MarkAt
	// Pieces map Text back to the document, in order.
	Pieces []Piece
}

// MarkAt is a <mark> in a segment: At is a byte offset in the segment's Text.
type MarkAt struct {
	Name string
	At   int
	Src  Span
}

// Piece is a part of a segment's Text, bytes [At, At+Len), and the document bytes it reads.
// Exact: the text is the document's bytes as written, so an offset inside it maps one to one.
type Piece struct {
	At, Len int
	Src     Span
	Exact   bool
	// Plain is, for a piece a <w role> wrote as part-of-speech overrides ([word](@VBD), which
	// the English reader takes), its words as written; "" for any other piece.
	Plain string
}

// roleTags are the parts of speech the <w role>s name, as the English reader's Penn tags;
// amazon:SENSE_1 (a word's less common sense) has none.
var roleTags = map[string]string{"amazon:VB": "VB", "amazon:VBD": "VBD", "amazon:DT": "DT", "amazon:IN": "IN",
	"amazon:JJ": "JJ", "amazon:NN": "NN"}

// WithoutRoles is s with each <w role>'s overrides read back to its words as written, the
// pieces and marks after it moved to match: the segment for a reader other than English.
func (s Segment) WithoutRoles() Segment {
	if !slices.ContainsFunc(s.Pieces, func(p Piece) bool { return p.Plain != "" }) {
		return s
	}
	out := s
	out.Pieces = make([]Piece, len(s.Pieces))
	out.Marks = make([]MarkAt, len(s.Marks))
	var b strings.Builder
	last := 0 // the bytes of s.Text copied
	for i, p := range s.Pieces {
		b.WriteString(s.Text[last:p.At])
		np := p
		np.At = b.Len()
		if p.Plain != "" {
			b.WriteString(p.Plain)
			np.Len, np.Plain = len(p.Plain), ""
		} else {
			b.WriteString(s.Text[p.At : p.At+p.Len])
		}
		last = p.At + p.Len
		out.Pieces[i] = np
	}
	b.WriteString(s.Text[last:])
	out.Text = b.String()
	for k, m := range s.Marks {
		for _, p := range s.Pieces {
			if p.Plain != "" && p.At+p.Len <= m.At {
				m.At += len(p.Plain) - p.Len
			}
		}
		out.Marks[k] = m
	}
	return out
}

// Pause is the longest pause of the segment's breaks, each resolved by strength (how long a
// comma's, a sentence's, a paragraph's pause lasts is the engine's to say) unless it has a
// time.
func (s Segment) Pause(strength func(Pause) time.Duration) time.Duration {
	var d time.Duration
	for _, b := range s.Breaks {
		v := b.Time
		if v == 0 && b.Pause != PauseNone {
			v = strength(b.Pause)
		}
		d = max(d, v)
	}
	return d
}

// SourceOf maps a byte range [at, end) of the segment's Text to the document: the range of
// the pieces it touches, exact inside an exact piece.
func (s Segment) SourceOf(at, end int) Span {
	out := Span{-1, -1}
	for _, p := range s.Pieces {
		if end <= p.At || at >= p.At+p.Len {
			continue
		}
		a, e := p.Src.Start, p.Src.End
		if p.Exact {
			a = p.Src.Start + max(at-p.At, 0)
			e = p.Src.Start + min(end-p.At, p.Len)
		}
		if out.Start < 0 {
			out.Start = a
		}
		out.End = e
	}
	return out
}

// Segments cuts the document where the audio must change: at every break, and where the
// rate, the volume or the language changes. A break that a <p> or <s> implies is dropped at
// the document's start and end; a break written there is kept (a pause before or after the
// speech).
func (d *Doc) Segments() []Segment {
	var out []Segment
	cur := &Segment{Style: Style{Rate: 1}, Source: d.Source}
	open := false // cur has text or marks and takes more
	spoken := false
	flush := func() {
		if open || len(cur.Breaks) > 0 {
			cur.Text = strings.TrimRightFunc(cur.Text, unicode.IsSpace)
			for i := range cur.Marks {
				cur.Marks[i].At = min(cur.Marks[i].At, len(cur.Text))
			}
			out = append(out, *cur)
		}
		cur, open = &Segment{Style: Style{Rate: 1}, Source: d.Source}, false
	}
	lastText := -1 // the last item with words: an implied break after it is dropped
	for i, it := range d.Items {
		if it.Kind == KindText && strings.TrimSpace(it.Text) != "" {
			lastText = i
		}
	}
	for i, it := range d.Items {
		switch it.Kind {
		case KindBreak:
			if it.Implied && (!spoken || i > lastText) {
				continue
			}
			cur.Breaks = append(cur.Breaks, it)
		case KindMark:
			if len(cur.Breaks) > 0 {
				flush()
			}
			if !open {
				cur.Style, open = Style{Rate: 1, Lang: cur.Style.Lang}, true
			}
			cur.Marks = append(cur.Marks, MarkAt{Name: it.Name, At: len(cur.Text), Src: it.Src})
		case KindText:
			if strings.TrimSpace(it.Text) == "" {
				if open && !strings.HasSuffix(cur.Text, " ") && cur.Text != "" {
					cur.Text += " "
				}
				continue
			}
			st := it.Style
			st.Emphasis, st.Role = "", ""
			switch {
			case len(cur.Breaks) > 0:
				flush()
			case open && cur.Text != "" && !sameSound(cur.Style, st) && !speakless(it.Text):
				// Marks at the end of the text go with the words after them.
				end := len(strings.TrimRight(cur.Text, " "))
				var carry []MarkAt
				for len(cur.Marks) > 0 && cur.Marks[len(cur.Marks)-1].At >= end {
					carry = append([]MarkAt{cur.Marks[len(cur.Marks)-1]}, carry...)
					cur.Marks = cur.Marks[:len(cur.Marks)-1]
				}
				flush()
				for _, m := range carry {
					m.At = 0
					cur.Marks = append(cur.Marks, m)
				}
			case open && cur.Text != "" && speakless(it.Text):
				st = cur.Style // punctuation goes with the words before it
			}
			if !open || cur.Text == "" {
				cur.Style, open = st, true
			}
			spoken = true
			appendItem(cur, it)
		}
	}
	flush()
	return out
}

// sameSound reports whether two styles are spoken alike: the same rate, volume and language.
func sameSound(a, b Style) bool {
	return a.Rate == b.Rate && a.VolumeDB == b.VolumeDB && a.Lang == b.Lang
}

// appendItem adds a text item to seg: as written, or, for a rendered item (say-as, sub,
// phoneme), set apart by spaces so that it reads as words of its own.
func appendItem(seg *Segment, it Item) {
	text := it.Text
	tag := roleTags[it.Style.Role]
	if it.Phonemes != "" || strings.TrimSpace(text) == "" {
		tag = ""
	}
	rendered := !it.Exact || it.Phonemes != "" || tag != ""
	if rendered && seg.Text != "" && !strings.HasSuffix(seg.Text, " ") {
		seg.Text += " "
	}
	if !rendered && seg.Text == "" {
		trimmed := strings.TrimLeft(text, " \t\r\n")
		it.Src.Start += len(text) - len(trimmed)
		text = trimmed
	}
	if !rendered && strings.HasSuffix(seg.Text, " ") {
		// A rendered item left a space after it: the text's own space, or its punctuation,
		// takes its place.
		if trimmed := strings.TrimLeft(text, " \t\r\n"); trimmed != text || startsPunct(text) {
			seg.Text = strings.TrimRight(seg.Text, " ")
			if trimmed != text {
				seg.Text += " "
			}
			it.Src.Start += len(text) - len(trimmed)
			text = trimmed
		}
	}
	plain := ""
	if it.Phonemes != "" {
		text = fmt.Sprintf("[%s](/%s/)", strings.NewReplacer("[", "", "]", "", "(", "", ")", "").Replace(text), it.Phonemes)
	} else if tag != "" {
		plain = strings.TrimSpace(text)
		words := strings.Fields(strings.NewReplacer("[", "", "]", "", "(", "", ")", "").Replace(plain))
		for k, w := range words {
			words[k] = fmt.Sprintf("[%s](@%s)", w, tag)
		}
		text = strings.Join(words, " ")
	}
	seg.Pieces = append(seg.Pieces, Piece{At: len(seg.Text), Len: len(text), Src: it.Src, Exact: it.Exact && it.Phonemes == "" && tag == "", Plain: plain})
	seg.Text += text
	if rendered {
		seg.Text += " "
	}
}

// speakless reports whether s has nothing to speak: no letter, no digit.
func speakless(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0
}

// startsPunct reports whether s starts with punctuation that follows a word unspaced.
func startsPunct(s string) bool {
	return s != "" && strings.ContainsRune(".,;:!?)", rune(s[0]))
}

// String renders the segments in one line each, for tests and logs: the style when it is not
// plain, the text with {name} at each mark, and the pause after it in brackets, resolved by
// strength.
func String(segs []Segment, strength func(Pause) time.Duration) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Style.Rate != 1 {
			fmt.Fprintf(&b, "rate=%g ", s.Style.Rate)
		}
		if s.Style.VolumeDB != 0 {
			fmt.Fprintf(&b, "volume=%gdB ", s.Style.VolumeDB)
		}
		if s.Style.Lang != "" {
			fmt.Fprintf(&b, "lang=%s ", s.Style.Lang)
		}
		at := 0
		for _, m := range s.Marks {
			b.WriteString(s.Text[at:m.At])
			fmt.Fprintf(&b, "{%s}", m.Name)
			at = m.At
		}
		b.WriteString(s.Text[at:])
		if len(s.Breaks) > 0 {
			fmt.Fprintf(&b, " [%v]", s.Pause(strength))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

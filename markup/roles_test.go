package markup

import (
	"strings"
	"testing"
)

// TestWithoutRoles: a <w role> is a part-of-speech override in the segment's text, and read
// back to its word as written for a reader other than English, with the pieces and marks
// after it moved to the same words.
func TestWithoutRoles(t *testing.T) {
	t.Parallel()
	doc, err := Parse(`<speak>Je <w role="amazon:VB">lis</w> <mark name="m"/>ici, <w role="amazon:NN">vite</w> fait.</speak>`)
	if err != nil {
		t.Fatal(err)
	}
	segs := doc.Segments()
	if len(segs) != 1 || !strings.Contains(segs[0].Text, "[lis](@VB)") {
		t.Fatalf("segments %+v: want one, with the override", segs)
	}
	s := segs[0].WithoutRoles()
	if s.Text != "Je lis ici, vite fait." {
		t.Errorf("text %q", s.Text)
	}
	if len(s.Marks) != 1 || !strings.HasPrefix(s.Text[s.Marks[0].At:], "ici") {
		t.Errorf("marks %+v in %q: want the mark before ici", s.Marks, s.Text)
	}
	for _, p := range s.Pieces {
		got := s.Text[p.At : p.At+p.Len]
		if src := doc.Source[p.Src.Start:p.Src.End]; p.Plain != "" || (p.Exact && got != src) || !strings.Contains(src, strings.TrimSpace(got)) {
			t.Errorf("piece %+v reads %q, its source %q", p, got, src)
		}
	}
	if plain := segs[0]; plain.WithoutRoles().Text == plain.Text {
		t.Error("WithoutRoles changed nothing")
	}
}

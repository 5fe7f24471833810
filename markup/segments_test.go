package markup

import (
	"testing"
)

// TestSourceOf maps words of the segments' text back to the bytes of the document they
// read: text as written one to one, a rendered element to its content.
func TestSourceOf(t *testing.T) {
	doc := `<speak>Call <say-as interpret-as="digits">911</say-as> now, <sub alias="doctor">Dr.</sub> Who.</speak>`
	d, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	segs := d.Segments()
	if len(segs) != 1 {
		t.Fatalf("%d segments", len(segs))
	}
	s := segs[0]
	for _, c := range []struct{ word, src string }{
		{"Call", "Call"}, {"nine one one", "911"}, {"now", "now"}, {"doctor", "Dr."}, {"Who.", "Who."},
	} {
		at := indexOf(s.Text, c.word)
		if at < 0 {
			t.Fatalf("%q not in %q", c.word, s.Text)
		}
		sp := s.SourceOf(at, at+len(c.word))
		if got := doc[sp.Start:sp.End]; got != c.src {
			t.Errorf("%q maps to %q, want %q", c.word, got, c.src)
		}
	}
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestIsSSML recognizes a document by its start, as a request that does not name its text
// type is read.
func TestIsSSML(t *testing.T) {
	for text, want := range map[string]bool{
		"<speak>x</speak>": true, "  \n<speak version=\"1.1\">": true, `<?xml version="1.0"?><speak/>`: true,
		"Hello <speak>": false, "<b>x</b>": false, "": false,
	} {
		if got := IsSSML(text); got != want {
			t.Errorf("IsSSML(%q) = %v", text, got)
		}
	}
}

// TestSentences finds the document's sentences across segments: a break inside a sentence
// does not end it, a sentence's pause and sentence punctuation do.
func TestSentences(t *testing.T) {
	doc := `<speak>Mary had a little lamb <break time="1s"/>whose fleece was white. It went. <s>And then</s><s>the end</s></speak>`
	d, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range Sentences(d.Segments()) {
		got = append(got, doc[s.Src.Start:s.Src.End])
	}
	want := []string{"Mary had a little lamb <break time=\"1s\"/>whose fleece was white.", "It went.", "And then", "the end"}
	if len(got) != len(want) {
		t.Fatalf("sentences %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d %q, want %q", i, got[i], want[i])
		}
	}
	plain := "One. Two three? Four"
	var p []string
	for _, s := range Sentences(Plain(plain)) {
		p = append(p, plain[s.Src.Start:s.Src.End])
	}
	if len(p) != 3 || p[0] != "One." || p[1] != "Two three?" || p[2] != "Four" {
		t.Errorf("plain sentences %q", p)
	}
}

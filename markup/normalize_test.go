package markup

import "testing"

// TestNormalize reads web and e-mail addresses as they are said, when switched on, and maps
// each back to its bytes.
func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		text string
		n    Normalization
		want string
	}{
		{"Visit https://example.com/docs/ today.", DefaultNormalization, "Visit example dot com slash docs today."},
		{"Go to www.kokoro-sm.io, then wait.", DefaultNormalization, "Go to W W W dot kokoro dash sm dot io, then wait."},
		{"Mail jo.doe+tts@mail.example.org now.", DefaultNormalization, "Mail jo dot doe plus tts at mail dot example dot org now."},
		{"Visit https://example.com today.", Normalization{Emails: true}, "Visit https://example.com today."},
		{"Mail jo@example.com.", Normalization{URLs: true}, "Mail jo@example.com."},
		{"No address here.", DefaultNormalization, "No address here."},
	} {
		d := PlainDoc(c.text)
		d.Normalize(c.n)
		segs := d.Segments()
		if got := segs[0].Text; got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
		if c.n.Rewrites(c.text) != (segs[0].Text != c.text) {
			t.Errorf("%q: Rewrites says %v", c.text, c.n.Rewrites(c.text))
		}
		for _, p := range segs[0].Pieces {
			if !p.Exact && (c.text[p.Src.Start:p.Src.End] == "" || p.Src.End > len(c.text)) {
				t.Errorf("%q: piece %+v", c.text, p)
			}
		}
	}
}

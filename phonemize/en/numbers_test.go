package en

import "testing"

// TestNumberFlags: the flags of an inline override ([101](#&#)) change how the number is read,
// each as the reference reads its flag character; other characters change nothing.
func TestNumberFlags(t *testing.T) {
	p := offlinePhonemizer(t)
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"101 dogs.", "wˈʌn hˈʌndɹəd wˈʌn dˈɔɡz."},
		{"[101](#&#) dogs.", "wˈʌn hˈʌndɹəd ænd wˈʌn dˈɔɡz."},  // the "and" is read
		{"[101](#n#) dogs.", "wˈʌn hˈʌndɹədən wˈʌn dˈɔɡz."},    // the dropped "and" joins the word before
		{"[101](#a#) dogs.", "ə hˈʌndɹəd wˈʌn dˈɔɡz."},         // a leading "one" reads "a"
		{"[101](#&a#) dogs.", "ə hˈʌndɹəd ænd wˈʌn dˈɔɡz."},    // flags combine
		{"[1,001](#&#) dogs.", "wˈʌn θˈWzᵊnd ænd wˈʌn dˈɔɡz."}, // on every part of the number
		{"[101](#x#) dogs.", "wˈʌn hˈʌndɹəd wˈʌn dˈɔɡz."},      // no such flag
		{"[101](##) dogs.", "wˈʌn hˈʌndɹəd wˈʌn dˈɔɡz."},       // no flag at all
	} {
		if got, err := p.Phonemize(c.text, "en-us"); err != nil || got != c.want {
			t.Errorf("Phonemize(%q) = %q, %v; want %q", c.text, got, err, c.want)
		}
	}
}

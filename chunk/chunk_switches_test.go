package chunk

import (
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// TestChunksReadWithTheSwitches: the options' switches reach a phonemizer that takes them.
func TestChunksReadWithTheSwitches(t *testing.T) {
	r := testPhonemizer(t)
	t.Parallel()
	read := func(sw phonemize.Switches) string {
		cs, err := r.Chunks("It is 5 km away.", Options{Lang: "en-us", Switches: sw})
		if err != nil || len(cs) != 1 {
			t.Fatalf("%d chunks, %v", len(cs), err)
		}
		return cs[0].Phonemes
	}
	if on, off := read(phonemize.Switches{}), read(phonemize.Switches{UnitsOff: true}); on == off {
		t.Errorf("units on and off both read %q", on)
	}
}

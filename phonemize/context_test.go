package phonemize

import (
	"slices"
	"strings"
	"testing"
)

// With Context, the two chunks at a cut between two words carry the word across the cut: the
// model hears "Your order shipped" and the listener "Your order", then the model hears "order
// shipped this morning" and the listener "shipped this morning". Cuts at punctuation carry none.
func TestContextCarriesTheWordAcrossACut(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, text := range []string{
		"Your order shipped this morning and arrives on Friday before noon, with tracking.",
		"I can move your appointment to Thursday at three if that works for you.",
		"The parcel was signed for by someone named Rivera at the front door.",
		"Thanks for calling, how can I help you today? We're open until nine o'clock tonight.",
	} {
		for _, at := range []FirstAt{FirstAtPunctuation, FirstAtPhrase, FirstAtWord} {
			plain, err := p.Chunks(text, Options{FirstChunkAt: at, MaxIDs: 24})
			if err != nil {
				t.Fatal(err)
			}
			chunks, err := p.Chunks(text, Options{FirstChunkAt: at, MaxIDs: 24, Context: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(plain) != len(chunks) {
				t.Fatalf("%q: context changed the cuts: %d chunks, %d without", text, len(chunks), len(plain))
			}
			whole, err := p.Chunks(text, Options{FirstChunkMinIDs: MaxIDs, FirstChunkMaxIDs: MaxIDs})
			if err != nil {
				t.Fatal(err)
			}
			all := whole[0].IDs
			words := 0
			for i, c := range chunks {
				if !slices.Equal(c.IDs, plain[i].IDs) || c.Break != plain[i].Break {
					t.Fatalf("%q chunk %d: context changed it", text, i)
				}
				cutAfter := c.Break == BreakWord && i+1 < len(chunks)
				cutBefore := i > 0 && chunks[i-1].Break == BreakWord
				if cutAfter != (len(c.After) > 0) || cutBefore != (len(c.Before) > 0) {
					t.Errorf("%q chunk %d %q (%v after, %v before): before %v after %v", text, i, c.Text, c.Break, cutBefore, c.Before, c.After)
				}
				if len(c.After) > 0 {
					words++
					if c.After[0] != SpaceID || slices.Contains(c.After[1:], SpaceID) {
						t.Errorf("%q chunk %d: after %v is not a space and one word", text, i, c.After)
					}
				}
				if len(c.Before) > 0 && (c.Before[len(c.Before)-1] != SpaceID || slices.Contains(c.Before[:len(c.Before)-1], SpaceID)) {
					t.Errorf("%q chunk %d: before %v is not one word and a space", text, i, c.Before)
				}
				// What the model hears is a stretch of the sentence spoken whole.
				heard := slices.Concat(c.Before, c.IDs, c.After)
				if !containsRun(all, heard) {
					t.Errorf("%q chunk %d: the model hears %v, not part of %v", text, i, heard, all)
				}
			}
			if at == FirstAtWord && words == 0 {
				t.Errorf("%q: no cut between words at MaxIDs 24", text)
			}
		}
	}
}

func containsRun(all, run []int64) bool {
	for i := 0; i+len(run) <= len(all); i++ {
		if slices.Equal(all[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// A word too long to be worth the model's time is not carried.
func TestContextSkipsALongWord(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	text := "Please read the " + strings.Repeat("supercalifragilistic", 1) + "expialidocious instructions carefully before you start."
	chunks, err := p.Chunks(text, Options{FirstChunkAt: FirstAtWord, FirstChunkMaxIDs: 12, MaxIDs: 40, Context: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range chunks {
		if len(c.Before) > maxContextIDs+1 || len(c.After) > maxContextIDs+1 {
			t.Errorf("chunk %d %q: context of %d and %d ids", i, c.Text, len(c.Before), len(c.After))
		}
	}
}

package chunk

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
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
			plain, err := p.Chunks(text, Options{Policy: Policy{FirstChunkAt: at, MaxChunkIDs: 24}})
			if err != nil {
				t.Fatal(err)
			}
			chunks, err := p.Chunks(text, Options{Context: true, Policy: Policy{FirstChunkAt: at, MaxChunkIDs: 24}})
			if err != nil {
				t.Fatal(err)
			}
			if len(plain) != len(chunks) {
				t.Fatalf("%q: context changed the cuts: %d chunks, %d without", text, len(chunks), len(plain))
			}
			whole, err := p.Chunks(text, Options{Policy: Policy{FirstChunkMinIDs: model.MaxIDs, FirstChunkMaxIDs: model.MaxIDs}})
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
					if c.After[0] != phonemize.SpaceID || slices.Contains(c.After[1:], phonemize.SpaceID) {
						t.Errorf("%q chunk %d: after %v is not a space and one word", text, i, c.After)
					}
				}
				if len(c.Before) > 0 && (c.Before[len(c.Before)-1] != phonemize.SpaceID || slices.Contains(c.Before[:len(c.Before)-1], phonemize.SpaceID)) {
					t.Errorf("%q chunk %d: before %v is not one word and a space", text, i, c.Before)
				}
				// What the model hears is a stretch of the sentence spoken whole.
				heard := slices.Concat(c.Before, c.IDs, c.After)
				if !containsRun(all, heard) {
					t.Errorf("%q chunk %d: the model hears %v, not part of %v", text, i, heard, all)
				}
			}
			if at == FirstAtWord && words == 0 {
				t.Errorf("%q: no cut between words at model.MaxIDs 24", text)
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
	chunks, err := p.Chunks(text, Options{Context: true, Policy: Policy{FirstChunkAt: FirstAtWord, FirstChunkMaxIDs: 12, MaxChunkIDs: 40}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range chunks {
		if len(c.Before) > maxContextIDs+1 || len(c.After) > maxContextIDs+1 {
			t.Errorf("chunk %d %q: context of %d and %d ids", i, c.Text, len(c.Before), len(c.After))
		}
	}
}

// With PaceWhole, a later chunk takes the rest of its sentence when that fits in PaceWhole
// times the audio ahead, where the paced limit alone would cut it again.
func TestPaceWholeTakesTheRestOfTheSentence(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	text := "Thanks for calling today, your order shipped this morning and will arrive at the front desk on Friday."
	base := Options{Pace: 3, PaceOverhead: 18, Policy: Policy{MaxChunkIDs: 200}}
	cut, err := p.Chunks(text, base)
	if err != nil {
		t.Fatal(err)
	}
	whole := base
	whole.PaceWhole = 0.9 / 0.7
	one, err := p.Chunks(text, whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(cut) < 3 || len(one) != 2 || one[0].Text != cut[0].Text || one[1].Break != BreakEnd {
		t.Fatalf("paced: %q; with PaceWhole: %q; want the rest after the same first chunk in one", texts(cut), texts(one))
	}
	// It is whole only when it fits: the rest costs its ids and the overhead.
	ahead := base.Pace * float64(len(one[0].IDs))
	if cost := float64(len(one[1].IDs) + base.PaceOverhead); cost > whole.PaceWhole*ahead+2 {
		t.Errorf("the rest costs %.0f units, more than %.0f", cost, whole.PaceWhole*ahead)
	}
}

// A paced chunk cut between two words is cut in the second half of its budget: a phrase
// boundary after a few ids would cost a chunk's overhead for little audio.
func TestPacedCutsAreNotShort(t *testing.T) {
	t.Parallel()
	ps := []piece{{IDs: 4, Cut: cutWord}, {IDs: 3, Cut: cutPhrase}, {IDs: 5, Cut: cutWord}, {IDs: 5, Cut: cutWord}, {IDs: 5, Cut: cutSentence}}
	if e := cutPoint(ps, 0, 20); e != 2 {
		t.Fatalf("cutPoint takes the phrase cut after 7 ids: got end %d", e)
	}
	if e := cutPointFrom(ps, 0, 20, 10); e != 4 {
		t.Errorf("with a floor of 10 ids: end %d, want 4 (17 ids, between two words)", e)
	}
	// Punctuation counts wherever it falls.
	ps[1].Cut = cutComma
	if e := cutPointFrom(ps, 0, 20, 10); e != 2 {
		t.Errorf("a comma after 7 ids: end %d, want 2", e)
	}
	if e := cutPointFrom(ps, 0, 30, 10); e != 5 {
		t.Errorf("the whole text fits: end %d, want 5", e)
	}
}

// An early first chunk is long enough for the next chunk to gain on playback: the more the
// model outpaces playback, the earlier the cut may be.
func TestEarliestCutFollowsThePace(t *testing.T) {
	t.Parallel()
	if n := earliestCut(Options{}); n != 0 {
		t.Errorf("no pace: %d", n)
	}
	slow := earliestCut(Options{Pace: 2, PaceOverhead: 18, Context: true})
	fast := earliestCut(Options{Pace: 4, PaceOverhead: 18, Context: true})
	plain := earliestCut(Options{Pace: 2, PaceOverhead: 18})
	if !(fast < slow && plain < slow && fast > 0) {
		t.Errorf("earliest cut: slow %d, fast %d, slow without context %d", slow, fast, plain)
	}
	// At the pace found, the chunk after it can be longer than what it costs beyond its audio.
	for _, o := range []Options{{Pace: 2, PaceOverhead: 18, Context: true}, {Pace: 4, PaceOverhead: 18}} {
		f := float64(earliestCut(o))
		cost := float64(o.PaceOverhead)
		if o.Context {
			cost += 2 * contextEstimate
		}
		next := o.Pace*f - cost
		if next*o.Pace < next+cost-1e-9 {
			t.Errorf("%+v: a first chunk of %.0f ids leaves a next chunk of %.1f ids, which loses on playback", o, f, next)
		}
	}
	p := testPhonemizer(t)
	cs, err := p.Chunks("Your order shipped this morning and will arrive at the front desk on Friday.", Options{Pace: 2, PaceOverhead: 18, Context: true, Policy: Policy{FirstChunkAt: FirstAtWord}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cs[0].IDs); n < slow-1 && cs[0].Break == BreakWord {
		t.Errorf("first chunk %q has %d ids, under the earliest cut %d", cs[0].Text, n, slow)
	}
}

// A chunk as long as the model takes gets no context: the model would not take it.
func TestContextStaysWithinTheModelsInput(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	text := strings.Repeat("we walked along the quiet river and talked about the weather ", 30) + "until it was dark."
	cs, err := p.Chunks(text, Options{Context: true, Policy: Policy{FirstChunkMinIDs: model.MaxIDs, FirstChunkMaxIDs: model.MaxIDs}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 2 || cs[0].Break != BreakWord || len(cs[0].IDs) < model.MaxIDs-20 {
		t.Fatalf("want a first chunk of nearly %d ids cut between words: %d chunks, first %d ids, %v", model.MaxIDs, len(cs), len(cs[0].IDs), cs[0].Break)
	}
	for i, c := range cs {
		if n := len(c.Before) + len(c.IDs) + len(c.After); n > model.MaxIDs {
			t.Errorf("chunk %d: the model would hear %d ids", i, n)
		}
	}
}

// An early first chunk that would leave a later one more to make than the audio ahead of it
// lasts (a wait for the listener) ends later, or at the first phrase: at a pace a slow
// machine shows, the first cut's own rule leaves waits in some of the voice-agent sentences,
// and the plan taken leaves none, or falls back to punctuation.
func TestEarlyFirstChunkLeavesNoWait(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	b, err := os.ReadFile("../testdata/perf/texts.txt")
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Pace: 2.4, PaceOverhead: 18, PaceWhole: 0.9 / 0.7, Context: true, Policy: Policy{FirstChunkAt: FirstAtWord}}
	waited, moved := 0, 0
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, err := p.cutter(line, opt)
		if err != nil {
			t.Fatal(err)
		}
		plain, _, w := k.chunks(0)
		if w > 0 {
			waited++
		}
		cs, w := k.plan()
		if w > 0 && cs[0].Break < BreakComma {
			t.Errorf("%q: the plan taken leaves %d waits after an early first chunk %q", line, w, cs[0].Text)
		}
		if cs[0].Text != plain[0].Text {
			moved++
			if len(cs[0].IDs) < len(plain[0].IDs) {
				t.Errorf("%q: first chunk %q moved earlier than %q", line, cs[0].Text, plain[0].Text)
			}
		}
		if c2, err := p.Chunks(line, opt); err != nil || c2[0].Text != cs[0].Text {
			t.Errorf("%q: Chunks does not take the plan (%v)", line, err)
		}
	}
	if waited == 0 || moved == 0 {
		t.Errorf("at this pace %d sentences waited after the first cut's own rule, %d first chunks moved: the check proves nothing", waited, moved)
	}
}

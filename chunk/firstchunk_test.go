package chunk

import (
	"strings"
	"testing"
)

// The first chunk is the first phrase of the text: the first punctuation after
// FirstChunkMinIDs ids ends it, so first audio waits for one phrase, not a whole sentence.
func TestFirstChunkIsFirstPhrase(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, c := range []struct {
		text  string
		opt   Options
		first string
	}{
		{"Thanks for calling Acme support, how can I help you today?", Options{}, "Thanks for calling Acme support,"},
		// "Sure," is too short to stand alone; the next punctuation is the end.
		{"Sure, I can help you with that today.", Options{}, "Sure, I can help you with that today."},
		{"I have checked your account this morning; the payment arrived. Thanks!", Options{}, "I have checked your account this morning;"},
		{"Your package arrived. It is at the front desk, next to the mail room.", Options{}, "Your package arrived."},
		// A lower minimum takes the greeting alone.
		{"Hello Anna, how are you today?", Options{Policy: Policy{FirstChunkMinIDs: 4}}, "Hello Anna,"},
		// A first phrase longer than the first chunk's budget is cut between words.
		{"When the long and tiring meeting had finally ended late in the evening we all went home, tired.", Options{Policy: Policy{FirstChunkMaxIDs: 30}}, ""},
		// With the minimum at the budget, the first chunk is packed like any other.
		{"Thanks for calling, how can I help? I am here all day.", Options{Policy: Policy{FirstChunkMinIDs: 510, FirstChunkMaxIDs: 510}}, "Thanks for calling, how can I help? I am here all day."},
	} {
		t.Run(caseName(c.text), func(t *testing.T) {
			chunks, err := p.Chunks(c.text, c.opt)
			if err != nil {
				t.Fatalf("%q: %v", c.text, err)
			}
			got := chunks[0]
			if c.first == "" {
				if n := len(got.IDs); n > c.opt.FirstChunkMaxIDs || got.Break != BreakWord {
					t.Errorf("%q: first chunk %q (%d ids, %v), want at most %d ids cut between words", c.text, got.Text, n, got.Break, c.opt.FirstChunkMaxIDs)
				}
				return
			}
			if got.Text != c.first {
				t.Errorf("%q: first chunk %q (%d ids), want %q", c.text, got.Text, len(got.IDs), c.first)
			}
		})
	}
}

// FirstChunkAt lets the first chunk end earlier: before a word that opens a phrase, or between
// two words that do not split one, within two thirds of its budget (30 ids by default).
func TestFirstChunkAt(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	for _, c := range []struct {
		text                      string
		punctuation, phrase, word string
	}{
		{"Thanks for calling, how can I help you today?", "Thanks for calling,", "Thanks for calling,", "Thanks for calling,"},
		{"I can book that for you at three in the afternoon.", "I can book that for you at three in the afternoon.", "I can book that", "I can book that"},
		{"Your order shipped this morning and arrives Friday.", "Your order shipped this morning and arrives Friday.", "Your order shipped this morning", "Your order"},
		// A comma a little past the phrase budget comes before a cut between two words.
		{"When the rain stopped, we walked all the way to the old station in the dark.", "When the rain stopped,", "When the rain stopped,", "When the rain stopped,"},
	} {
		t.Run(caseName(c.text), func(t *testing.T) {
			for at, want := range map[FirstAt]string{FirstAtPunctuation: c.punctuation, FirstAtPhrase: c.phrase, FirstAtWord: c.word} {
				cs, err := p.Chunks(c.text, Options{Policy: Policy{FirstChunkAt: at}})
				if err != nil {
					t.Fatal(err)
				}
				if cs[0].Text != want {
					t.Errorf("%v: %q: first chunk %q (%d ids), want %q", at, c.text, cs[0].Text, len(cs[0].IDs), want)
				}
				if at > FirstAtPunctuation && len(cs[0].IDs) > DefaultEarlyFirstChunkMaxIDs {
					t.Errorf("%v: first chunk of %d ids, over the budget of %d", at, len(cs[0].IDs), DefaultEarlyFirstChunkMaxIDs)
				}
			}
		})
	}
	for _, s := range []string{"punctuation", "Phrase", "word", "AUTO"} {
		if at, err := ParseFirstAt(s); err != nil || !strings.EqualFold(at.String(), s) {
			t.Errorf("ParseFirstAt(%q) = %v, %v", s, at, err)
		}
	}
	if _, err := ParseFirstAt("clause"); err == nil {
		t.Error("ParseFirstAt accepted clause")
	}
}

// With Pace, each later chunk is cut to what the model makes while the audio before it plays.
func TestChunkPace(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	const overhead = 18
	text := strings.Repeat("The quick brown fox jumps over the lazy dog, and then it runs away; nobody knows where. ", 12)
	opt := Options{Pace: 3, PaceOverhead: overhead, Policy: Policy{MaxChunkIDs: 200}}
	chunks, err := p.Chunks(text, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !keepsUpWith(chunks, 3, overhead) {
		t.Errorf("a later chunk costs more than the audio ahead of it: %q", texts(chunks))
	}
	grew := false
	for _, c := range chunks[1:] {
		grew = grew || len(c.IDs) > 3*len(chunks[0].IDs)
	}
	if !grew {
		t.Errorf("chunks did not grow with the audio ahead: %d chunks, first %d ids", len(chunks), len(chunks[0].IDs))
	}
}

// keepsUpWith replays chunks at pace: each one after the first must be made (its ids plus the
// overhead, in units of model time per id) before the audio ahead of it (pace units an id) has
// played. Pieces count the space after them, so a chunk may cost one unit more.
func keepsUpWith(cs []Chunk, pace float64, overhead int) bool {
	ahead := 0.0
	for i, c := range cs {
		n := float64(len(c.IDs))
		cost := n + float64(overhead)
		if i > 0 && cost > ahead+1 {
			return false
		}
		if i == 0 {
			cost = 0
		}
		ahead = max(0, ahead-cost) + pace*n
	}
	return true
}

// With a ramp, each later chunk is at most Ramp times the ids before it (but never below the
// first chunk's budget), so it is synthesized while the audio before it plays.
func TestChunkRamp(t *testing.T) {
	p := testPhonemizer(t)
	t.Parallel()
	text := strings.Repeat("The quick brown fox jumps over the lazy dog, and then it runs away; nobody knows where. ", 12)
	opt := Options{Policy: Policy{FirstChunkMinIDs: 12, FirstChunkMaxIDs: 40, MaxChunkIDs: 300, Ramp: 2}}
	chunks, err := p.Chunks(text, opt)
	if err != nil {
		t.Fatal(err)
	}
	done, grew := 0, false
	for i, c := range chunks {
		limit := opt.FirstChunkMaxIDs
		if i > 0 {
			limit = min(opt.MaxChunkIDs, max(opt.FirstChunkMaxIDs, 2*done))
		}
		if len(c.IDs) > limit {
			t.Errorf("chunk %d has %d ids after %d, limit %d", i, len(c.IDs), done, limit)
		}
		if i > 0 && len(c.IDs) > 2*opt.FirstChunkMaxIDs {
			grew = true
		}
		done += len(c.IDs)
	}
	if !grew {
		t.Errorf("no chunk grew past twice the first budget: %d chunks", len(chunks))
	}
}

package tts_test

import (
	"context"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// The default shape with the real model on 2 shared cores: a lone request speaks on the wide
// slot; a request that arrives while another is speaking runs on a narrow one; all of it is
// speech.
func TestRealModelAdaptiveShape(t *testing.T) {
	t.Parallel()
	e, err := tts.Load(context.Background(), tts.LoadConfig{Assets: testenv.RealModel(t), Provider: "cpu", Cores: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	type done struct {
		slots []int
		audio float64
		err   error
	}
	speak := func(text string, first func()) done {
		var d done
		st, err := checkStream(context.Background(), e, tts.Request{Text: text}, func(c tts.Chunk) error {
			if c.Index == 0 && first != nil {
				first()
			}
			d.slots = append(d.slots, c.Slot)
			return nil
		})
		d.audio, d.err = st.AudioDuration.Seconds(), err
		return d
	}
	second := make(chan done, 1)
	secondFirst, secondDone := make(chan struct{}), make(chan struct{})
	// Three chunks or more, so that the first request still has chunks to submit while it
	// holds its first chunk: after its first phrase, over 400 ids, which the 200-id bound on
	// later chunks cuts at least twice however fast this machine is. The first request's
	// first emit waits until the second request has its first chunk, so that chunk is given a
	// slot while the first request is speaking, however late the second one arrives.
	a := speak("When the meeting ended, everyone went outside, into the warm afternoon sun, and talked for an hour "+
		"about the plans for the coming year, the new office by the river, the budget, and the people they would hire. "+
		"Then they walked back along the water, past the old mill and the station, and agreed to meet again "+
		"on the first Monday of the month, with the numbers, the drawings and a list of questions for the board.", func() {
		go func() {
			defer close(secondDone)
			second <- speak("Thanks for calling, how can I help you today?", func() { close(secondFirst) })
		}()
		select {
		case <-secondFirst:
		case <-secondDone: // it failed before its first chunk; the checks below say how
		}
	})
	b := <-second
	for name, d := range map[string]done{"first": a, "second": b} {
		if d.err != nil || d.audio < 1 {
			t.Fatalf("%s request: %.2f s of audio, %v", name, d.audio, d.err)
		}
	}
	if len(a.slots) < 3 {
		t.Fatalf("the first request made %d chunks; the test needs three", len(a.slots))
	}
	if a.slots[0] != 0 {
		t.Errorf("the lone request's first chunk ran on slot %d, want the wide slot 0 (slots %v)", a.slots[0], a.slots)
	}
	if b.slots[0] == 0 {
		t.Errorf("the request that came while another spoke ran its first chunk on the wide slot (slots %v; the other's %v)", b.slots, a.slots)
	}
}

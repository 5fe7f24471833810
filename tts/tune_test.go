package tts

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// countingSynth is instantSynth counting the calls per slot; each call takes took.
type countingSynth struct {
	instantSynth
	took  time.Duration
	mu    sync.Mutex
	slots map[int]int
}

func (s *countingSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	s.mu.Lock()
	s.slots[slot]++
	s.mu.Unlock()
	time.Sleep(s.took)
	return s.instantSynth.Synthesize(ctx, slot, ids, style, speed)
}

func TestCandidateShapes(t *testing.T) {
	t.Parallel()
	for cores, want := range map[int]string{
		1: "[[1]]",
		2: "[[2] [1 1] [2 1 1]]",
		4: "[[4] [1 1 1 1] [2 2] [4 1 1 1 1]]",
		8: "[[8] [1 1 1 1 1 1 1 1] [2 2 2 2] [8 2 2 2 2]]",
	} {
		if got := fmt.Sprint(CandidateShapes(cores)); got != want {
			t.Errorf("CandidateShapes(%d) = %s, want %s", cores, got, want)
		}
	}
}

func TestBusySlotsFitTheCores(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shape []int
		cores int
		want  string
	}{
		{[]int{1, 1}, 2, "[0 1]"},
		{[]int{2}, 2, "[0]"},
		{[]int{2, 1, 1}, 2, "[1 2]"},
		{[]int{8, 2, 2, 2, 2}, 8, "[1 2 3 4]"},
	} {
		t.Run(fmt.Sprint(c.shape, c.cores), func(t *testing.T) {
			if got := fmt.Sprint(busySlots(c.shape, c.cores)); got != c.want {
				t.Errorf("busySlots(%v, %d) = %s, want %s", c.shape, c.cores, got, c.want)
			}
		})
	}
}

func TestBestPrefersThroughputThenFirstAudio(t *testing.T) {
	t.Parallel()
	rs := []ShapeResult{
		{Shape: []int{2}, LoneP50: 600 * time.Millisecond, Engine: 2.0},
		{Shape: []int{1, 1}, LoneP50: 900 * time.Millisecond, Engine: 2.9},
		{Shape: []int{2, 1, 1}, LoneP50: 610 * time.Millisecond, Engine: 2.85},
	}
	if b, ok := Best(rs); !ok || fmt.Sprint(b.Shape) != "[2 1 1]" {
		t.Errorf("Best = %v; want 2,1,1: within 3 %% of the top throughput with the earlier first audio", b.Shape)
	}
	rs[2].Engine = 2.5
	if b, _ := Best(rs); fmt.Sprint(b.Shape) != "[1 1]" {
		t.Errorf("Best = %v; want 1,1 once 2,1,1 falls 14 %% behind", b.Shape)
	}
	if _, ok := Best(nil); ok {
		t.Error("Best of nothing found a shape")
	}
}

// The model-only measurement keeps every slot it is given busy for the whole hold and counts
// the audio as the engine hands it out, silence cut. It runs in virtual time (synctest): each
// call takes 10 ms, so in a hold of 50 ms each slot makes exactly five calls back to back.
func TestModelThroughputCountsListenedAudio(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		syn := &countingSynth{instantSynth: instantSynth{}, took: 10 * time.Millisecond, slots: map[int]int{}}
		e := New(Config{}, splitPhonemizer{}, syn, fakeVoices{})
		defer e.Close()
		got, err := e.ModelThroughput(context.Background(), []string{"a", "bb"}, "", []int{0, 1}, 50*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		syn.mu.Lock()
		defer syn.mu.Unlock()
		if syn.slots[0] != 5 || syn.slots[1] != 5 {
			t.Errorf("calls per slot: %v, want 5 on each of slots 0 and 1", syn.slots)
		}
		// Each call makes 100 ms of sound and the engine keeps JoinLead before and EndTail after
		// it: the count must be of that, not of the calls.
		per := (100*time.Millisecond + JoinLead + EndTail).Seconds()
		calls := syn.slots[0] + syn.slots[1]
		if want := per * float64(calls) / 0.05; got < 0.9*want || got > 1.1*want {
			t.Errorf("throughput %.2f audio s/s from %d calls in 50 ms; want about %.2f", got, calls, want)
		}
	})
}

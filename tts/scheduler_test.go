package tts

import (
	"container/heap"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
)

// shapedSynth has slots of different widths; each chunk runs until the test releases it,
// any chunk through release or one chunk by its label through finish. It records which slot
// ran each chunk and the most threads busy at once.
type shapedSynth struct {
	threads []int
	started chan string // "label@slot"
	release chan struct{}

	mu       sync.Mutex
	busy     int
	peakBusy int
	labelled map[string]chan struct{}
}

// gate is the channel that releases the chunk labelled label alone.
func (s *shapedSynth) gate(label string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.labelled == nil {
		s.labelled = map[string]chan struct{}{}
	}
	if s.labelled[label] == nil {
		s.labelled[label] = make(chan struct{}, 1)
	}
	return s.labelled[label]
}

// finish releases the chunk labelled label ("b1"), running or not yet started.
func (s *shapedSynth) finish(label string) { s.gate(label) <- struct{}{} }

func (s *shapedSynth) Slots() int         { return len(s.threads) }
func (s *shapedSynth) SlotThreads() []int { return s.threads }
func (s *shapedSynth) Synthesize(ctx context.Context, slot int, ids []int64, _ []float32, _ float32) ([]float32, error) {
	s.mu.Lock()
	s.busy += s.threads[slot]
	s.peakBusy = max(s.peakBusy, s.busy)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.busy -= s.threads[slot]
		s.mu.Unlock()
	}()
	label := fmt.Sprintf("%c%d", rune(ids[0]), ids[1])
	s.started <- fmt.Sprintf("%s@%d", label, slot)
	select {
	case <-s.release:
	case <-s.gate(label):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return make([]float32, api.SampleRate), nil
}

func next(t *testing.T, c <-chan string) string {
	t.Helper()
	select {
	case s := <-c:
		return s
	case <-time.After(30 * time.Second): // a ceiling for a starved CI machine, not a timing check
		t.Fatal("no chunk started")
		return ""
	}
}

// A lone request runs on the wide slot; two requests at once run side by side on the narrow
// ones; the slots never use more threads together than the cores they share.
func TestSlotWidthFollowsTheQueue(t *testing.T) {
	syn := &shapedSynth{threads: []int{2, 1, 1}, started: make(chan string, 16), release: make(chan struct{})}
	e := New(Config{Cores: 2}, splitPhonemizer{}, syn, fakeVoices{})
	defer e.Close()
	ctx := context.Background()

	a := drain(ctx, e, "a | aa")
	if got := next(t, syn.started); got != "a1@0" {
		t.Fatalf("lone request ran %s, want a1 on the wide slot 0", got)
	}
	syn.release <- struct{}{}
	if got := next(t, syn.started); got != "a2@0" {
		t.Fatalf("lone request's second chunk ran %s, want the wide slot", got)
	}
	syn.release <- struct{}{}
	if err := <-a; err != nil {
		t.Fatal(err)
	}

	// Two requests whose streams are both open share the cores out: one narrow slot each.
	e.sched.begin() // b's stream is open before its first chunk arrives
	c := drain(ctx, e, "c | cc")
	first := next(t, syn.started)
	if first != "c1@1" && first != "c1@2" {
		t.Fatalf("with another request waiting, c1 ran %s; want a narrow slot", first)
	}
	b := drain(ctx, e, "b")
	e.sched.end()
	second := next(t, syn.started)
	if second[len(second)-1] == first[len(first)-1] || second[len(second)-1] == '0' {
		t.Fatalf("b1 ran %s beside %s; want the other narrow slot", second, first)
	}
	// b ends before c1 does, so that c2 is alone when a slot takes it.
	syn.finish("b1")
	if err := <-b; err != nil {
		t.Fatal(err)
	}
	syn.finish("c1")
	third := next(t, syn.started) // c2, alone now
	syn.release <- struct{}{}
	if err := <-c; err != nil {
		t.Fatal(err)
	}
	if third != "c2@0" {
		t.Errorf("c2 ran %s once b was done; want the wide slot", third)
	}
	if syn.peakBusy > 2 {
		t.Errorf("%d threads busy at once on 2 cores", syn.peakBusy)
	}
}

// A chunk due soon that takes long to synthesize goes ahead of a new request's first chunk
// due later; one whose audio is buffered well ahead does not.
func TestQueueOrderIsLeastSlack(t *testing.T) {
	t.Parallel()
	s := &scheduler{est: newEstimator()}
	s.est.perUnit[1] = 10 * time.Millisecond
	now := time.Now()
	mk := func(ids int, due time.Duration) *job {
		j := &job{ids: make([]int64, ids), speed: 1, deadline: now.Add(due)}
		j.startBy = j.deadline.Add(-s.est.expect(ids, 1, 1))
		return j
	}
	first := mk(20, 300*time.Millisecond) // expects 320 ms: start by -20 ms
	longTail := mk(188, 2*time.Second)    // expects 2 s: start by 0 — later than first
	urgent := mk(288, 2*time.Second)      // expects 3 s: start by -1 s
	h := &jobHeap{}
	for _, j := range []*job{longTail, first, urgent} {
		heap.Push(h, j)
	}
	var order []*job
	for h.Len() > 0 {
		order = append(order, heap.Pop(h).(*job))
	}
	if order[0] != urgent || order[1] != first || order[2] != longTail {
		t.Errorf("order by slack wrong: %v %v %v", order[0].startBy.Sub(now), order[1].startBy.Sub(now), order[2].startBy.Sub(now))
	}
}

func TestEstimatorLearnsPerWidth(t *testing.T) {
	t.Parallel()
	e := newEstimator()
	if got := e.expect(12, 1, 1); got != 30*priorPerUnit {
		t.Errorf("prior for 12 ids: %v", got)
	}
	e.observe(12, 1, 2, 300*time.Millisecond) // 10 ms per unit on 2 threads
	if got := e.expect(12, 0.5, 2); got != 600*time.Millisecond {
		t.Errorf("12 ids at speed 0.5 on 2 threads: %v, want 600ms", got)
	}
	if got := e.expect(12, 1, 1); got != 600*time.Millisecond {
		t.Errorf("a narrower slot before it has run: %v, want twice the wide slot's", got)
	}
}

// The chunk budget shrinks with the speed (the model's memory and time follow the audio), and
// with chunks waiting for a slot the first chunk is packed like the others.
func TestChunkOptionsFollowSpeedAndLoad(t *testing.T) {
	syn := newGatedSynth(1)
	e := New(Config{Policy: chunk.Policy{FirstChunkMaxIDs: 40, FirstChunkMinIDs: 10, MaxChunkIDs: 200}}, splitPhonemizer{}, syn, fakeVoices{})
	defer e.Close()
	if o := e.chunkOptions("en-us", 1); o.MaxChunkIDs != 200 || o.FirstChunkMaxIDs != 40 || o.FirstChunkMinIDs != 10 || o.Ramp != chunk.DefaultRamp {
		t.Errorf("idle, speed 1: %+v", o)
	}
	if o := e.chunkOptions("en-us", 0.5); o.MaxChunkIDs != 100 {
		t.Errorf("speed 0.5: budget %d, want 100", o.MaxChunkIDs)
	}
	a := drain(context.Background(), e, "a")
	<-syn.started
	b := drain(context.Background(), e, "b")
	waitDepth(t, e, 1)
	if o := e.chunkOptions("en-us", 1); o.FirstChunkMaxIDs != 200 || o.FirstChunkMinIDs != model.MaxIDs {
		t.Errorf("backlogged: %+v, want the first chunk packed to 200 ids", o)
	}
	syn.release <- struct{}{}
	<-syn.started
	syn.release <- struct{}{}
	for _, c := range []<-chan error{a, b} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	// Once chunks have run and played, later chunks are paced by the speed the slot showed,
	// not ramped; a fixed ramp, when configured, stays.
	if o := e.chunkOptions("en-us", 1); o.Pace <= 0 || o.Ramp != 0 || o.PaceOverhead != chunk.OverheadIDs {
		t.Errorf("after chunks ran: %+v, want paced", o)
	}
	if o := e.chunkOptions("en-gb", 1); o.Pace != 0 || o.Ramp != chunk.DefaultRamp {
		t.Errorf("a British voice: %+v, want the fixed ramp", o)
	}
	f := New(Config{Policy: chunk.Policy{Ramp: 2}}, splitPhonemizer{}, newGatedSynth(1), fakeVoices{})
	defer f.Close()
	f.sched.est.observe(12, 1, 1, 300*time.Millisecond)
	f.sched.played(12, 1, time.Second)
	if o := f.chunkOptions("en-us", 1); o.Pace != 0 || o.Ramp != 2 {
		t.Errorf("a configured ramp: %+v", o)
	}
}

// pace is an id's audio over the model time per id of the slot a new request will run on:
// the widest when the engine is idle, the narrowest while others speak.
func TestPaceFollowsTheSlotANewRequestGets(t *testing.T) {
	t.Parallel()
	s := newScheduler(&shapedSynth{threads: []int{2, 1, 1}}, nil, 2)
	defer s.close()
	if _, ok := s.pace(); ok {
		t.Error("a pace before any chunk ran")
	}
	s.mu.Lock()
	s.est.observe(12, 1, 2, 300*time.Millisecond) // 10 ms per unit on 2 threads
	s.est.observe(12, 1, 1, 600*time.Millisecond) // 20 ms on 1
	s.mu.Unlock()
	if _, ok := s.pace(); ok {
		t.Error("a pace before any audio played")
	}
	s.played(10, 1, 500*time.Millisecond) // 50 ms an id
	s.played(10, 0.5, time.Second)        // the same at speed 0.5
	if p, ok := s.pace(); !ok || p != 5 {
		t.Errorf("idle: pace %v %v, want 5 (the wide slot)", p, ok)
	}
	s.begin()
	if p, _ := s.pace(); p != 2.5 {
		t.Errorf("another request speaking: pace %v, want 2.5 (a narrow slot)", p)
	}
	s.end()
}

// Only a slot that takes all the shared cores runs alone, and so may spin.
func TestLoneThreads(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shape []int
		cores int
		want  int
	}{
		{[]int{2, 1, 1}, 2, 2},
		{[]int{4, 1, 1, 1, 1}, 4, 4},
		{[]int{8, 2, 2, 2, 2}, 8, 8},
		{[]int{1, 1}, 2, 0},    // each slot has a core of its own
		{[]int{2, 2}, 4, 0},    // the same
		{[]int{2, 1, 1}, 0, 0}, // not sharing
		{[]int{1}, 1, 0},
	} {
		t.Run(fmt.Sprint(c.shape, c.cores), func(t *testing.T) {
			if got := loneThreads(c.shape, c.cores); got != c.want {
				t.Errorf("loneThreads(%v, %d) = %d, want %d", c.shape, c.cores, got, c.want)
			}
		})
	}
}

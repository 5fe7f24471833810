package tts

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

// job is one chunk waiting for, or running on, a model slot.
type job struct {
	ctx      context.Context
	deadline time.Time // playback deadline: earliest first
	seq      uint64    // arrival order breaks deadline ties
	ids      []int64
	style    []float32
	speed    float32
	ready    time.Time
	index    int // position in the heap; -1 once taken
	done     chan result
}

type result struct {
	pcm       []float32
	modelTime time.Duration
	queueWait time.Duration
	slot      int
	err       error
}

// jobHeap orders jobs by playback deadline.
type jobHeap []*job

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(i, j int) bool {
	if !h[i].deadline.Equal(h[j].deadline) {
		return h[i].deadline.Before(h[j].deadline)
	}
	return h[i].seq < h[j].seq
}
func (h jobHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *jobHeap) Push(x any) {
	j := x.(*job)
	j.index = len(*h)
	*h = append(*h, j)
}
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	j.index = -1
	return j
}

// scheduler runs jobs on a fixed set of slots, earliest deadline first. One goroutine per
// slot; a slot is never shared, which is what the model requires.
type scheduler struct {
	syn      Synthesizer
	observer Observer

	mu     sync.Mutex
	cond   *sync.Cond
	queue  jobHeap
	seq    uint64
	closed bool
	wg     sync.WaitGroup
}

func newScheduler(syn Synthesizer, obs Observer) *scheduler {
	s := &scheduler{syn: syn, observer: obs}
	s.cond = sync.NewCond(&s.mu)
	n := syn.Slots()
	if n < 1 {
		n = 1
	}
	s.wg.Add(n)
	for i := 0; i < n; i++ {
		go s.worker(i)
	}
	return s
}

// submit queues a job; its result arrives on j.done.
func (s *scheduler) submit(j *job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.seq++
	j.seq = s.seq
	j.ready = time.Now()
	j.done = make(chan result, 1)
	heap.Push(&s.queue, j)
	s.reportDepth()
	s.cond.Signal()
	return nil
}

// cancel removes a job that no slot has taken yet, so a client that went away costs no model
// time. It reports whether the job was still queued.
func (s *scheduler) cancel(j *job) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j.index < 0 || j.index >= len(s.queue) || s.queue[j.index] != j {
		return false
	}
	heap.Remove(&s.queue, j.index)
	j.index = -1
	s.reportDepth()
	return true
}

func (s *scheduler) depth() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

func (s *scheduler) reportDepth() {
	if s.observer != nil {
		s.observer.QueueDepth(len(s.queue))
	}
}

func (s *scheduler) worker(slot int) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.closed {
			s.cond.Wait()
		}
		if s.closed && len(s.queue) == 0 {
			s.mu.Unlock()
			return
		}
		j := heap.Pop(&s.queue).(*job)
		s.reportDepth()
		s.mu.Unlock()

		if err := j.ctx.Err(); err != nil {
			j.done <- result{err: err, slot: slot}
			continue
		}
		start := time.Now()
		pcm, err := s.syn.Synthesize(j.ctx, slot, j.ids, j.style, j.speed)
		r := result{pcm: pcm, err: err, slot: slot, modelTime: time.Since(start), queueWait: start.Sub(j.ready)}
		if s.observer != nil && err == nil {
			s.observer.ChunkDone(slot, r.modelTime, r.queueWait, time.Duration(len(pcm))*time.Second/api.SampleRate)
		}
		j.done <- r
	}
}

// close lets running jobs finish, fails queued ones with ErrClosed and stops the workers.
func (s *scheduler) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for len(s.queue) > 0 {
		j := heap.Pop(&s.queue).(*job)
		j.done <- result{err: ErrClosed}
	}
	s.reportDepth()
	s.cond.Broadcast()
	s.mu.Unlock()
	s.wg.Wait()
}

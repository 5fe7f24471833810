package tts

import (
	"container/heap"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
)

// job is one chunk waiting for, or running on, a model slot.
type job struct {
	ctx      context.Context
	deadline time.Time // playback deadline: when its audio is needed
	startBy  time.Time // deadline less the chunk's expected model time: the queue's order
	seq      uint64    // arrival order breaks ties
	ids      []int64   // what the model hears: the context ids, then the chunk's own, then context
	// before and after are how many of ids are context (chunk.Chunk.Before, After): the
	// audio is cut inside the space that ends or starts them (cutContext).
	before, after int
	style         []float32
	speed         float32
	ready         time.Time
	// window, when set, makes the job a decoder window of a split model (Splitter) instead
	// of a whole run of ids.
	window *window
	index  int // position in the heap; -1 once taken
	done   chan result
}

type result struct {
	pcm       []float32
	bounds    idBounds // where the job's own ids lie in pcm; nil when the synthesizer cannot say
	modelTime time.Duration
	queueWait time.Duration
	slot      int
	err       error
	win       *windowResult // a window job's features and place
}

// jobHeap orders jobs by the latest time they can start and still meet their deadline.
type jobHeap []*job

func (h jobHeap) Len() int { return len(h) }
func (h jobHeap) Less(i, j int) bool {
	if !h[i].startBy.Equal(h[j].startBy) {
		return h[i].startBy.Before(h[j].startBy)
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

// scheduler runs jobs on a set of slots, least slack first: a job's key is its playback
// deadline less its expected model time, so a later chunk that needs long to synthesize goes
// ahead of a new request's first chunk only when it would otherwise stall, and a first chunk
// goes ahead of tails whose audio is buffered well ahead.
//
// Slots may differ in width (intra-op threads). When they share a number of cores, a slot
// runs only when its threads fit in the cores left, and a job takes the widest idle slot that
// leaves a fair share of the free cores to the other requests waiting for one: a lone request
// runs on the wide slot, which finishes each chunk soonest; several run side by side on narrow
// ones, which get more out of the cores together.
type scheduler struct {
	syn      Synthesizer
	observer Observer
	threads  []int // per slot
	cores    int   // the cores the slots share; 0 = each slot has its own

	mu      sync.Mutex
	queue   jobHeap
	seq     uint64
	closed  bool
	busy    []bool
	used    int // threads of the busy slots
	running int
	streams int // requests with chunks still to submit
	est     *estimator
	in      []chan *job
	wg      sync.WaitGroup
}

// slotShaper is a Synthesizer whose slots may differ in width.
type slotShaper interface{ SlotThreads() []int }

func newScheduler(syn Synthesizer, obs Observer, cores int) *scheduler {
	n := max(syn.Slots(), 1)
	threads := make([]int, n)
	for i := range threads {
		threads[i] = 1
	}
	if sh, ok := syn.(slotShaper); ok {
		if t := sh.SlotThreads(); len(t) == n {
			copy(threads, t)
		}
	}
	s := &scheduler{syn: syn, observer: obs, threads: threads, busy: make([]bool, n), est: newEstimator()}
	if cores > 0 && cores < sum(threads) {
		s.cores = max(cores, slices.Max(threads))
	}
	s.in = make([]chan *job, n)
	s.wg.Add(n)
	for i := range n {
		s.in[i] = make(chan *job, 1)
		go s.worker(i)
	}
	return s
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// submit queues a job due at deadline; its result arrives on j.done.
func (s *scheduler) submit(j *job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.seq++
	j.seq = s.seq
	j.ready = time.Now()
	if j.window != nil {
		j.startBy = j.deadline.Add(-s.est.expectWindow(j.window, slices.Min(s.threads)))
	} else {
		j.startBy = j.deadline.Add(-s.est.expect(len(j.ids), j.speed, slices.Min(s.threads)))
	}
	j.done = make(chan result, 1)
	heap.Push(&s.queue, j)
	s.reportDepth()
	s.dispatch()
	return nil
}

// begin and end bracket the part of a request that has chunks still to submit: a request
// between two chunks counts as waiting for a slot when the scheduler shares out the cores.
func (s *scheduler) begin() {
	s.mu.Lock()
	s.streams++
	s.mu.Unlock()
}

func (s *scheduler) end() {
	s.mu.Lock()
	s.streams--
	s.dispatch()
	s.mu.Unlock()
}

// pace is the audio an id plays for over the model time per id of the slot a new request's
// chunks are expected to run on: the widest when the engine is idle, the narrowest when
// other requests are speaking. false until both have been observed.
func (s *scheduler) pace() (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	threads := slices.Min(s.threads)
	if s.idleLocked() {
		threads = slices.Max(s.threads)
	}
	if len(s.est.perUnit) == 0 || s.est.audio <= 0 {
		return 0, false
	}
	return float64(s.est.audio) / float64(s.est.per(threads)), true
}

// played tells the estimator how long a chunk of ids plays at speed.
func (s *scheduler) played(ids int, speed float32, d time.Duration) {
	s.mu.Lock()
	s.est.observeAudio(ids, speed, d)
	s.mu.Unlock()
}

// idle reports whether no request is being spoken: a new one has the slots to itself.
func (s *scheduler) idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idleLocked()
}

func (s *scheduler) idleLocked() bool {
	return s.streams == 0 && s.running == 0 && len(s.queue) == 0
}

// backlogged reports whether chunks are waiting for a slot.
func (s *scheduler) backlogged() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue) > 0
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

// dispatch hands queued jobs to idle slots while they fit. Called with s.mu held.
func (s *scheduler) dispatch() {
	for len(s.queue) > 0 && !s.closed {
		slot := s.pick()
		if slot < 0 {
			return
		}
		j := heap.Pop(&s.queue).(*job)
		s.busy[slot] = true
		s.used += s.threads[slot]
		s.running++
		s.reportDepth()
		s.in[slot] <- j // buffered, and the slot is idle: never blocks
	}
}

// pick chooses the idle slot for the next job, or -1 when none may start now.
func (s *scheduler) pick() int {
	if s.cores == 0 { // slots do not share cores: any idle slot, widest first
		best := -1
		for i, b := range s.busy {
			if !b && (best < 0 || s.threads[i] > s.threads[best]) {
				best = i
			}
		}
		return best
	}
	free := s.cores - s.used
	// Requests that will want a slot: the queued jobs, and the requests between two chunks.
	waiting := max(len(s.queue), s.streams-s.running)
	share := max(1, free/max(waiting, 1))
	best, narrowest := -1, -1
	for i, b := range s.busy {
		t := s.threads[i]
		if b || t > free {
			continue
		}
		if t <= share && (best < 0 || t > s.threads[best]) {
			best = i
		}
		if narrowest < 0 || t < s.threads[narrowest] {
			narrowest = i
		}
	}
	if best < 0 {
		return narrowest
	}
	return best
}

func (s *scheduler) worker(slot int) {
	defer s.wg.Done()
	for j := range s.in[slot] {
		var r result
		if err := j.ctx.Err(); err != nil {
			r = result{err: err, slot: slot}
		} else {
			start := time.Now()
			var pcm []float32
			var bounds idBounds
			var win *windowResult
			var err error
			if j.window != nil {
				pcm, win, err = s.runWindow(j, slot)
			} else {
				pcm, bounds, err = s.synthesize(j, slot)
			}
			r = result{pcm: pcm, bounds: bounds, win: win, err: err, slot: slot, modelTime: time.Since(start), queueWait: start.Sub(j.ready)}
			if err == nil {
				if s.observer != nil {
					s.observer.ChunkDone(slot, r.modelTime, r.queueWait, time.Duration(len(pcm))*time.Second/api.SampleRate)
				}
			}
		}
		s.mu.Lock()
		if r.err == nil && r.win != nil {
			s.est.observeWindow(r.win.frames, s.threads[slot], r.modelTime)
		} else if r.err == nil {
			s.est.observe(len(j.ids), j.speed, s.threads[slot], r.modelTime)
		}
		s.busy[slot] = false
		s.used -= s.threads[slot]
		s.running--
		s.dispatch()
		s.mu.Unlock()
		j.done <- r
	}
}

// synthesize runs j on slot and returns the audio of its own ids, and where each of them lies
// in it when the synthesizer can say (Aligner; nil otherwise): with context, the model hears
// the words across the cut and the audio is cut at the middle of the space between.
func (s *scheduler) synthesize(j *job, slot int) ([]float32, idBounds, error) {
	own := j.ids[j.before : len(j.ids)-j.after]
	al, ok := s.syn.(Aligner)
	if !ok || !al.Aligns() {
		pcm, err := s.syn.Synthesize(j.ctx, slot, own, j.style, j.speed)
		return pcm, nil, err
	}
	pcm, spans, err := al.SynthesizeAligned(j.ctx, slot, j.ids, j.style, j.speed)
	if errors.Is(err, model.ErrNoAlignment) && j.before == 0 && j.after == 0 {
		// The durations of this run did not add up (Open's probe found that they do): its
		// audio is still good, without its times.
		pcm, err = s.syn.Synthesize(j.ctx, slot, own, j.style, j.speed)
		return pcm, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	from := 0
	if j.before > 0 || j.after > 0 {
		pcm, from = cutContext(pcm, spans, j.before, j.after)
	}
	return pcm, boundsFromSpans(spans, j.before, len(own), from), nil
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
	for _, c := range s.in {
		close(c)
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// estimator predicts a chunk's model time from what the slots of the same width took: the
// model's time grows with the audio it makes, which is the chunk's ids plus the silence it
// always puts around them, over the speed. It also learns how long an id plays once the
// chunks are joined, so that a request's chunks can be cut to what the model makes while the
// audio before them plays.
type estimator struct {
	perUnit map[int]time.Duration // by slot threads: model time per (id + chunk.OverheadIDs) at speed 1
	audio   time.Duration         // audio per id at speed 1, as played; 0 until observed
	// perFrame is, by slot threads, a decoder window's model time per frame decoded, margins
	// included (a first window's predictor counted in).
	perFrame map[int]time.Duration
}

// priorPerUnit is the guess before any chunk has run: 2 cores of a small CPU machine.
const priorPerUnit = 30 * time.Millisecond

func newEstimator() *estimator {
	return &estimator{perUnit: map[int]time.Duration{}, perFrame: map[int]time.Duration{}}
}

// priorPerFrame is the guess before any window has run: one core of a small CPU machine.
const priorPerFrame = 20 * time.Millisecond

// frameTime is a decoder window's model time per frame on a slot of threads.
func (e *estimator) frameTime(threads int) time.Duration {
	if per, ok := e.perFrame[threads]; ok {
		return per
	}
	for t, p := range e.perFrame {
		return p * time.Duration(t) / time.Duration(threads)
	}
	return priorPerFrame
}

// expectWindow is a window job's expected model time: a first window's is not known before
// its predictor has run, so it is taken at firstWindow and its lead.
func (e *estimator) expectWindow(w *window, threads int) time.Duration {
	n := (w.to - w.from) / model.FrameSamples
	if w.feat == nil {
		n = samples(firstWindow+firstLead) / model.FrameSamples
	}
	return e.frameTime(threads) * time.Duration(n+2*decodeMargin)
}

func (e *estimator) observeWindow(frames, threads int, took time.Duration) {
	if frames <= 0 {
		return
	}
	per := took / time.Duration(frames)
	if old, ok := e.perFrame[threads]; ok {
		per = (3*old + per) / 4
	}
	e.perFrame[threads] = per
}

func (e *estimator) expect(ids int, speed float32, threads int) time.Duration {
	if speed <= 0 {
		speed = 1
	}
	return time.Duration(float64(e.per(threads)) * float64(ids+chunk.OverheadIDs) / float64(speed))
}

// per is the model time per unit on a slot of threads, from that width or scaled from another.
func (e *estimator) per(threads int) time.Duration {
	if per, ok := e.perUnit[threads]; ok {
		return per
	}
	for t, p := range e.perUnit { // a slot of another width: scale by threads
		return p * time.Duration(t) / time.Duration(threads)
	}
	return priorPerUnit
}

func (e *estimator) observe(ids int, speed float32, threads int, took time.Duration) {
	if speed <= 0 {
		speed = 1
	}
	per := time.Duration(float64(took) * float64(speed) / float64(ids+chunk.OverheadIDs))
	if old, ok := e.perUnit[threads]; ok {
		per = (3*old + per) / 4
	}
	e.perUnit[threads] = per
}

// observeAudio learns how long a chunk of ids plays at speed.
func (e *estimator) observeAudio(ids int, speed float32, played time.Duration) {
	if ids <= 0 || speed <= 0 {
		return
	}
	a := time.Duration(float64(played) * float64(speed) / float64(ids))
	if e.audio > 0 {
		a = (3*e.audio + a) / 4
	}
	e.audio = a
}

// frameTime is a decoder window's expected model time per frame for a request: on the widest
// slot while it is the only one speaking, else on the narrowest.
func (s *scheduler) frameTime() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	threads := slices.Min(s.threads)
	if s.streams <= 1 && len(s.queue) == 0 && s.running == 0 {
		threads = slices.Max(s.threads)
	}
	return s.est.frameTime(threads)
}

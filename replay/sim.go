package replay

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/scaling"
)

// Routing strategies: SageMaker's default sends each request to an instance at random; an
// endpoint configured with RoutingConfig LEAST_OUTSTANDING_REQUESTS sends it to the instance
// with the fewest requests in flight.
const (
	RoutingRandom           = "random"
	RoutingLeastOutstanding = "least-outstanding"
)

// Outcomes of a request.
const (
	OutcomeOK   = "ok"
	OutcomeShed = "shed_503" // the admission gate refused it: MAX_QUEUE_DEPTH requests were in the instance
)

// Config is one replay.
type Config struct {
	Service Service
	// MaxQueueDepth is each instance's admission bound (MAX_QUEUE_DEPTH): a request that finds
	// that many in the instance gets 503 at once. 0: unbounded.
	MaxQueueDepth int
	SLO           time.Duration // the p95 time to first audio promised
	// Documents is the policy. Without a scalable target the fleet stays at Start instances.
	Documents scaling.Documents
	Model     scaling.Model
	Start     int // instances in service at time 0; 0 = the scalable target's MinCapacity
	// Provision is how long an instance takes from the desired count's rise to serving; each
	// capacity update draws one of these, uniformly. SageMaker updates an endpoint one change
	// at a time: an activity while an update is under way is refused, and the alarm's next
	// invocation tries again.
	Provision []time.Duration
	Routing   string
	Seed      uint64
	// KeepRequests keeps every request's record in the result.
	KeepRequests bool
}

// Request is one request's fate.
type Request struct {
	At       time.Duration `json:"at_ns"`
	Chars    int           `json:"chars,omitempty"`
	Instance int           `json:"instance"`
	Outcome  string        `json:"outcome"`
	TTFAB    time.Duration `json:"ttfab_ns,omitempty"`
	Latency  time.Duration `json:"latency_ns,omitempty"`
}

// CapacityPoint is the fleet from At on.
type CapacityPoint struct {
	At        time.Duration `json:"at_ns"`
	Desired   int           `json:"desired"`
	InService int           `json:"in_service"`
	Billed    int           `json:"billed"` // in service, provisioning and draining
}

type instance struct {
	id        int
	inSystem  int // admitted and not done: queued + in service
	busy      int // servers taken
	queue     []int
	draining  bool
	removed   bool
	servingAt time.Duration
}

type eventKind int

const (
	evDone     eventKind = iota // a request finished on its instance
	evInstance                  // a capacity update's instances start serving
)

type event struct {
	at   time.Duration
	kind eventKind
	req  int // evDone: the request
	n    int // evInstance: how many
	seq  uint64
}

type events []event

func (h events) Len() int { return len(h) }
func (h events) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h events) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *events) Push(x any)   { *h = append(*h, x.(event)) }
func (h *events) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// sim is one run's state.
type sim struct {
	cfg       Config
	rng       *rand.Rand
	scaler    *scaling.Scaler
	now       time.Duration
	ev        events
	seq       uint64
	insts     []*instance
	reqs      []Request
	reqInst   []int
	open      map[int]Request // requests in an instance, by id
	serving   int             // instances in service and not draining
	billed    int
	updating  bool // a capacity update is under way
	wanted    int  // the desired capacity
	provision int  // instances of the update under way
	acts      []scaling.Activity
	capacity  []CapacityPoint
	minutes   minuteLog
}

// Run replays arrivals (in time order) against the configuration.
func Run(cfg Config, arrivals []Arrival) (*Result, error) {
	if err := cfg.Service.validate(); err != nil {
		return nil, err
	}
	if !sorted(arrivals) {
		return nil, errors.New("replay: arrivals are not in time order")
	}
	switch cfg.Routing {
	case "":
		cfg.Routing = RoutingRandom
	case RoutingRandom, RoutingLeastOutstanding:
	default:
		return nil, fmt.Errorf("replay: routing %q (want %s or %s)", cfg.Routing, RoutingRandom, RoutingLeastOutstanding)
	}
	if cfg.MaxQueueDepth < 0 || cfg.SLO < 0 {
		return nil, errors.New("replay: MAX_QUEUE_DEPTH and the SLO must not be negative")
	}
	for _, p := range cfg.Provision {
		if p < 0 {
			return nil, errors.New("replay: a provisioning time is negative")
		}
	}
	s := &sim{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x7265706c6179))} // second word: the replay's stream
	start := cfg.Start
	if st := cfg.Documents.ScalableTarget; st != nil {
		if start == 0 {
			start = st.MinCapacity
		}
		sc, err := scaling.NewScaler(cfg.Documents, cfg.Model, start)
		if err != nil {
			return nil, err
		}
		s.scaler = sc
		start = sc.Desired()
	}
	if start < 1 {
		return nil, errors.New("replay: the fleet starts with no instance")
	}
	for range start {
		s.addInstance()
	}
	s.wanted = start
	s.record()
	if cfg.KeepRequests {
		s.reqs = make([]Request, 0, len(arrivals))
	}
	s.minutes.slo = cfg.SLO
	next := 0
	for next < len(arrivals) || len(s.ev) > 0 {
		t, kind := time.Duration(-1), -1
		if next < len(arrivals) {
			t, kind = arrivals[next].At, 0
		}
		if len(s.ev) > 0 && (kind < 0 || s.ev[0].at < t) {
			t, kind = s.ev[0].at, 1
		}
		if s.scaler != nil {
			if at, ok := s.scaler.NextEvaluation(); ok && at < t {
				t, kind = at, 2
			}
		}
		s.now = t
		switch kind {
		case 0:
			s.arrive(arrivals[next])
			next++
		case 1:
			e := heap.Pop(&s.ev).(event)
			s.handle(e)
		case 2:
		}
		s.scale()
	}
	return s.result(), nil
}

func (s *sim) addInstance() *instance {
	in := &instance{id: len(s.insts), servingAt: s.now}
	s.insts = append(s.insts, in)
	s.serving++
	s.billed++
	return in
}

func (s *sim) push(e event) {
	s.seq++
	e.seq = s.seq
	heap.Push(&s.ev, e)
}

// pick routes a request to an instance in service, or returns nil when none serves.
func (s *sim) pick() *instance {
	var live []*instance
	for _, in := range s.insts {
		if !in.removed && !in.draining {
			live = append(live, in)
		}
	}
	if len(live) == 0 {
		return nil
	}
	if s.cfg.Routing == RoutingLeastOutstanding {
		best := live[0].inSystem
		var ties []*instance
		for _, in := range live {
			switch {
			case in.inSystem < best:
				best, ties = in.inSystem, []*instance{in}
			case in.inSystem == best:
				ties = append(ties, in)
			}
		}
		return ties[s.rng.IntN(len(ties))]
	}
	return live[s.rng.IntN(len(live))]
}

func (s *sim) arrive(a Arrival) {
	in := s.pick()
	id := len(s.reqInst)
	s.reqInst = append(s.reqInst, -1)
	r := Request{At: a.At, Chars: a.Chars, Instance: -1}
	if in == nil || s.cfg.MaxQueueDepth > 0 && in.inSystem >= s.cfg.MaxQueueDepth {
		r.Outcome = OutcomeShed
		if in != nil {
			r.Instance = in.id
		}
		s.finish(id, r)
		if s.scaler != nil && in != nil {
			s.scaler.Invocation(s.now)
		}
		return
	}
	r.Instance = in.id
	s.reqInst[id] = in.id
	s.pendingReq(id, r)
	in.inSystem++
	if s.scaler != nil {
		s.scaler.Invocation(s.now)
	}
	if in.busy < s.cfg.Service.Servers {
		s.startService(in, id)
	} else {
		in.queue = append(in.queue, id)
	}
	s.observe()
}

// pendingReq keeps a request's record while it is in an instance.
func (s *sim) pendingReq(id int, r Request) {
	if s.open == nil {
		s.open = map[int]Request{}
	}
	s.open[id] = r
}

func (s *sim) startService(in *instance, id int) {
	in.busy++
	r := s.open[id]
	d := s.cfg.Service.Draw(s.rng, r.Chars)
	r.TTFAB = s.now - r.At + min(s.cfg.Service.FirstAudio, d)
	r.Latency = s.now - r.At + d
	s.open[id] = r
	s.push(event{at: s.now + d, kind: evDone, req: id})
}

func (s *sim) handle(e event) {
	switch e.kind {
	case evDone:
		r := s.open[e.req]
		delete(s.open, e.req)
		in := s.insts[r.Instance]
		in.busy--
		in.inSystem--
		r.Outcome = OutcomeOK
		s.finish(e.req, r)
		if len(in.queue) > 0 {
			next := in.queue[0]
			in.queue = in.queue[1:]
			s.startService(in, next)
		}
		if in.draining && in.inSystem == 0 && !in.removed {
			in.removed = true
			s.billed--
			s.record()
		}
		s.observe()
	case evInstance:
		for range e.n {
			s.addInstance()
		}
		s.updating, s.provision = false, 0
		s.billed -= e.n // counted from the update's start
		if s.scaler != nil {
			s.scaler.InService(s.now, s.serving)
			s.scaler.Updating(s.now, false)
		}
		s.record()
		s.observe()
		s.reconcile()
	}
}

// observe gives the scaler the instances' concurrency now.
func (s *sim) observe() {
	if s.scaler == nil {
		return
	}
	total, peak, n := 0, 0, 0
	for _, in := range s.insts {
		if in.removed || in.draining {
			continue
		}
		total += in.inSystem
		peak = max(peak, in.inSystem)
		n++
	}
	mean := 0.0
	if n > 0 {
		mean = float64(total) / float64(n)
	}
	s.scaler.Concurrency(s.now, mean, float64(peak))
}

// scale collects what the scaler asked for up to now and acts on it.
func (s *sim) scale() {
	if s.scaler == nil {
		return
	}
	for _, a := range s.scaler.Advance(s.now) {
		s.acts = append(s.acts, a)
		s.wanted = a.To
		s.reconcile()
	}
}

// reconcile moves the fleet toward the desired capacity: a rise starts an update unless one is
// under way (it then waits for it); a fall drains the least busy instances, the newest first
// among equals.
func (s *sim) reconcile() {
	have := s.serving + s.provision
	switch {
	case s.wanted > have && !s.updating:
		n := s.wanted - have
		d := time.Duration(0)
		if len(s.cfg.Provision) > 0 {
			d = s.cfg.Provision[s.rng.IntN(len(s.cfg.Provision))]
		}
		s.updating, s.provision = true, n
		s.billed += n
		s.push(event{at: s.now + d, kind: evInstance, n: n})
		if s.scaler != nil {
			s.scaler.Updating(s.now, true)
		}
		s.record()
	case s.wanted < s.serving:
		live := make([]*instance, 0, s.serving)
		for _, in := range s.insts {
			if !in.removed && !in.draining {
				live = append(live, in)
			}
		}
		// The least busy first, and among equals the newest.
		slices.Reverse(live)
		slices.SortStableFunc(live, func(a, b *instance) int { return a.inSystem - b.inSystem })
		for _, in := range live[:s.serving-s.wanted] {
			in.draining = true
			s.serving--
			if in.inSystem == 0 {
				in.removed = true
				s.billed--
			}
		}
		if s.scaler != nil {
			s.scaler.InService(s.now, s.serving)
		}
		s.record()
		s.observe()
	}
}

func (s *sim) record() {
	p := CapacityPoint{At: s.now, Desired: s.wanted, InService: s.serving, Billed: s.billed}
	if n := len(s.capacity); n > 0 && s.capacity[n-1].At == s.now {
		s.capacity[n-1] = p
		return
	}
	s.capacity = append(s.capacity, p)
}

func (s *sim) finish(id int, r Request) {
	s.minutes.add(r)
	if s.cfg.KeepRequests {
		s.reqs = append(s.reqs, r)
	}
}

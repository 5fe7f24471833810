package tts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
)

// TuneConfig is what Tune measures: each slot shape of Shapes with the engine Load builds
// from Load (its Slots, Threads and SlotThreads are replaced by the shape), on Texts.
type TuneConfig struct {
	Load   LoadConfig
	Shapes [][]int // nil = CandidateShapes of the machine's cores
	Cores  int     // the cores an elastic shape shares; 0 = the machine's CPUs
	Texts  []string
	Voice  string        // "" = the engine's default
	Hold   time.Duration // each measurement; 0 = 20 s
	// Progress, when set, is told what is being measured.
	Progress func(string)
}

// ShapeResult is one shape measured three ways.
type ShapeResult struct {
	Shape []int
	Cores int // the cores its slots share; 0 = each slot has its own
	// Lone is one request at a time through the engine: the time from the call to the first
	// chunk's audio (phonemizing included), median and 95th percentile.
	LoneP50, LoneP95 time.Duration
	// Engine is the engine saturated (twice as many requests at once as cores): audio seconds
	// handed out per wall-clock second, as listeners get them (silence at the joins trimmed).
	Engine float64
	// Model is the model alone, no engine, every slot that fits in the cores kept busy with
	// whole texts as single chunks: the same unit as Engine.
	Model float64
	// EngineCPU and ModelCPU are the process's CPU seconds per audio second in the same two
	// measurements: what the audio costs whatever else the machine runs, so shapes compare on
	// a shared machine, where wall-clock throughput follows the neighbours' load.
	EngineCPU, ModelCPU float64
}

// CandidateShapes are the shapes worth measuring on cores cores: one session on all of them,
// one per core, two-thread sessions where there are four cores or more, and the adaptive shape.
func CandidateShapes(cores int) [][]int {
	cores = max(cores, 1)
	shapes := [][]int{{cores}}
	if cores > 1 {
		shapes = append(shapes, slices.Repeat([]int{1}, cores))
	}
	if cores >= 4 {
		shapes = append(shapes, slices.Repeat([]int{2}, cores/2))
	}
	if auto := AutoShape(cores); len(auto) > 1 {
		shapes = append(shapes, auto)
	}
	return shapes
}

// Elastic reports whether shape's slots together want more than cores threads, so that they
// must share them (the scheduler runs a slot only when its threads fit).
func Elastic(shape []int, cores int) bool { return sum(shape) > cores }

// Tune loads the engine in each shape and measures it: lone-request first audio, saturated
// engine throughput and the model-only limit. It stops at ctx's end with what it has.
func Tune(ctx context.Context, c TuneConfig, cpus int) ([]ShapeResult, error) {
	if len(c.Texts) == 0 {
		return nil, errors.New("tune: no texts")
	}
	if c.Hold <= 0 {
		c.Hold = 20 * time.Second
	}
	cores := c.Cores
	if cores <= 0 {
		cores = cpus
	}
	shapes := c.Shapes
	if len(shapes) == 0 {
		shapes = CandidateShapes(cores)
	}
	say := func(format string, args ...any) {
		if c.Progress != nil {
			c.Progress(fmt.Sprintf(format, args...))
		}
	}
	var out []ShapeResult
	for _, shape := range shapes {
		lc := c.Load
		lc.Slots, lc.Threads, lc.SlotThreads, lc.Cores = 0, 0, slices.Clone(shape), cores
		r := ShapeResult{Shape: shape}
		if Elastic(shape, cores) {
			r.Cores = cores
		}
		say("shape %v: loading", shape)
		e, err := Load(ctx, lc, nil)
		if err != nil {
			return out, fmt.Errorf("shape %v: %w", shape, err)
		}
		err = func() error {
			defer e.Close()
			say("shape %v: one request at a time for %v", shape, c.Hold)
			if r.LoneP50, r.LoneP95, err = e.measureLone(ctx, c.Texts, c.Voice, c.Hold); err != nil {
				return err
			}
			say("shape %v: %d requests at once for %v", shape, 2*cores, c.Hold)
			cpu := CPUTime()
			if r.Engine, err = e.measureSaturated(ctx, c.Texts, c.Voice, 2*cores, c.Hold); err != nil {
				return err
			}
			r.EngineCPU = perAudio(CPUTime()-cpu, r.Engine, c.Hold)
			say("shape %v: the model alone for %v", shape, c.Hold)
			cpu = CPUTime()
			r.Model, err = e.ModelThroughput(ctx, c.Texts, c.Voice, busySlots(shape, cores), c.Hold)
			r.ModelCPU = perAudio(CPUTime()-cpu, r.Model, c.Hold)
			return err
		}()
		if err != nil {
			return out, fmt.Errorf("shape %v: %w", shape, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// busySlots are the slots of shape the model-only measurement keeps busy: all of them when
// each has its own cores, else the narrowest that fit in cores together.
func busySlots(shape []int, cores int) []int {
	idx := make([]int, len(shape))
	for i := range idx {
		idx[i] = i
	}
	if !Elastic(shape, cores) {
		return idx
	}
	sort.SliceStable(idx, func(a, b int) bool { return shape[idx[a]] < shape[idx[b]] })
	var out []int
	used := 0
	for _, i := range idx {
		if used+shape[i] <= cores {
			out = append(out, i)
			used += shape[i]
		}
	}
	return out
}

// Best picks the shape to run: the highest saturated engine throughput, and among those within
// 3 % of it the earliest lone first audio.
func Best(rs []ShapeResult) (ShapeResult, bool) {
	if len(rs) == 0 {
		return ShapeResult{}, false
	}
	top := 0.0
	for _, r := range rs {
		top = max(top, r.Engine)
	}
	var best ShapeResult
	found := false
	for _, r := range rs {
		if r.Engine >= 0.97*top && (!found || r.LoneP50 < best.LoneP50) {
			best, found = r, true
		}
	}
	return best, found
}

func (e *Engine) measureLone(ctx context.Context, texts []string, voice string, hold time.Duration) (p50, p95 time.Duration, err error) {
	how, err := e.CheckVoice(Request{Voice: voice})
	if err != nil {
		return 0, 0, err
	}
	var ttfa []time.Duration
	end := time.Now().Add(hold)
	for i := 0; time.Now().Before(end) || len(ttfa) < 3; i++ {
		r, err := e.CheckText(how, texts[i%len(texts)])
		if err != nil {
			return 0, 0, err
		}
		st, err := e.Stream(ctx, r, func(Chunk) error { return nil })
		if err != nil {
			return 0, 0, err
		}
		ttfa = append(ttfa, st.TTFA)
	}
	slices.Sort(ttfa)
	return quantile(ttfa, 0.5), quantile(ttfa, 0.95), nil
}

func quantile(xs []time.Duration, q float64) time.Duration {
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[i] + time.Duration((pos-float64(i))*float64(xs[i+1]-xs[i]))
}

func (e *Engine) measureSaturated(ctx context.Context, texts []string, voice string, n int, hold time.Duration) (float64, error) {
	how, err := e.CheckVoice(Request{Voice: voice})
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		audio time.Duration
		first error
		wg    sync.WaitGroup
	)
	start := time.Now()
	end := start.Add(hold)
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(end); i += n {
				r, err := e.CheckText(how, texts[i%len(texts)])
				var st Stats
				if err == nil {
					st, err = e.Stream(ctx, r, func(Chunk) error { return nil })
				}
				mu.Lock()
				if err != nil && first == nil {
					first = err
					cancel()
				}
				audio += st.AudioDuration
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	return audio.Seconds() / time.Since(start).Seconds(), nil
}

// ModelThroughput is the model-only limit: the slots listed kept busy, each its own loop over
// texts spoken whole (one chunk each, the fewest model calls), with no engine, scheduler or
// server in between. It counts the audio as a listener gets it, the model's lead and tail
// silence cut as the engine cuts them, so that it compares with the engine's and the server's
// throughput.
func (e *Engine) ModelThroughput(ctx context.Context, texts []string, voice string, slots []int, hold time.Duration) (float64, error) {
	how, err := e.CheckVoice(Request{Voice: voice})
	if err != nil {
		return 0, err
	}
	type unit struct {
		ids   []int64
		style []float32
	}
	var units []unit
	for _, t := range texts {
		chunks, err := e.ph.Chunks(t, chunk.Options{Policy: chunk.Policy{FirstChunkMaxIDs: model.MaxIDs, FirstChunkMinIDs: model.MaxIDs, MaxChunkIDs: model.MaxIDs}})
		if err != nil {
			return 0, fmt.Errorf("phonemize %q: %w", t, err)
		}
		for _, c := range chunks {
			units = append(units, unit{c.IDs, how.Voice.Pack.Row(styleIDs(c))})
		}
	}
	var (
		mu    sync.Mutex
		audio time.Duration
		first error
		wg    sync.WaitGroup
	)
	syn := e.sched.syn
	start := time.Now()
	end := start.Add(hold)
	for k, slot := range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; time.Now().Before(end) && ctx.Err() == nil; i++ {
				u := units[i%len(units)]
				pcm, err := syn.Synthesize(ctx, slot, u.ids, u.style, 1)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				played, _ := reframe(pcm, chunk.BreakEnd, false, false, false)
				audio += time.Duration(len(played)) * time.Second / api.SampleRate
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return 0, first
	}
	return audio.Seconds() / time.Since(start).Seconds(), nil
}

// CPUTime is the CPU time this process has used, user and system.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// perAudio is CPU seconds per audio second, for a measurement of about hold at rate audio s/s.
func perAudio(cpu time.Duration, rate float64, hold time.Duration) float64 {
	if rate <= 0 {
		return 0
	}
	return cpu.Seconds() / (rate * hold.Seconds())
}

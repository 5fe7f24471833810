package model

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// Provider selects where the model runs.
type Provider string

// Providers.
const (
	ProviderAuto Provider = "auto" // CUDA when it can be initialised, else CPU
	ProviderCPU  Provider = "cpu"
	ProviderCUDA Provider = "cuda"
)

// ParseProvider accepts auto, cpu or cuda.
func ParseProvider(s string) (Provider, error) {
	switch p := Provider(strings.ToLower(strings.TrimSpace(s))); p {
	case "", ProviderAuto:
		return ProviderAuto, nil
	case ProviderCPU, ProviderCUDA:
		return p, nil
	}
	return "", fmt.Errorf("provider %q: want auto, cpu or cuda", s)
}

// Config opens a Model.
type Config struct {
	Path     string // the .onnx file
	ORTLib   string // libonnxruntime.so
	Provider Provider
	Slots    int // independent sessions; default 1
	Threads  int // intra-op threads per slot on CPU; default 1
	// SlotThreads, when set, gives each slot its own intra-op thread count and replaces Slots
	// and Threads: a wide session for a lone request beside narrow ones for a busy queue.
	SlotThreads []int
	// Lone is the intra-op thread count of a slot that runs only while no other slot does:
	// the wide slot of slots that share the cores, whose threads take all of them. It spins
	// as a single slot does (SessionOptions.Spinning). 0 = none.
	Lone     int
	DeviceID int // CUDA device
	// Session tunes ONNX Runtime's session options; the zero value takes the defaults noted
	// on its fields.
	Session SessionOptions
	Logger  *slog.Logger
}

// Info describes an opened model.
type Info struct {
	Path     string
	IO       IO
	Provider Provider // the provider actually in use
	Slots    int
	Threads  int // intra-op threads of the widest slot
	// SlotThreads is each slot's intra-op thread count, in slot order.
	SlotThreads []int
	Runtime     string // ONNX Runtime version
}

// Model is a pool of ONNX Runtime sessions over one model file. Synthesize is safe for
// concurrent use as long as each slot has at most one caller, which tts's scheduler ensures.
type Model struct {
	info     Info
	sessions []*ort.DynamicAdvancedSession
	outputs  []string // what each run fetches: the audio, then the durations if any
	// noAlign: the sessions fetch a duration output that Open found not to match the audio.
	noAlign bool
	// split, when set, runs the model as its predictor and decoder (Predict, Decode), and
	// sessions is empty.
	split *splitSessions
}

// ErrSlot reports a slot index outside the pool.
var ErrSlot = errors.New("no such slot")

// Open loads the model into cfg.Slots sessions. Creating a session cannot be interrupted, so a
// cancelled ctx is honoured between sessions: loading then stops within one session's time,
// releases what it made and returns ctx's error.
func Open(ctx context.Context, cfg Config) (*Model, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	threads, err := slotThreads(cfg)
	if err != nil {
		return nil, err
	}
	if err := cfg.Session.Validate(); err != nil {
		return nil, err
	}
	if cfg.Provider == "" {
		cfg.Provider = ProviderAuto
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(cfg.Path); err != nil {
		return nil, fmt.Errorf("model not found at %s: run `make setup` (or set KOKORO_MODEL): %w", cfg.Path, err)
	}
	if err := initRuntime(cfg.ORTLib); err != nil {
		return nil, err
	}
	ins, outs, err := ort.GetInputOutputInfo(cfg.Path)
	if err != nil {
		return nil, fmt.Errorf("read model %s: %w", cfg.Path, err)
	}
	io, err := detectIO(ins, outs)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.Path, err)
	}
	var data []byte   // the model with its durations added as an output; nil: the file as it is
	var ops []string  // the model's integer operators (integerOps), once the file is read
	opsKnown := false // the file is read once, here if the durations need it
	if io.Duration == "" {
		b, err := os.ReadFile(cfg.Path)
		if err != nil {
			return nil, fmt.Errorf("read model %s: %w", cfg.Path, err)
		}
		if name, ok := durationTensor(b); ok {
			data, io.Duration = withOutput(b, name), name
		}
		ops, opsKnown = integerOps(b), true
	}
	m := &Model{info: Info{Path: cfg.Path, IO: io, Slots: len(threads), Threads: slices.Max(threads),
		SlotThreads: threads, Runtime: ort.GetVersion()}, outputs: io.outputNames()}
	provider := cfg.Provider
	for _, n := range threads {
		if err := ctx.Err(); err != nil {
			m.Close()
			return nil, err
		}
		s, used, err := newSession(cfg, data, sessionNames{io.inputNames(), io.outputNames()}, provider, n, len(threads) > 1 && n != cfg.Lone, log)
		if err != nil {
			m.Close()
			return nil, err
		}
		provider = used // every slot follows the first one's outcome
		m.sessions = append(m.sessions, s)
	}
	m.info.Provider = provider
	if io.Duration != "" {
		// One short run says whether the durations are what Synthesize takes them for.
		probe := []int64{50, 156, 86, 16, 102}
		if _, _, err := m.SynthesizeAligned(ctx, 0, probe, make([]float32, StyleDim), 1); err != nil {
			if ctx.Err() != nil {
				m.Close()
				return nil, ctx.Err()
			}
			log.Warn("the model's durations do not match its audio; chunks are cut only where the text pauses",
				"output", io.Duration, "reason", err.Error())
			m.info.IO.Duration, m.noAlign = "", true
		}
	}
	if provider == ProviderCUDA {
		if !opsKnown {
			b, _ := os.ReadFile(cfg.Path) // unread: no warning
			ops = integerOps(b)
		}
		if len(ops) > 0 {
			log.Warn("a quantized model on cuda: its integer operators have no CUDA kernels, so every chunk "+
				"copies tensors between device and host; use the fp32 or fp16 export (KOKORO_MODEL_VARIANT)", "ops", ops)
		}
	}
	if m.info.IO.Duration != "" {
		if err := m.splitModel(ctx, cfg, data, threads, log); err != nil {
			if ctx.Err() != nil {
				m.Close()
				return nil, ctx.Err()
			}
			log.Warn("the model runs whole: its predictor and decoder could not be split", "reason", err.Error())
		}
	}
	log.Info("model loaded", "path", cfg.Path, "split", m.split != nil, "io", io.String(), "provider", string(provider),
		"slots", len(threads), "threads", threads, "onnxruntime", m.info.Runtime)
	return m, nil
}

// slotThreads is the intra-op thread count of each slot cfg asks for.
func slotThreads(cfg Config) ([]int, error) {
	if len(cfg.SlotThreads) > 0 {
		for i, n := range cfg.SlotThreads {
			if n < 1 {
				return nil, fmt.Errorf("slot %d has %d threads, want at least 1", i, n)
			}
		}
		return slices.Clone(cfg.SlotThreads), nil
	}
	n, t := max(cfg.Slots, 1), max(cfg.Threads, 1)
	out := make([]int, n)
	for i := range out {
		out[i] = t
	}
	return out, nil
}

func newSession(cfg Config, data []byte, names sessionNames, p Provider, threads int, shared bool, log *slog.Logger) (*ort.DynamicAdvancedSession, Provider, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, p, fmt.Errorf("session options: %w", err)
	}
	defer opts.Destroy()
	if err := cfg.Session.apply(opts, threads, shared); err != nil {
		return nil, p, err
	}
	used := ProviderCPU
	if p == ProviderAuto && !cudaProviderShipped(cfg.ORTLib) {
		// A CPU-only build of ONNX Runtime: nothing to try, and nothing to warn about.
		p = ProviderCPU
	}
	if p == ProviderAuto || p == ProviderCUDA {
		err := appendCUDA(opts, cudaOptions(cfg.DeviceID))
		switch {
		case err == nil:
			used = ProviderCUDA
		case p == ProviderCUDA:
			return nil, p, fmt.Errorf("cuda requested but unavailable: %w", err)
		default:
			log.Warn("cuda unavailable, running on cpu", "reason", err.Error())
		}
	}
	var s *ort.DynamicAdvancedSession
	if data != nil {
		s, err = ort.NewDynamicAdvancedSessionWithONNXData(data, names.in, names.out, opts)
	} else {
		s, err = ort.NewDynamicAdvancedSession(cfg.Path, names.in, names.out, opts)
	}
	if err != nil {
		if used == ProviderCUDA && p == ProviderAuto {
			log.Warn("cuda session failed, running on cpu", "reason", err.Error())
			cpu := cfg
			cpu.Provider = ProviderCPU
			return newSession(cpu, data, names, ProviderCPU, threads, shared, log)
		}
		return nil, p, fmt.Errorf("create session for %s: %w", cfg.Path, err)
	}
	return s, used, nil
}

// CUDAShipped reports whether the CUDA execution provider library sits beside the ONNX
// Runtime library at ortLib, as it does in the GPU builds: where provider auto will try CUDA.
func CUDAShipped(ortLib string) bool { return cudaProviderShipped(ortLib) }

// cudaProviderShipped reports whether the CUDA execution provider library sits beside the
// ONNX Runtime library, as it does in the GPU builds.
func cudaProviderShipped(ortLib string) bool {
	_, err := os.Stat(filepath.Join(filepath.Dir(ortLib), "libonnxruntime_providers_cuda.so"))
	return err == nil
}

// Info describes the opened model.
func (m *Model) Info() Info { return m.info }

// Slots is the number of independent sessions.
func (m *Model) Slots() int { return m.info.Slots }

// SlotThreads is each slot's intra-op thread count, so a scheduler can share the cores out.
func (m *Model) SlotThreads() []int { return slices.Clone(m.info.SlotThreads) }

// Synthesize runs one chunk: ids are phoneme ids without pads (the pads are added here),
// style is the voice row for len(ids), speed scales durations. It returns mono float32 PCM at
// api.SampleRate. Cancelling ctx terminates the run inside ONNX Runtime.
func (m *Model) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	pcm, _, err := m.run(ctx, slot, ids, style, speed)
	return pcm, err
}

// Aligns reports whether SynthesizeAligned can say where each token's audio lies.
func (m *Model) Aligns() bool { return m.info.IO.Duration != "" && !m.noAlign }

// SynthesizeAligned is Synthesize that also returns how many samples of the audio each token
// makes: len(ids)+2 counts, the leading pad's first and the trailing pad's last, summing to
// len(pcm). It fails with ErrNoAlignment when the model cannot say (Aligns).
func (m *Model) SynthesizeAligned(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, []int, error) {
	if m.info.IO.Duration == "" || m.noAlign {
		return nil, nil, ErrNoAlignment
	}
	pcm, frames, err := m.run(ctx, slot, ids, style, speed)
	if err != nil {
		return nil, nil, err
	}
	if len(frames) != len(ids)+2 {
		return nil, nil, fmt.Errorf("%w: %d durations for %d tokens", ErrNoAlignment, len(frames), len(ids)+2)
	}
	spans := make([]int, len(frames))
	total := 0
	for i, f := range frames {
		if f < 0 || f > int64(len(pcm)) {
			return nil, nil, fmt.Errorf("%w: token %d lasts %d frames", ErrNoAlignment, i, f)
		}
		spans[i] = int(f) * FrameSamples
		total += spans[i]
	}
	if total != len(pcm) {
		return nil, nil, fmt.Errorf("%w: durations make %d samples, the audio has %d", ErrNoAlignment, total, len(pcm))
	}
	return pcm, spans, nil
}

// run synthesizes one chunk and returns its audio and, when the session fetches them, the
// frames each padded token lasts.
func (m *Model) run(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, []int64, error) {
	if m.split != nil {
		f, err := m.Predict(ctx, slot, ids, style, speed)
		if err != nil {
			return nil, nil, err
		}
		pcm, err := m.Decode(ctx, slot, f, Window{To: f.Frames})
		if err != nil {
			return nil, nil, err
		}
		frames := make([]int64, len(f.Spans))
		for i, s := range f.Spans {
			frames[i] = int64(s / FrameSamples)
		}
		return pcm, frames, nil
	}
	ins, free, err := m.inputs(ctx, slot, ids, style, speed)
	if err != nil {
		return nil, nil, err
	}
	defer free()
	outs := make([]ort.Value, len(m.outputs))
	if err := m.exec(ctx, m.sessions[slot], ins, outs); err != nil {
		return nil, nil, err
	}
	for _, o := range outs {
		defer o.Destroy()
	}
	audio, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, nil, fmt.Errorf("%w: audio output is %T", ErrContract, outs[0])
	}
	pcm := append([]float32(nil), audio.GetData()...)
	if len(outs) < 2 {
		return pcm, nil, nil
	}
	frames, ok := outs[1].(*ort.Tensor[int64])
	if !ok {
		return nil, nil, fmt.Errorf("%w: duration output is %T", ErrContract, outs[1])
	}
	return pcm, append([]int64(nil), frames.GetData()...), nil
}

// checkSlot reports a cancelled ctx or a slot outside the pool.
func (m *Model) checkSlot(ctx context.Context, slot int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if slot < 0 || slot >= m.info.Slots {
		return fmt.Errorf("%w: %d of %d", ErrSlot, slot, m.info.Slots)
	}
	return nil
}

// inputs makes the model's three input tensors for one run; free releases them.
func (m *Model) inputs(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]ort.Value, func(), error) {
	if err := m.checkSlot(ctx, slot); err != nil {
		return nil, nil, err
	}
	if len(ids) == 0 || len(ids) > MaxIDs {
		return nil, nil, fmt.Errorf("chunk has %d phoneme ids, want 1..%d", len(ids), MaxIDs)
	}
	if len(style) != StyleDim {
		return nil, nil, fmt.Errorf("style has %d values, want %d", len(style), StyleDim)
	}
	var vals []ort.Value
	free := func() {
		for _, v := range vals {
			v.Destroy()
		}
	}
	padded := make([]int64, 0, len(ids)+2)
	padded = append(append(append(padded, 0), ids...), 0)
	tokens, err := ort.NewTensor(ort.NewShape(1, int64(len(padded))), padded)
	if err != nil {
		return nil, nil, fmt.Errorf("tokens tensor: %w", err)
	}
	vals = append(vals, tokens)
	styleT, err := ort.NewTensor(ort.NewShape(1, StyleDim), append([]float32(nil), style...))
	if err != nil {
		free()
		return nil, nil, fmt.Errorf("style tensor: %w", err)
	}
	vals = append(vals, styleT)
	var speedT ort.Value
	if m.info.IO.SpeedInt32 {
		speedT, err = ort.NewTensor(ort.NewShape(1), []int32{int32(math.Round(float64(speed)))})
	} else {
		speedT, err = ort.NewTensor(ort.NewShape(1), []float32{speed})
	}
	if err != nil {
		free()
		return nil, nil, fmt.Errorf("speed tensor: %w", err)
	}
	vals = append(vals, speedT)
	return vals, free, nil
}

// exec runs one session; cancelling ctx terminates the run inside ONNX Runtime.
func (m *Model) exec(ctx context.Context, s *ort.DynamicAdvancedSession, ins, outs []ort.Value) error {
	ro, err := ort.NewRunOptions()
	if err != nil {
		return fmt.Errorf("run options: %w", err)
	}
	defer ro.Destroy()
	stop := context.AfterFunc(ctx, func() { _ = ro.Terminate() })
	defer stop()
	if err := s.RunWithOptions(ins, outs, ro); err != nil {
		for _, o := range outs {
			if o != nil {
				o.Destroy()
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("run model: %w", err)
	}
	return nil
}

// Warmup runs every slot once so the first request does not pay for lazy initialisation.
func (m *Model) Warmup(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	ids := make([]int64, 48)
	for i := range ids {
		ids[i] = int64(43 + i%26) // ordinary Latin phoneme symbols
	}
	style := make([]float32, StyleDim)
	for s := range m.info.Slots {
		if _, err := m.Synthesize(ctx, s, ids, style, 1); err != nil {
			return time.Since(start), fmt.Errorf("warm-up slot %d: %w", s, err)
		}
	}
	return time.Since(start), nil
}

// Close releases every session.
func (m *Model) Close() error {
	var errs []error
	for _, s := range m.sessions {
		if err := s.Destroy(); err != nil {
			errs = append(errs, err)
		}
	}
	m.sessions = nil
	if m.split != nil {
		errs = append(errs, m.split.close())
	}
	return errors.Join(errs...)
}

package tts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// LoadConfig is everything Load needs to build an engine from the installed assets. Zero values
// take the defaults noted.
type LoadConfig struct {
	Assets   assets.Paths
	Provider string // auto, cpu or cuda; "" = auto
	Slots    int    // model sessions run in parallel; 0 = the adaptive shape (AutoShape)
	Threads  int    // intra-op threads per slot on CPU; 0 = cores/slots
	// SlotThreads gives each slot its own thread count ("4,1,1,1,1"); it replaces Slots and
	// Threads, and the slots share Cores.
	SlotThreads []int
	// Cores is what slots of different widths share (0 = the machine's CPUs): a slot runs
	// only when its threads fit in the cores left.
	Cores        int
	Session      model.SessionOptions
	MaxTextChars int // longest accepted text; 0 = unlimited
	// Policy is how requests are cut into chunks (Config.Policy); MaxChunkIDs 0 = by provider
	// (MaxChunkIDsFor).
	chunk.Policy
	DefaultVoice string // voice of a request that names none; "" = api.DefaultVoice
	Espeak       string // espeak-ng for unknown words: "" = from PATH, "off", or a path
	// DecoderWindows sends a sentence's audio in decoder windows (Config.Windows) where the
	// model splits into predictor and decoder: auto = on CUDA, where the windows' margins
	// cost little; on CPU their audio was measured a little worse than the whole decode's
	// (docs/performance.md), so there it is a choice of earlier first audio.
	DecoderWindows model.Toggle
	// PreloadLangs are languages whose dictionaries are read during the warm-up rather than
	// by their first request (Japanese: about 5 s and 141 MB; Mandarin: 1 s and 36 MB).
	PreloadLangs []string
	Logger       *slog.Logger
	Observer     Observer
}

// Load builds the engine `kokoro serve`, `kokoro synth` and the real-model tests run: it loads
// the phonemizer and the voices, opens the model, warms every slot up and starts the engine.
// stage (optional) is told api.StageWeightsReady once the model is loaded and
// api.StageWarmupDone after the warm-up. The engine owns what Load opened: its Close also
// closes the model and stops the phonemizer's espeak-ng helpers. A cancelled ctx stops the
// load between steps (and between the model's sessions), releasing whatever was opened.
func Load(ctx context.Context, c LoadConfig, stage func(string)) (*Engine, error) {
	if stage == nil {
		stage = func(string) {}
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if c.DefaultVoice == "" {
		c.DefaultVoice = api.DefaultVoice
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	prov, _ := model.ParseProvider(c.Provider)
	shape, cores := c.Shape(prov, c.Assets.ORTLib, runtime.NumCPU())
	ph, err := phonemize.New(phonemize.Config{LexiconDir: c.Assets.Lexicon, Espeak: c.Espeak})
	if err != nil {
		return nil, err
	}
	voices, err := model.LoadVoices(c.Assets.Voices)
	if err != nil {
		return nil, errors.Join(err, ph.Close())
	}
	if _, err := lookupVoice(voices, c.DefaultVoice); err != nil {
		return nil, errors.Join(fmt.Errorf("default voice: %w", err), ph.Close())
	}
	m, err := model.Open(ctx, model.Config{
		Path: c.Assets.Model, ORTLib: c.Assets.ORTLib, Provider: prov,
		SlotThreads: shape, Session: c.Session, Logger: log, Lone: loneThreads(shape, cores),
	})
	if err != nil {
		return nil, errors.Join(err, ph.Close())
	}
	release := func() error { return errors.Join(m.Close(), ph.Close()) }
	stage(api.StageWeightsReady)
	d, err := m.Warmup(ctx)
	if err != nil {
		return nil, errors.Join(err, release())
	}
	for _, lang := range c.PreloadLangs {
		start := time.Now()
		if err := ph.Preload(lang); err != nil {
			return nil, errors.Join(fmt.Errorf("preload %s: %w", lang, err), release())
		}
		log.Info("language preloaded", "lang", lang, "seconds", time.Since(start).Seconds())
	}
	log.Info("warm-up done", "seconds", d.Seconds())
	stage(api.StageWarmupDone)
	if m.Info().Provider == model.ProviderCUDA {
		cores = 0 // the slots are streams on one device, not threads on shared cores
	}
	policy := c.Policy
	policy.MaxChunkIDs = MaxChunkIDsFor(c.MaxChunkIDs, m.Info().Provider)
	eng := New(Config{
		DefaultVoice: c.DefaultVoice,
		MaxTextChars: c.MaxTextChars,
		Policy:       policy,
		Windows:      c.DecoderWindows.Or(m.Info().Provider == model.ProviderCUDA),
		Cores:        cores,
		Observer:     c.Observer,
	}, chunk.Chunker{Reader: ph}, m, voices)
	eng.release = release
	return eng, nil
}

// Validate reports the first setting Load cannot work with, before anything is loaded, so that
// a command can refuse a bad flag before it starts a server.
func (c LoadConfig) Validate() error {
	if _, err := model.ParseProvider(c.Provider); err != nil {
		return err
	}
	if err := c.Session.Validate(); err != nil {
		return err
	}
	for _, t := range c.SlotThreads {
		if t < 1 {
			return fmt.Errorf("slot threads must each be at least 1, got %v", c.SlotThreads)
		}
	}
	switch {
	case c.Slots < 0:
		return fmt.Errorf("slots must be at least 0 (0 = adaptive), got %d", c.Slots)
	case c.Threads < 0:
		return fmt.Errorf("threads must be at least 0 (0 = cores/slots), got %d", c.Threads)
	case c.Cores < 0:
		return fmt.Errorf("cores must be at least 0 (0 = all), got %d", c.Cores)
	case c.FirstChunkMinIDs < 0 || c.FirstChunkMaxIDs < 0 || c.MaxChunkIDs < 0:
		return fmt.Errorf("chunk budgets must be at least 0 (0 = the default)")
	case c.MaxTextChars < 0:
		return fmt.Errorf("max text chars must be at least 0 (0 = unlimited), got %d", c.MaxTextChars)
	}
	for _, lang := range c.PreloadLangs {
		if _, err := phonemize.ParseLang(lang); err != nil {
			return fmt.Errorf("preload: %w", err)
		}
	}
	return nil
}

// MaxChunkIDsFor picks the later-chunk budget: the configured one, or by provider: 200 ids on
// CPU, where a chunk holds its slot for seconds and a new request waits behind it; the model's
// whole input on GPU, where a chunk takes a fraction of a second and longer chunks use the
// device better (docs/performance.md).
func MaxChunkIDsFor(configured int, p model.Provider) int {
	if configured > 0 {
		return configured
	}
	if p == model.ProviderCUDA {
		return model.MaxIDs
	}
	return 200
}

// Shape is the intra-op thread count of each slot Load opens, and the cores the slots share
// (0 when each slot has its own), for provider p on a machine of cpus CPUs. Explicit
// SlotThreads win; then Slots × Threads (Threads 0 = cpus/Slots), each slot on its own cores
// as before; Slots 0 is the adaptive shape, AutoShape.
func (c LoadConfig) Shape(p model.Provider, ortLib string, cpus int) (threads []int, cores int) {
	cores = c.Cores
	if cores <= 0 {
		cores = cpus
	}
	switch {
	case len(c.SlotThreads) > 0:
		return slices.Clone(c.SlotThreads), cores
	case c.Slots > 0:
		t := c.Threads
		if t <= 0 {
			t = max(1, cpus/c.Slots)
		}
		return slices.Repeat([]int{t}, c.Slots), 0
	case p == model.ProviderCUDA || (p == model.ProviderAuto && model.CUDAShipped(ortLib)):
		return []int{1, 1}, 0
	}
	return AutoShape(cores), cores
}

// loneThreads is the width of the slot of shape that runs only alone, when its slots share
// cores: one that takes all of them, as the adaptive shape's wide slot does (0 = none). The
// scheduler starts a slot only when its threads fit in the free cores, so no other slot
// computes beside it and its workers may spin, which shortens its chunks
// (docs/performance.md).
func loneThreads(shape []int, cores int) int {
	if cores <= 0 || !Elastic(shape, cores) {
		return 0
	}
	for _, t := range shape {
		if t >= cores {
			return t
		}
	}
	return 0
}

// AutoShape is the default CPU shape on a machine of cores cores: one session as wide as the
// machine, which finishes a lone request's chunks soonest, beside narrow ones that together
// get the most audio out of the cores when several requests wait (one thread each up to 4
// cores, two each above, where one thread per session leaves too many sessions in memory).
// The scheduler runs the wide one only when the cores are free and nothing else waits.
func AutoShape(cores int) []int {
	cores = max(cores, 1)
	if cores == 1 {
		return []int{1}
	}
	narrow := 1
	if cores > 4 {
		narrow = 2
	}
	shape := []int{cores}
	for range cores / narrow {
		shape = append(shape, narrow)
	}
	return shape
}

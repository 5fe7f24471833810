package tts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// LoadConfig is everything Load needs to build an engine from the installed assets. Zero values
// take the defaults noted.
type LoadConfig struct {
	Assets           assets.Paths
	Provider         string // auto, cpu or cuda; "" = auto
	Slots            int    // model sessions run in parallel; at least 1
	Threads          int    // intra-op threads per slot on CPU; 0 = cores/slots
	MaxTextChars     int    // longest accepted text; 0 = unlimited
	FirstChunkMaxIDs int    // phoneme ids in the first chunk; 0 = the phonemizer's default
	MaxChunkIDs      int    // phoneme ids in later chunks; 0 = by provider (MaxChunkIDsFor)
	DefaultVoice     string // voice of a request that names none; "" = api.DefaultVoice
	Espeak           string // espeak-ng for unknown words: "" = from PATH, "off", or a path
	Logger           *slog.Logger
	Observer         Observer
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
	threads := c.Threads
	if threads <= 0 {
		threads = max(1, runtime.NumCPU()/c.Slots)
	}
	ph, err := phonemize.New(phonemize.Config{LexiconDir: c.Assets.Lexicon, Espeak: c.Espeak})
	if err != nil {
		return nil, err
	}
	voices, err := model.LoadVoices(c.Assets.Voices)
	if err != nil {
		return nil, errors.Join(err, ph.Close())
	}
	if _, err := voices.Style(c.DefaultVoice, 1); err != nil {
		return nil, errors.Join(fmt.Errorf("default voice: %w", err), ph.Close())
	}
	m, err := model.Open(ctx, model.Config{
		Path: c.Assets.Model, ORTLib: c.Assets.ORTLib, Provider: prov,
		Slots: c.Slots, Threads: threads, Logger: log,
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
	log.Info("warm-up done", "seconds", d.Seconds())
	stage(api.StageWarmupDone)
	eng := New(Config{
		DefaultVoice:     c.DefaultVoice,
		MaxTextChars:     c.MaxTextChars,
		FirstChunkMaxIDs: c.FirstChunkMaxIDs,
		MaxChunkIDs:      MaxChunkIDsFor(c.MaxChunkIDs, m.Info().Provider),
		Observer:         c.Observer,
	}, ph, m, voices)
	eng.release = release
	return eng, nil
}

// Validate reports the first setting Load cannot work with, before anything is loaded, so that
// a command can refuse a bad flag before it starts a server.
func (c LoadConfig) Validate() error {
	if _, err := model.ParseProvider(c.Provider); err != nil {
		return err
	}
	switch {
	case c.Slots < 1:
		return fmt.Errorf("slots must be at least 1, got %d", c.Slots)
	case c.MaxTextChars < 0:
		return fmt.Errorf("max text chars must be at least 0 (0 = unlimited), got %d", c.MaxTextChars)
	}
	return nil
}

// MaxChunkIDsFor picks the later-chunk budget: the configured one, or by provider. On CPU
// 200-id chunks run at the real-time factor of 510-id ones as far as a measurement can tell
// (510 took 1.13× the model time per second of audio, 0.72–1.52× over 5 alternating rounds on
// a busy 2-core machine: `scripts/claims.sh chunks`, testdata/claims/chunk_ids.txt) but hold a
// slot for seconds less, so new requests wait less behind them; on GPU a whole chunk takes a
// fraction of a second and longer chunks use the device better.
func MaxChunkIDsFor(configured int, p model.Provider) int {
	if configured > 0 {
		return configured
	}
	if p == model.ProviderCUDA {
		return phonemize.MaxIDs
	}
	return 200
}

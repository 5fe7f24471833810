package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

// engineConfig is everything needed to build the synthesis engine from assets.
type engineConfig struct {
	Assets           assets.Paths
	Provider         string
	Slots            int
	Threads          int
	MaxTextChars     int
	FirstChunkMaxIDs int
	MaxChunkIDs      int
	DefaultVoice     string
	Espeak           string
	Logger           *slog.Logger
	Observer         tts.Observer
}

// addEngineFlags binds the engine's flags, with defaults from the environment (SLOTS, THREADS,
// PROVIDER, MAX_TEXT_CHARS, FIRST_CHUNK_MAX_IDS, DEFAULT_VOICE, KOKORO_ESPEAK and the asset
// variables of internal/assets).
func addEngineFlags(cmd *cobra.Command, c *engineConfig) {
	c.Assets = assets.Resolve(os.Getenv)
	f := cmd.Flags()
	f.StringVar(&c.Assets.Model, "model", c.Assets.Model, "ONNX model file (env KOKORO_MODEL)")
	f.StringVar(&c.Assets.Voices, "voices-dir", c.Assets.Voices, "voice packs directory (env KOKORO_VOICES)")
	f.StringVar(&c.Assets.Lexicon, "lexicon-dir", c.Assets.Lexicon, "lexicon directory (env KOKORO_LEXICON)")
	f.StringVar(&c.Assets.ORTLib, "ort-lib", c.Assets.ORTLib, "libonnxruntime.so (env KOKORO_ORT_LIB)")
	f.StringVar(&c.Provider, "provider", envString("PROVIDER", "auto"), "execution provider: auto, cpu or cuda (env PROVIDER)")
	f.IntVar(&c.Slots, "slots", envInt("SLOTS", 1), "model slots: independent sessions run in parallel (env SLOTS)")
	f.IntVar(&c.Threads, "threads", envInt("THREADS", 0), "intra-op threads per slot on CPU; 0 = cores/slots (env THREADS)")
	f.IntVar(&c.MaxTextChars, "max-text-chars", envInt("MAX_TEXT_CHARS", 10000), "longest accepted text in characters; 0 = unlimited (env MAX_TEXT_CHARS)")
	f.IntVar(&c.FirstChunkMaxIDs, "first-chunk-ids", envInt("FIRST_CHUNK_MAX_IDS", 0), "phoneme ids in the first chunk, kept small for early audio; 0 = default (env FIRST_CHUNK_MAX_IDS)")
	f.IntVar(&c.MaxChunkIDs, "max-chunk-ids", envInt("MAX_CHUNK_IDS", 0), "phoneme ids in later chunks; 0 = 200 on CPU (finer scheduling, same real-time factor), 510 on CUDA (env MAX_CHUNK_IDS)")
	f.StringVar(&c.DefaultVoice, "default-voice", envString("DEFAULT_VOICE", "af_heart"), "voice used when a request names none (env DEFAULT_VOICE)")
	f.StringVar(&c.Espeak, "espeak", envString("KOKORO_ESPEAK", ""), "espeak-ng for unknown words: empty = from PATH, off, or a path (env KOKORO_ESPEAK)")
}

// loadEngine opens the phonemizer, the voices and the model, warms the model up and returns the
// engine with a function that releases it all. stage is told "weights_ready" once the model is
// loaded and "warmup_done" after the warm-up run.
func loadEngine(ctx context.Context, c engineConfig, stage func(string)) (*tts.Engine, func() error, error) {
	if stage == nil {
		stage = func(string) {}
	}
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	prov, err := model.ParseProvider(c.Provider)
	if err != nil {
		return nil, nil, err
	}
	if c.Slots < 1 {
		return nil, nil, fmt.Errorf("slots must be at least 1, got %d", c.Slots)
	}
	threads := c.Threads
	if threads <= 0 {
		threads = max(1, runtime.NumCPU()/c.Slots)
	}
	ph, err := phonemize.New(phonemize.Config{LexiconDir: c.Assets.Lexicon, Espeak: c.Espeak})
	if err != nil {
		return nil, nil, err
	}
	voices, err := model.LoadVoices(c.Assets.Voices)
	if err != nil {
		return nil, nil, err
	}
	m, err := model.Open(model.Config{
		Path: c.Assets.Model, ORTLib: c.Assets.ORTLib, Provider: prov,
		Slots: c.Slots, Threads: threads, Logger: log,
	})
	if err != nil {
		return nil, nil, err
	}
	stage("weights_ready")
	d, err := m.Warmup(ctx)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	log.Info("warm-up done", "seconds", d.Seconds())
	stage("warmup_done")
	eng := tts.New(tts.Config{
		DefaultVoice:     c.DefaultVoice,
		MaxTextChars:     c.MaxTextChars,
		FirstChunkMaxIDs: c.FirstChunkMaxIDs,
		MaxChunkIDs:      maxChunkIDs(c.MaxChunkIDs, m.Info().Provider),
		Observer:         c.Observer,
	}, ph, m, voices)
	if _, err := voices.Style(c.DefaultVoice, 1); err != nil {
		eng.Close()
		m.Close()
		return nil, nil, fmt.Errorf("default voice: %w", err)
	}
	closeAll := func() error {
		eng.Close()
		return m.Close()
	}
	return eng, closeAll, nil
}

// maxChunkIDs picks the later-chunk budget. On CPU a 200-id chunk runs at the same real-time
// factor as a 510-id one (measured: 3.0x vs 2.9x on 2 cores) but holds a slot for seconds less,
// so new requests wait less behind it; on GPU a whole chunk takes a fraction of a second and
// longer chunks use the device better.
func maxChunkIDs(flag int, p model.Provider) int {
	if flag > 0 {
		return flag
	}
	if p == model.ProviderCUDA {
		return 510
	}
	return 200
}

func envString(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not an integer\n", key, v)
		return def
	}
	return n
}

func envFloat(key string, def float64) float64 {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return def
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not a number\n", key, v)
		return def
	}
	return n
}

var errUsage = errors.New("usage")

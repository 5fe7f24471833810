package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

// addEngineFlags binds the engine's flags, with defaults from the environment (SLOTS, THREADS,
// PROVIDER, MAX_TEXT_CHARS, FIRST_CHUNK_MAX_IDS, DEFAULT_VOICE, KOKORO_ESPEAK and the asset
// variables of internal/assets).
func addEngineFlags(cmd *cobra.Command, c *tts.LoadConfig) {
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
	f.StringVar(&c.DefaultVoice, "default-voice", envString("DEFAULT_VOICE", api.DefaultVoice), "voice used when a request names none (env DEFAULT_VOICE)")
	f.StringVar(&c.Espeak, "espeak", envString("KOKORO_ESPEAK", ""), "espeak-ng for unknown words: empty = from PATH, off, or a path (env KOKORO_ESPEAK)")
}

// engineLoader is the server's Loader for the engine c describes: the server hands in its
// metrics as the observer and owns the engine until it shuts down.
func engineLoader(c tts.LoadConfig) server.Loader {
	return func(ctx context.Context, obs tts.Observer, stage func(string)) (server.Engine, func() error, error) {
		c.Observer = obs
		eng, err := tts.Load(ctx, c, stage)
		if err != nil {
			return nil, nil, err
		}
		return eng, eng.Close, nil
	}
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

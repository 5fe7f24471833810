package main

import (
	"context"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

// addEngineFlags binds the engine's flags from the configuration table (engineSettings): the
// asset paths default to what internal/assets resolves from the environment.
func addEngineFlags(cmd *cobra.Command, c *tts.LoadConfig) {
	a := assets.Resolve(os.Getenv)
	f := cmd.Flags()
	bindString(f, &c.Assets.Model, "model", a.Model)
	bindString(f, &c.Assets.Voices, "voices-dir", a.Voices)
	bindString(f, &c.Assets.Lexicon, "lexicon-dir", a.Lexicon)
	bindString(f, &c.Assets.ORTLib, "ort-lib", a.ORTLib)
	c.Assets.Dir = a.Dir
	bindString(f, &c.Provider, "provider")
	bindInt(f, &c.Slots, "slots")
	bindInt(f, &c.Threads, "threads")
	bindInt(f, &c.MaxTextChars, "max-text-chars")
	bindInt(f, &c.FirstChunkMaxIDs, "first-chunk-max-ids")
	bindInt(f, &c.MaxChunkIDs, "max-chunk-ids")
	bindString(f, &c.DefaultVoice, "default-voice")
	bindString(f, &c.Espeak, "espeak")
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

var errUsage = errors.New("usage")

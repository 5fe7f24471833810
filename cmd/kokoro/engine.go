package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
	"github.com/kokoro-sm/kokoro/workflow"
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
	bindValue(f, (*intList)(&c.SlotThreads), "slot-threads")
	bindInt(f, &c.Cores, "cores")
	bindValue(f, (*toggle)(&c.Session.CPUArena), "cpu-arena")
	bindValue(f, (*toggle)(&c.Session.Spinning), "spinning")
	bindString(f, &c.Session.GraphOpt, "graph-opt")
	bindInt(f, &c.MaxTextChars, "max-text-chars")
	bindValue(f, (*toggle)(&c.DecoderWindows), "decoder-windows")
	bindInt(f, &c.FirstChunkMaxIDs, "first-chunk-max-ids")
	bindInt(f, &c.FirstChunkMinIDs, "first-chunk-min-ids")
	bindValue(f, (*firstAt)(&c.FirstChunkAt), "first-chunk-at")
	bindValue(f, (*toggle)(&c.ChunkContext), "chunk-context")
	bindInt(f, &c.MaxChunkIDs, "max-chunk-ids")
	bindFloat(f, &c.Ramp, "chunk-ramp")
	bindString(f, &c.DefaultVoice, "default-voice")
	bindString(f, &c.Espeak, "espeak")
	bindValue(f, (*stringList)(&c.PreloadLangs), "preload-langs")
}

// stringList is a flag of comma-separated words ("ja,zh"); empty is none.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = nil
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func (l *stringList) Type() string { return "list" }

// intList is a flag of comma-separated integers ("2,1,1"); empty is none.
type intList []int

func (l *intList) String() string { return workflow.FormatInts(*l) }

func (l *intList) Set(v string) error {
	out, err := workflow.ParseInts(v)
	if err != nil {
		return err
	}
	*l = out
	return nil
}

func (l *intList) Type() string { return "ints" }

// toggle is a flag of auto, on or off.
type toggle model.Toggle

func (t *toggle) String() string { return workflow.ToggleText(model.Toggle(*t)) }

func (t *toggle) Set(v string) error {
	m, err := model.ParseToggle(v)
	if err != nil {
		return err
	}
	*t = toggle(m)
	return nil
}

func (t *toggle) Type() string { return "auto|on|off" }

// firstAt is a flag of punctuation, phrase or word.
type firstAt chunk.FirstAt

func (f *firstAt) String() string { return chunk.FirstAt(*f).String() }

func (f *firstAt) Set(v string) error {
	a, err := chunk.ParseFirstAt(v)
	if err != nil {
		return err
	}
	*f = firstAt(a)
	return nil
}

func (f *firstAt) Type() string { return "punctuation|phrase|word" }

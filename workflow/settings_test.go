package workflow

import (
	"os"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

const (
	readmeTableStart = "<!-- configuration table: generated from workflow/settings.go -->\n"
	readmeTableEnd   = "<!-- end of the configuration table -->"
)

// The README's configuration table is the one in settings.go: a setting added, renamed or given a
// new default there fails this test until the README says so too.
func TestREADMEConfigurationTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, readmeTableStart), strings.Index(readme, readmeTableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no configuration table between %q and %q", readmeTableStart, readmeTableEnd)
	}
	want := MarkdownTable(ServeSettings(), EngineSettings())
	if got := readme[i+len(readmeTableStart) : j]; got != want {
		t.Errorf("README.md's configuration table differs from settings.go; it should read:\n%s", want)
	}
}

// TestFingerprintCoversEverySetting: every engine row is in the fingerprint of an in-process
// server or says why not, and changing any setting in it changes the environment EngineEnv
// records (and so the artifact's slug). A row added without a Fingerprint, or without a case
// here that changes it, fails.
func TestFingerprintCoversEverySetting(t *testing.T) {
	t.Parallel()
	change := map[string]func(*tts.LoadConfig){
		"provider":            func(c *tts.LoadConfig) { c.Provider = "cuda" },
		"slots":               func(c *tts.LoadConfig) { c.Slots = 3 },
		"threads":             func(c *tts.LoadConfig) { c.Slots, c.Threads = 1, 3 },
		"slot-threads":        func(c *tts.LoadConfig) { c.SlotThreads = []int{3, 1} },
		"cores":               func(c *tts.LoadConfig) { c.SlotThreads, c.Cores = []int{2, 1}, 3 },
		"cpu-arena":           func(c *tts.LoadConfig) { c.Session.CPUArena = model.ToggleOff },
		"spinning":            func(c *tts.LoadConfig) { c.Session.Spinning = model.ToggleOn },
		"graph-opt":           func(c *tts.LoadConfig) { c.Session.GraphOpt = "basic" },
		"max-text-chars":      func(c *tts.LoadConfig) { c.MaxTextChars = 500 },
		"first-chunk-max-ids": func(c *tts.LoadConfig) { c.FirstChunkMaxIDs = 40 },
		"first-chunk-min-ids": func(c *tts.LoadConfig) { c.FirstChunkMinIDs = 8 },
		"first-chunk-at":      func(c *tts.LoadConfig) { c.FirstChunkAt = chunk.FirstAtWord },
		"chunk-context":       func(c *tts.LoadConfig) { c.ChunkContext = model.ToggleOff },
		"decoder-windows":     func(c *tts.LoadConfig) { c.DecoderWindows = model.ToggleOn },
		"max-chunk-ids":       func(c *tts.LoadConfig) { c.MaxChunkIDs = 300 },
		"chunk-ramp":          func(c *tts.LoadConfig) { c.Ramp = 2 },
		"default-voice":       func(c *tts.LoadConfig) { c.DefaultVoice = "am_adam" },
		"espeak":              func(c *tts.LoadConfig) { c.Espeak = "off" },
		"preload-langs":       func(c *tts.LoadConfig) { c.PreloadLangs = []string{"ja"} },
	}
	base := tts.LoadConfig{Provider: "cpu", Slots: 2, Threads: 1}
	env := EngineEnv(base, 0)
	for _, s := range EngineSettings() {
		if (s.Fingerprint == nil) == (s.NotFingerprinted == "") {
			t.Errorf("row %s: give it a Fingerprint or say in NotFingerprinted why it has none", s.Env)
			continue
		}
		if s.Fingerprint == nil {
			if _, ok := env[s.Env]; ok {
				t.Errorf("%s is in the fingerprint though its row says %q", s.Env, s.NotFingerprinted)
			}
			continue
		}
		if _, ok := env[s.Env]; !ok {
			t.Errorf("%s has a Fingerprint but is not in EngineEnv: %v", s.Env, env)
		}
		edit, ok := change[s.Flag]
		if !ok {
			t.Errorf("--%s: no case here shows that changing it changes the fingerprint", s.Flag)
			continue
		}
		c := base
		edit(&c)
		if got := EngineEnv(c, 0); got[s.Env] == env[s.Env] {
			t.Errorf("--%s changed, %s=%q both times", s.Flag, s.Env, env[s.Env])
		}
	}
	if EngineEnv(base, 8)["MAX_QUEUE_DEPTH"] == env["MAX_QUEUE_DEPTH"] {
		t.Error("the admission bound is not in the fingerprint")
	}
}

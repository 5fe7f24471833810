package tts_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

func TestMaxChunkIDsForFollowsTheProvider(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		configured int
		p          model.Provider
		want       int
	}{{0, model.ProviderCPU, 200}, {0, model.ProviderCUDA, 510}, {300, model.ProviderCPU, 300}, {120, model.ProviderCUDA, 120}} {
		t.Run(fmt.Sprintf("%d_%s", c.configured, c.p), func(t *testing.T) {
			if got := tts.MaxChunkIDsFor(c.configured, c.p); got != c.want {
				t.Errorf("MaxChunkIDsFor(%d, %s) = %d, want %d", c.configured, c.p, got, c.want)
			}
		})
	}
}

// children counts this process's child processes named comm, from /proc.
func children(t *testing.T, comm string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // the process ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses, so cut at the last ')'.
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) > 1 && s[open+1:close] == comm && fields[1] == strconv.Itoa(os.Getpid()) {
			n++
		}
	}
	return n
}

// Load reports its stages, applies the provider's chunk rule, and its engine's Close releases
// everything it opened: the model and the espeak-ng helpers the phonemizer started for a word
// no lexicon knows.
func TestRealLoadStagesChunkRuleAndClose(t *testing.T) {
	t.Parallel()
	// espeak-ng is optional (the built-in fallback reads unknown words without it); where it
	// is installed, Close must stop the helpers it runs. Named by its path, the binary runs as
	// a helper process (found on PATH, its library is loaded in-process instead).
	espeakBin, noEspeak := exec.LookPath("espeak-ng")
	var stages []string
	e, err := tts.Load(context.Background(), tts.LoadConfig{Assets: testenv.RealModel(t), Provider: "cpu", Slots: 1, Threads: 2, Espeak: espeakBin},
		func(s string) { stages = append(stages, s) })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if strings.Join(stages, " ") != api.StageWeightsReady+" "+api.StageWarmupDone {
		t.Errorf("stages %v", stages)
	}
	// Two hundred ids on CPU: the second chunk of a long sentence stops at 200, where 510
	// would take it all. Phonemizing (the unknown word included) happens before the first
	// chunk, so two chunks are all the test needs to synthesize.
	long := strings.Repeat("The committee reviewed every proposal with considerable patience and care, ", 4)
	enough := errors.New("enough")
	var second int
	_, err = checkStream(context.Background(), e, tts.Request{Text: long + "then Zorblaxian Quintrevath spoke."}, func(c tts.Chunk) error {
		if c.Index == 1 {
			second = len(phonemize.Tokenize(c.Phonemes))
			return enough
		}
		return nil
	})
	if !errors.Is(err, enough) {
		t.Fatalf("stream: %v", err)
	}
	if second == 0 || second > 200 {
		t.Errorf("the second chunk has %d ids on CPU; later chunks are bounded by 200", second)
	}
	if n := children(t, "espeak-ng"); n == 0 && noEspeak == nil {
		t.Fatal("no espeak-ng helper running after an unknown word: the test proves nothing")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if n := children(t, "espeak-ng"); n != 0 {
		t.Errorf("%d espeak-ng helper(s) still running after Close", n)
	}
	if _, err := checkStream(context.Background(), e, tts.Request{Text: "Hello."}, func(tts.Chunk) error { return nil }); err == nil {
		t.Error("a closed engine still speaks")
	}
}

func TestShape(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cfg       tts.LoadConfig
		p         model.Provider
		cpus      int
		want      string
		wantCores int
	}{
		{tts.LoadConfig{}, model.ProviderCPU, 2, "[2 1 1]", 2},
		{tts.LoadConfig{}, model.ProviderCPU, 1, "[1]", 1},
		{tts.LoadConfig{}, model.ProviderCPU, 8, "[8 2 2 2 2]", 8},
		{tts.LoadConfig{Cores: 4}, model.ProviderCPU, 16, "[4 1 1 1 1]", 4},
		{tts.LoadConfig{}, model.ProviderCUDA, 8, "[1 1]", 0},
		{tts.LoadConfig{Slots: 1}, model.ProviderCPU, 2, "[2]", 0},
		{tts.LoadConfig{Slots: 2, Threads: 1}, model.ProviderCPU, 2, "[1 1]", 0},
		{tts.LoadConfig{Slots: 3}, model.ProviderCPU, 8, "[2 2 2]", 0},
		{tts.LoadConfig{SlotThreads: []int{2, 1}, Slots: 5}, model.ProviderCPU, 2, "[2 1]", 2},
	} {
		t.Run(fmt.Sprintf("%s_%dcpus", c.p, c.cpus), func(t *testing.T) {
			got, cores := c.cfg.Shape(c.p, "/nonexistent/libonnxruntime.so", c.cpus)
			if fmt.Sprint(got) != c.want || cores != c.wantCores {
				t.Errorf("%+v on %d %s CPUs: %v sharing %d cores, want %s sharing %d", c.cfg, c.cpus, c.p, got, cores, c.want, c.wantCores)
			}
		})
	}
	for _, bad := range []tts.LoadConfig{{Slots: -1}, {SlotThreads: []int{1, 0}}, {Cores: -2}, {Session: model.SessionOptions{GraphOpt: "max"}}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

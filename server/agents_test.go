package server

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// The voice-agent frameworks' own TTS services, from the agents virtual environment
// (scripts/setup/requirements-agents.txt, built by scripts/setup/pyvenv.sh), pointed at the
// server with the stand-in engine: each speaks, hands its pipeline word timestamps where it
// takes them, and an interruption mid-sentence leaves nothing in flight.

// agentsPython is the agents environment's python (KOKORO_AGENTS_VENV, default
// <repo>/.venv-agents).
func agentsPython(t *testing.T) string {
	t.Helper()
	venv := os.Getenv("KOKORO_AGENTS_VENV")
	if venv == "" {
		venv = filepath.Join(testenv.RepoRoot(t), ".venv-agents")
	}
	py := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
			t.Fatalf("%s not found: run `bash scripts/setup/pyvenv.sh` (or `make test`)", py)
		}
		t.Skipf("%s not found: run `bash scripts/setup/pyvenv.sh` (or `make test`)", py)
	}
	return py
}

// runAgent runs a scenario of a script of scripts/test/agents against h.
func runAgent(t *testing.T, h *harness, script, scenario string) []string {
	t.Helper()
	py := agentsPython(t)
	out := t.TempDir()
	script = filepath.Join(testenv.RepoRoot(t), "scripts", "test", "agents", script)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, script, h.url, scenario, out)
	cmd.Env = append(os.Environ(), "NO_PROXY=127.0.0.1,localhost", "OPENAI_LOG=")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := cmd.Wait(); err != nil {
		tail := stderr.String()
		if len(tail) > 6000 {
			tail = tail[len(tail)-6000:]
		}
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr (end):\n%s", scenario, err, strings.Join(lines, "\n"), tail)
	}
	for _, l := range lines {
		t.Logf("%s: %s", scenario, l)
	}
	return lines
}

func TestPipecatServices(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"openai", "cartesia", "elevenlabs"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, withAllVoices)
			h.waitReady()
			runAgent(t, h, "pipecat_tts.py", name)
			eventually(t, waitLimit, "nothing in flight", func() bool { return h.srv.gate.depth() == 0 })
		})
	}
}

// An interruption mid-sentence, then the agent's next turn: the model holds every chunk after
// the first two until the interrupted answer is counted cancelled (Cartesia's and OpenAI's
// services stop it themselves; ElevenLabs' closes it, and the next context stops it), so the
// interruption always lands mid-answer. The server is left with nothing in flight.
func TestPipecatInterruptions(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"openai", "cartesia", "elevenlabs"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hold := make(chan struct{})
			var once sync.Once
			release := func() { once.Do(func() { close(hold) }) }
			t.Cleanup(release)
			h := newHarness(t, withAllVoices, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 2 })
			h.waitReady()
			cancelled := func() float64 {
				m := h.srv.Metrics().Requests
				return testutil.ToFloat64(m.WithLabelValues(labelSpeech, OutcomeCancelled)) + testutil.ToFloat64(m.WithLabelValues(labelBidi, OutcomeCancelled))
			}
			go func() {
				for cancelled() == 0 {
					select {
					case <-hold:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
				release()
			}()
			runAgent(t, h, "pipecat_tts.py", name+"-interrupt")
			eventually(t, waitLimit, "nothing in flight", func() bool {
				return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
			})
			if n := cancelled(); n != 1 {
				t.Errorf("%v requests cancelled, want the interrupted one", n)
			}
		})
	}
}

// LiveKit Agents' OpenAI plugin: it speaks, and a synthesis it stops after its first audio (an
// agent's barge-in) leaves nothing in flight, the next one speaking at once.
func TestLiveKitOpenAI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAllVoices)
	h.waitReady()
	runAgent(t, h, "livekit_tts.py", "speak")

	hold := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	h = newHarness(t, withAllVoices, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 2 })
	h.waitReady()
	go func() {
		for testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelSpeech, OutcomeCancelled)) == 0 {
			select {
			case <-hold:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		release()
	}()
	runAgent(t, h, "livekit_tts.py", "interrupt")
	eventually(t, waitLimit, "nothing in flight", func() bool {
		return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
	})
}

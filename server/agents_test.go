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

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
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

// The SageMaker endpoint the emulator in front of a test's server answers as.
const (
	agentsEndpoint = "kokoro-agents"
	agentsRegion   = "us-east-1"
)

// agentTarget is what a script of scripts/test/agents is pointed at: the server, or for
// Pipecat's SageMaker service the emulator in front of it (its URL, then its CA file, endpoint
// and region).
type agentTarget []string

func serverTarget(h *harness) agentTarget { return agentTarget{h.url} }

// sagemakerTarget serves `kokoro emulate --tls` in front of h until the test ends: SageMaker's
// bidirectional stream, which Pipecat's SDK speaks over TLS only.
func sagemakerTarget(t *testing.T, h *harness) agentTarget {
	t.Helper()
	tl, err := emulate.NewTLS(t.TempDir(), nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	url := emulatetest.Start(t, emulate.Config{
		EndpointName: agentsEndpoint, Region: agentsRegion, TLS: tl.Config,
		Variants: []emulate.Variant{{Name: "AllTraffic", Instances: []string{h.url}}},
	})
	return agentTarget{url, tl.CAPath, agentsEndpoint, agentsRegion}
}

// targetFor points the Pipecat service name at h.
func targetFor(t *testing.T, h *harness, name string) agentTarget {
	if name == "sagemaker" {
		return sagemakerTarget(t, h)
	}
	return serverTarget(h)
}

// runAgent runs a scenario of a script of scripts/test/agents against to, and returns the
// script's output lines and the directory it wrote its audio to.
func runAgent(t *testing.T, to agentTarget, script, scenario string) (lines []string, out string) {
	t.Helper()
	py := agentsPython(t)
	out = t.TempDir()
	script = filepath.Join(testenv.RepoRoot(t), "scripts", "test", "agents", script)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{script, to[0], scenario, out}, to[1:]...)...)
	// The SageMaker service signs with the environment's credentials; the emulator checks
	// that a request is signed, not by whom. No other AWS setting of the caller leaks in.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "NO_PROXY=127.0.0.1,localhost", "OPENAI_LOG=",
		"AWS_ACCESS_KEY_ID=AKIDLOCAL", "AWS_SECRET_ACCESS_KEY=local", "AWS_EC2_METADATA_DISABLED=true")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
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
	return lines, out
}

// pipecatServices are the Pipecat services of scripts/test/agents/pipecat_tts.py: OpenAI's,
// Cartesia's, ElevenLabs' and Deepgram's on SageMaker.
var pipecatServices = []string{"openai", "cartesia", "elevenlabs", "sagemaker"}

func TestPipecatServices(t *testing.T) {
	t.Parallel()
	for _, name := range pipecatServices {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, withAllVoices)
			h.waitReady()
			runAgent(t, targetFor(t, h, name), "pipecat_tts.py", name)
			eventually(t, waitLimit, "nothing in flight", func() bool { return h.srv.gate.depth() == 0 })
		})
	}
}

// An interruption mid-sentence, then the agent's next turn: the model holds every chunk after
// the first two until the interrupted answer is counted cancelled (Cartesia's, Deepgram's and
// OpenAI's services stop it themselves; ElevenLabs' closes it, and the next context stops it),
// so the interruption always lands mid-answer. The server is left with nothing in flight.
func TestPipecatInterruptions(t *testing.T) {
	t.Parallel()
	for _, name := range pipecatServices {
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
			runAgent(t, targetFor(t, h, name), "pipecat_tts.py", name+"-interrupt")
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
	runAgent(t, serverTarget(h), "livekit_tts.py", "speak")

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
	runAgent(t, serverTarget(h), "livekit_tts.py", "interrupt")
	eventually(t, waitLimit, "nothing in flight", func() bool {
		return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
	})
}

// TestRealModelAgents runs each framework service once on the real model, all in one server:
// each speaks one sentence, which comes back as speech of a plausible length at the rate the
// framework asked for, with its words where the service takes them (the scripts check those),
// and leaves nothing in flight.
func TestRealModelAgents(t *testing.T) {
	h, _ := realHarness(t)
	agentsPython(t)
	sm := sagemakerTarget(t, h)
	// REAL in the scripts.
	const words = 9 // "The quick brown fox jumps over the lazy dog."
	for _, c := range []struct {
		name, script, scenario, file string
		to                           agentTarget
		rate                         int
	}{
		{"pipecat-openai", "pipecat_tts.py", "openai-real", "openai.wav", serverTarget(h), 24000},
		{"pipecat-cartesia", "pipecat_tts.py", "cartesia-real", "cartesia.wav", serverTarget(h), 16000},
		{"pipecat-elevenlabs", "pipecat_tts.py", "elevenlabs-real", "elevenlabs.wav", serverTarget(h), 16000},
		{"pipecat-sagemaker", "pipecat_tts.py", "sagemaker-real", "sagemaker.wav", sm, 16000},
		{"livekit-openai", "livekit_tts.py", "real", "openai.wav", serverTarget(h), 24000},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out := runAgent(t, c.to, c.script, c.scenario)
			pcm := codectest.DecodeAt(t, api.FormatWAV, readOut(t, out, c.file), c.rate)
			// Read English runs at about 2–4 words a second.
			dur := float64(len(pcm)) / float64(c.rate)
			if lo, hi := float64(words)/5, float64(words)/1.5; dur < lo || dur > hi {
				t.Errorf("%.2f s of audio for %d words, want %.1f–%.1f s", dur, words, lo, hi)
			}
			speechLike(t, c.name, pcm)
			eventually(t, waitLimit, "nothing in flight", func() bool {
				return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
			})
		})
	}
}

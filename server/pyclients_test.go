package server

import (
	"bufio"
	"context"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// The real clients: the official OpenAI Python SDK and Python websockets, from the test
// virtual environment, against a server on loopback (scripts/test/clients/README.md). Each
// script's scenario covers items of the clients issue; the Go side decodes what they received
// and checks what the server counted.

// withAllVoices gives the harness's engine the test voices and every voice the OpenAI names
// map to, so that each name the SDK knows can speak.
func withAllVoices(c *Config, s *fakeSynth) {
	names := slices.Concat(testVoices, slices.Sorted(maps.Values(DefaultVoiceAliases)))
	c.Load = func(ctx context.Context, obs tts.Observer, stage func(string)) (Engine, func() error, error) {
		stage(api.StageWeightsReady)
		stage(api.StageWarmupDone)
		eng := tts.New(tts.Config{Observer: obs}, fakePhonemizer{}, s, fakeVoices{slices.Compact(slices.Sorted(slices.Values(names)))})
		return eng, eng.Close, nil
	}
}

// runPython runs a client script's scenario against h and returns its "ok:" lines. When the
// script prints READY, ready runs and the script is told to go on (a line on its stdin).
func runPython(t *testing.T, h *harness, script, scenario string, ready func()) (lines []string, out string) {
	t.Helper()
	bin := testenv.VenvBin(t, "python")
	out = t.TempDir()
	path := filepath.Join(testenv.RepoRoot(t), "scripts", "test", "clients", script)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "python"), path, h.url, scenario, out)
	cmd.Env = append(os.Environ(), "NO_PROXY=127.0.0.1,localhost", "OPENAI_LOG=")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if line == "READY" && ready != nil {
			ready()
			_, _ = io.WriteString(stdin, "go\n")
			continue
		}
		lines = append(lines, line)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", script, scenario, err, strings.Join(lines, "\n"), stderr.String())
	}
	for _, l := range lines {
		t.Logf("%s %s: %s", script, scenario, l)
	}
	return lines, out
}

func readOut(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Items 1–4 and 10 through the official SDK: every format (mp3 by default), each decoded here
// by an independent decoder; voice names, models, speed, instructions, sse, wav sizes.
func TestPythonOpenAISDK(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAllVoices)
	h.waitReady()
	_, out := runPython(t, h, "openai_sdk.py", "compat", nil)
	text := "The quick brown fox. It jumps over the lazy dog."
	want := wantSamples(text)
	for file, format := range map[string]string{"default.mp3": "mp3", "sdk.opus": "opus", "sdk.flac": "flac", "sdk.wav": "wav", "sdk.pcm": "pcm", "streamed.pcm": "pcm", "sse.pcm": "pcm"} {
		n := len(codectest.Decode(t, format, readOut(t, out, file)))
		if n < want || n > want+3*1152 {
			t.Errorf("%s: %d samples, want %d", file, n, want)
		}
	}
}

// Items 5, 8 and 3's refusals through the SDK, with its retries on: each refusal is one
// request (a 4xx is not retried, where the old 500 was retried twice), and none is a server
// error. The SDK reads each one's code and param, and its exception names an unknown voice
// and the valid ones, read whole or streamed.
func TestPythonOpenAISDKErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAllVoices)
	h.waitReady()
	runPython(t, h, "openai_sdk.py", "errors", nil)
	m := h.srv.Metrics()
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelSpeech, OutcomeClientError)); got != 14 {
		t.Errorf("%v client errors counted, want 14: one request per refusal, no retries", got)
	}
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelSpeech, OutcomeError)); got != 0 {
		t.Errorf("%v server errors", got)
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks for refused requests", n)
	}
}

// Item 7 through the SDK: new work while draining is a 503, and a request the drain budget
// cuts is a 503 shutting_down, never a dropped connection. The model holds the long request
// until it is cut. The script's second request must arrive while the server drains, that is
// within the budget less its cut grace (4 s): the budget is that ceiling, and this test's
// length.
func TestPythonOpenAISDKDrain(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold)
	h := newHarness(t, withAllVoices, func(c *Config, s *fakeSynth) {
		c.DrainTimeout, s.slots, s.hold = 5*time.Second, 1, hold
	})
	h.waitReady()
	done := make(chan error, 1)
	runPython(t, h, "openai_sdk.py", "drain", func() {
		eventually(t, 30*time.Second, "long request admitted", func() bool { return h.srv.gate.depth() == 1 })
		go func() { done <- h.shutdown() }()
		eventually(t, waitLimit, "draining", func() bool { return h.srv.draining.Load() })
	})
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// Items 5, 8, 9 and 10 through Python websockets: markdown in streamed text, a cancelled queued
// utterance's start and end, emoji alone, a huge id, the normal close. Once the markdown stream
// has ended, the model speaks one more chunk and holds the rest until the test ends, so the
// script's cancels find its utterance "a" speaking and "b" queued.
func TestPythonWebSocketSession(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold)
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 30*time.Millisecond })
	h.waitReady()
	runPython(t, h, "ws_client.py", "session", func() { h.syn.holdFrom(1, hold) })
}

// Word timestamps through Python websockets: an audio message names the words of each binary
// frame before it; a cancel after the first sentence reports the samples sent, which the
// client counts in the bytes it received, the last word sent whole and the word cut. The model
// holds every chunk after the first until the test ends, so the cancel always lands
// mid-utterance.
func TestPythonWebSocketTimestamps(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	var release sync.Once
	t.Cleanup(func() { release.Do(func() { close(hold) }) })
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
	h.waitReady()
	runPython(t, h, "ws_client.py", "timestamps", func() { release.Do(func() { close(hold) }) })
}

// Kokoro-FastAPI's documented /dev/captioned_speech usage through requests, streamed and not:
// its fields answered, its mp3 decoded here.
func TestPythonCaptionedSpeech(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withAllVoices)
	h.waitReady()
	_, out := runPython(t, h, "captioned.py", "readme", nil)
	want := wantSamples("Hello world! How are you?")
	for _, file := range []string{"whole.mp3", "streamed.mp3"} {
		if n := len(codectest.Decode(t, "mp3", readOut(t, out, file))); n < want || n > want+3*1152 {
			t.Errorf("%s: %d samples, want %d", file, n, want)
		}
	}
}

// Item 6 through Python websockets: streaming past MAX_TEXT_CHARS.
func TestPythonWebSocketLimit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, maxTextChars(80), func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 20*time.Millisecond })
	h.waitReady()
	runPython(t, h, "ws_client.py", "limit", nil)
}

// Item 9 through Python websockets: invalid UTF-8 in a text frame closes with 1007.
func TestPythonWebSocketInvalidUTF8(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	runPython(t, h, "ws_client.py", "utf8", nil)
}

// Item 7 through Python websockets: the drain budget cuts an utterance with an error message
// and a 1001 close frame.
func TestPythonWebSocketDrain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, s *fakeSynth) {
		c.DrainTimeout, s.slots, s.delay = 2*time.Second, 1, 100*time.Millisecond
	})
	h.waitReady()
	done := make(chan error, 1)
	runPython(t, h, "ws_client.py", "drain", func() {
		go func() { done <- h.shutdown() }()
	})
	if err := <-done; err != nil {
		t.Error(err)
	}
}

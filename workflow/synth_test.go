package workflow

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// synthJob speaks text with the real model at a, on the CPU.
func synthJob(a assets.Paths, text string) Synth {
	s := NewSynth()
	s.Engine = tts.LoadConfig{Assets: a, Provider: "cpu"}
	s.Text = text
	return s
}

// runSynth runs s and returns what it logged.
func runSynth(s Synth) (string, error) {
	var out bytes.Buffer
	err := s.Run(context.Background(), strings.NewReader(""), &out)
	return out.String(), err
}

func TestRealSynthWritesPlayableWAV(t *testing.T) {
	a := testenv.RealModel(t)
	wav := filepath.Join(t.TempDir(), "out.wav")
	vtt := filepath.Join(t.TempDir(), "out.vtt")
	s := synthJob(a, "Hello there, this is a test.")
	s.Voice, s.Out, s.Captions = "am_adam", wav, vtt
	out, err := runSynth(s)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The captions: one cue for the sentence, from its first sound.
	if c, err := os.ReadFile(vtt); err != nil || !strings.HasPrefix(string(c), "WEBVTT\n\n00:00:00.0") || !strings.Contains(string(c), "\nHello there, this is a test.\n") {
		t.Errorf("captions %q (%v)", c, err)
	}
	b, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	h, err := audio.ParseWAVHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if sec := float64(h.DataBytes) / 2 / 24000; h.SampleRate != 24000 || sec < 1 || sec > 5 {
		t.Fatalf("%d Hz, %.2f s", h.SampleRate, sec)
	}
	if !strings.Contains(out, "RTF") {
		t.Errorf("summary missing: %s", out)
	}
}

func TestRealSynthErrorsNameThePathAndTheFix(t *testing.T) {
	a := assets.Resolve(os.Getenv)
	for _, c := range []struct {
		name string
		edit func(*Synth)
		want []string
	}{
		{"no text", func(s *Synth) { s.Text = "" }, []string{"exactly one of --text or --file"}},
		{"model", func(s *Synth) { s.Engine.Assets.Model = "/nope/model.onnx" }, []string{"/nope/model.onnx", "make setup"}},
		{"voices", func(s *Synth) { s.Engine.Assets.Voices = "/nope/voices" }, []string{"/nope/voices", "make setup"}},
		{"lexicon", func(s *Synth) { s.Engine.Assets.Lexicon = "/nope/lexicon" }, []string{"/nope/lexicon", "make setup"}},
	} {
		if c.name != "no text" {
			testenv.Assets(t) // the other assets must exist for the error to be about this one
		}
		s := NewSynth()
		s.Engine.Assets, s.Text = a, "hi"
		c.edit(&s)
		_, err := runSynth(s)
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}

func TestRealSynthUnknownVoiceListsValidOnes(t *testing.T) {
	a := testenv.RealModel(t)
	s := synthJob(a, "hi")
	s.Voice, s.Out = "zz_nobody", filepath.Join(t.TempDir(), "x.wav")
	_, err := runSynth(s)
	if err == nil || !strings.Contains(err.Error(), "af_heart") || !strings.Contains(err.Error(), "zz_nobody") {
		t.Fatalf("err = %v", err)
	}
}

func TestSynthCaptionsNeedAnSRTOrVTTFile(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"": "", "a.srt": "srt", "B.VTT": "vtt"} {
		if got, err := captionFormat(name); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := captionFormat("a.txt"); err == nil {
		t.Error("a .txt file was taken for captions")
	}
}

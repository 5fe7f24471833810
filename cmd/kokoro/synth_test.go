package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

func runKokoro(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestRealSynthWritesPlayableWAV(t *testing.T) {
	a := testenv.RealModel(t)
	wav := filepath.Join(t.TempDir(), "out.wav")
	vtt := filepath.Join(t.TempDir(), "out.vtt")
	out, err := runKokoro(t, "synth", "--text", "Hello there, this is a test.", "--voice", "am_adam",
		"--model", a.Model, "--voices-dir", a.Voices, "--lexicon-dir", a.Lexicon, "--ort-lib", a.ORTLib, "--provider", "cpu", "-o", wav, "--captions", vtt)
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
		args []string
		want []string
	}{
		{"no text", []string{"synth"}, []string{"exactly one of --text or --file"}},
		{"model", []string{"synth", "--text", "hi", "--model", "/nope/model.onnx", "--lexicon-dir", a.Lexicon, "--voices-dir", a.Voices}, []string{"/nope/model.onnx", "make setup"}},
		{"voices", []string{"synth", "--text", "hi", "--voices-dir", "/nope/voices", "--lexicon-dir", a.Lexicon}, []string{"/nope/voices", "make setup"}},
		{"lexicon", []string{"synth", "--text", "hi", "--lexicon-dir", "/nope/lexicon"}, []string{"/nope/lexicon", "make setup"}},
	} {
		if c.name != "no text" {
			testenv.Assets(t) // the other assets must exist for the error to be about this one
		}
		_, err := runKokoro(t, c.args...)
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
	_, err := runKokoro(t, "synth", "--text", "hi", "--voice", "zz_nobody", "--model", a.Model, "--voices-dir", a.Voices,
		"--lexicon-dir", a.Lexicon, "--ort-lib", a.ORTLib, "--provider", "cpu", "-o", filepath.Join(t.TempDir(), "x.wav"))
	if err == nil || !strings.Contains(err.Error(), "af_heart") || !strings.Contains(err.Error(), "zz_nobody") {
		t.Fatalf("err = %v", err)
	}
}

func TestVoicesListsInstalledPacks(t *testing.T) {
	a := testenv.Assets(t)
	out, err := runKokoro(t, "voices", "--voices-dir", a.Voices)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"American English:", "af_heart", "British English:", "bm_george"} {
		if !strings.Contains(out, w) {
			t.Errorf("voices output lacks %q:\n%s", w, out)
		}
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

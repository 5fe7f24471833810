package tts

import (
	"errors"
	"strings"
	"testing"
)

func TestSpeakableRemovesWhatNoVoiceCanSpeak(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want, removed string
	}{
		{"Hello world.", "Hello world.", ""},
		{"Hello 😀 world", "Hello   world", "emoji and symbols"},
		{"Thumbs 👍🏽 up", "Thumbs    up", "emoji and symbols"},
		{"♪ la la ♪", "  la la  ", "emoji and symbols"},
		{"你好世界", "    ", "letters of scripts the voices cannot read"},
		{"Hello 世界!", "Hello   !", "letters of scripts the voices cannot read"},
		{"مرحبا", "     ", "letters of scripts the voices cannot read"},
		{"bad \ufffd byte", "bad   byte", "replacement characters"},
		{"**Bold** and _it_ and ~~old~~", " Bold  and  it  and  old ", "markdown emphasis"},
		{"5 * 3 = 15", "5 * 3 = 15", ""},
		{"café, naïve, α and β", "café, naïve, α and β", ""},
		{"© 2024, 20 °C, № 5", "© 2024, 20 °C, № 5", ""},
		{"# Title\n---\n| a | b |", "# Title\n---\n| a | b |", ""},
		{"hˈɛlO wˈɜɹld ðə kˌɑːɹ", "hˈɛlO wˈɜɹld ðə kˌɑːɹ", ""}, // phonemes keep their stress and length marks
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, removed := speakable(tc.in, "en-us")
			if got != tc.want || removed != tc.removed {
				t.Errorf("speakable(%q) = %q, %q; want %q, %q", tc.in, got, removed, tc.want, tc.removed)
			}
			if again, _ := speakable(got, "en-us"); again != got {
				t.Errorf("speakable is not idempotent on %q: %q", got, again)
			}
		})
	}
}

func TestCheckRefusesTextWithNothingSpeakable(t *testing.T) {
	t.Parallel()
	e := New(Config{}, splitPhonemizer{}, newGatedSynth(1), fakeVoices{})
	defer e.Close()
	for _, text := range []string{"😀😀", "你好世界", "مرحبا بالعالم", "\ufffd", "♪ ♪ ♪", "**"} {
		_, err := e.Check(Request{Text: text})
		if !errors.Is(err, ErrEmptyText) || !strings.Contains(err.Error(), "nothing speakable") {
			t.Errorf("Check(%q) = %v, want ErrEmptyText saying nothing is speakable", text, err)
		}
	}
	req, err := e.Check(Request{Text: "Hello 世界 😀"})
	if err != nil || strings.Fields(req.Text)[0] != "Hello" || len(strings.Fields(req.Text)) != 1 {
		t.Errorf("Check(mixed) = %q, %v; want the English word alone", req.Text, err)
	}
}

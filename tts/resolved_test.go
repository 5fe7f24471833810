package tts

import (
	"errors"
	"testing"
)

// TestAliasesApply: an alias is replaced in a plain name and in each part of a blend, its
// weight kept, whatever the case of the name and the spaces around it; other names are left
// as they are.
func TestAliasesApply(t *testing.T) {
	t.Parallel()
	a := NewAliases(map[string]string{" Alloy ": "af_heart", "echo": " am_adam(2)+af_bella(1) ", "nova": "af_nova"})
	cases := map[string]string{
		"alloy":           "af_heart",
		"ALLOY":           "af_heart",
		"echo":            "am_adam(2)+af_bella(1)",
		"af_bella":        "af_bella",
		"nova(2)+am_adam": "af_nova(2)+am_adam",
		"":                "",
	}
	for in, want := range cases {
		if got := a.apply(in); got != want {
			t.Errorf("apply(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Aliases(nil).apply("alloy"); got != "alloy" {
		t.Errorf("no aliases: apply(alloy) = %q", got)
	}
}

// TestCheckVoiceReadsAliasesAfterTheSpecsForm: the engine's check maps an alias to its voice,
// but refuses a control character first, so that "alloy\n" is not repaired into alloy's voice.
func TestCheckVoiceReadsAliasesAfterTheSpecsForm(t *testing.T) {
	e := New(Config{}, splitPhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	aliases := NewAliases(map[string]string{"alloy": "bf_emma"})
	r, err := e.CheckVoice(Request{Voice: "Alloy", Aliases: aliases})
	if err != nil || r.Voice.Spec != "bf_emma" || r.Lang != "en-gb" {
		t.Errorf("alias: %+v, %v; want bf_emma and its language", r, err)
	}
	var ve *VoiceError
	if _, err := e.CheckVoice(Request{Voice: "alloy\n", Aliases: aliases}); !errors.Is(err, ErrUnknownVoice) || errors.As(err, &ve) {
		t.Errorf("alias with a newline: %v, want ErrUnknownVoice before any lookup", err)
	}
}

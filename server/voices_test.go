package server

import "testing"

func TestVoiceAliases(t *testing.T) {
	t.Parallel()
	m, err := ParseVoiceAliases(" alloy = af_heart , Echo=am_adam(2)+af_bella(1)")
	if err != nil {
		t.Fatal(err)
	}
	a := newVoiceAliases(m)
	cases := map[string]string{
		"alloy":           "af_heart",
		"ALLOY":           "af_heart",
		"echo":            "am_adam(2)+af_bella(1)",
		"nova":            DefaultVoiceAliases["nova"],
		"af_bella":        "af_bella",
		"nova(2)+am_adam": DefaultVoiceAliases["nova"] + "(2)+am_adam",
		"":                "",
	}
	for in, want := range cases {
		if got := a.resolve(in); got != want {
			t.Errorf("resolve(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"alloy", "=af_heart", "alloy="} {
		if _, err := ParseVoiceAliases(bad); err == nil {
			t.Errorf("ParseVoiceAliases(%q) accepted", bad)
		}
	}
	if m, err := ParseVoiceAliases(""); err != nil || len(m) != len(DefaultVoiceAliases) {
		t.Errorf("ParseVoiceAliases(\"\") = %v, %v; want the defaults", m, err)
	}
}

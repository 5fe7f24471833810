package server

import "testing"

func TestVoiceAliases(t *testing.T) {
	t.Parallel()
	m, err := ParseVoiceAliases(" alloy = af_heart , Echo=am_adam(2)+af_bella(1)")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"alloy": "af_heart", "echo": "am_adam(2)+af_bella(1)", "nova": DefaultVoiceAliases["nova"]} {
		if got := m[name]; got != want {
			t.Errorf("alias %q = %q, want %q", name, got, want)
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

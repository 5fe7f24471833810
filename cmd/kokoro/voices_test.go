package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// runKokoro runs the kokoro command line in-process and returns what it printed.
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

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestRealPhonemizeBatch: one phoneme line per input line, blank lines kept in place, the same
// phonemes as one call per text, from a file and from standard input.
func TestRealPhonemizeBatch(t *testing.T) {
	testenv.Assets(t)
	lines := []string{"Hello, world.", "", "They read the record.", "   ", "Kokoro is fast."}
	file := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			want = append(want, "")
			continue
		}
		out, err := runKokoro(t, "phonemize", "--espeak", "off", "--lang", "en-gb", l)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want = append(want, strings.SplitN(out, "\n", 2)[0])
	}
	got, err := runKokoro(t, "phonemize", "--espeak", "off", "--lang", "en-gb", "--batch", file)
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if g, w := got, strings.Join(want, "\n")+"\n"; g != w {
		t.Errorf("batch output\n%q\nwant\n%q", g, w)
	}

	root := newRootCmd()
	var out strings.Builder
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader("Hello, world.\nKokoro is fast."))
	root.SetArgs([]string{"phonemize", "--espeak", "off", "--lang", "en-gb", "--batch", "-"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if g, w := out.String(), want[0]+"\n"+want[4]+"\n"; g != w {
		t.Errorf("standard input: %q, want %q", g, w)
	}

	// --timing: one time in nanoseconds per phonemized line, on standard error only (written
	// at the end, so that no write falls between two timed lines).
	root = newRootCmd()
	var stdout, stderr strings.Builder
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetIn(strings.NewReader("Hello, world.\n\nKokoro is fast.\n"))
	root.SetArgs([]string{"phonemize", "--espeak", "off", "--lang", "en-gb", "--batch", "-", "--timing"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if g, w := stdout.String(), want[0]+"\n\n"+want[4]+"\n"; g != w {
		t.Errorf("--timing output: %q, want %q", g, w)
	}
	times := strings.Fields(stderr.String())
	if len(times) != 2 {
		t.Fatalf("--timing wrote %q, want two times", stderr.String())
	}
	for _, f := range times {
		if ns, err := strconv.ParseInt(f, 10, 64); err != nil || ns <= 0 {
			t.Errorf("--timing wrote %q, want a positive count of nanoseconds", f)
		}
	}
}

func TestPhonemizeArgsErrors(t *testing.T) {
	for _, args := range [][]string{{"phonemize"}, {"phonemize", "--batch", "-", "text"}} {
		if _, err := runKokoro(t, args...); err == nil || !strings.Contains(err.Error(), "--batch") {
			t.Errorf("%v: error %v, want one naming --batch", args, err)
		}
	}
	testenv.Assets(t)
	if _, err := runKokoro(t, "phonemize", "--batch", "/nope/in.txt"); err == nil || !strings.Contains(err.Error(), "/nope/in.txt") {
		t.Errorf("missing batch file: error %v, want one naming the path", err)
	}
}

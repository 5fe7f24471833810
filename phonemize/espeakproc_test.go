package phonemize

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// fakeEspeak writes a stand-in for espeak-ng: a bash script that answers each line of standard
// input (or its last argument, when given text on the command line) with the line in capitals,
// the way espeak-ng answers with phonemes. onLine runs first for every input line, with the
// line in $l and $mode set to "pipe" (the long-lived helper) or "args" (a one-shot process), so
// that a case can hang, crash or answer garbage on cue. It counts its starts in a file beside it.
func fakeEspeak(t *testing.T, onLine string) (bin, starts string) {
	t.Helper()
	dir := t.TempDir()
	starts = filepath.Join(dir, "starts")
	script := `#!/bin/bash
echo start >> "` + starts + `"
answer() { l=$1; ` + onLine + `
  echo "${l^^}"; }
if [ "${@: -2:1}" = "--" ]; then mode=args; answer "${@: -1}"; exit 0; fi
mode=pipe
while IFS= read -r line; do answer "$line"; done
`
	bin = filepath.Join(dir, "espeak-ng")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, starts
}

func countStarts(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "start")
}

// newFakeEspeak bounds an answer at 5 s, far above what a fake's answer takes on a loaded
// machine; the "hang" case sleeps past it.
func newFakeEspeak(bin string) *espeak {
	return &espeak{bin: bin, voice: "en-us", cache: nil,
		proc: &espeakProc{bin: bin, voice: "en-us", timeout: 5 * time.Second}}
}

// TestEspeakHelperFailures drives the long-lived helper through a fake espeak-ng that hangs,
// crashes, answers garbage or an answer cut short, and checks that every word still gets its
// answer (the failing one from one-shot processes) and that the helper restarts afterwards.
func TestEspeakHelperFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, word string
		onLine     string // bash run per input line; see fakeEspeak
	}{
		{"hang", "stuck", `[[ $mode == pipe && $l == "stuck zebra" ]] && sleep 30;`},
		{"crash", "boom", `[[ $mode == pipe && $l == "boom zebra" ]] && exit 3;`},
		{"garbage", "junk", `[[ $mode == pipe && $l == "junk zebra" ]] && { echo '@@@'; return; };`},
		{"cut-short", "short", `[[ $mode == pipe && $l == "short zebra" ]] && { echo 'SHORT'; return; };`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bin, starts := fakeEspeak(t, c.onLine)
			e := newFakeEspeak(bin)
			defer e.proc.Close()
			for _, w := range []string{"warm", c.word, "after"} {
				if got, ok := e.run(w); !ok || got != strings.ToUpper(w) {
					t.Errorf("run(%q) = %q, %v; want %q", w, got, ok, strings.ToUpper(w))
				}
			}
			// The helper (1 start) fails on the word, which is then read by one-shot processes
			// (2: the marker alone, then the text); the next word restarts the helper (1).
			if n := countStarts(t, starts); n != 4 {
				t.Errorf("%d espeak-ng starts, want 4 (helper, one-shot marker and text, restarted helper)", n)
			}
			if e.proc.broken {
				t.Error("a failure of a running helper marked it broken for good")
			}
		})
	}
}

// TestEspeakHelperBrokenStart: a binary that cannot answer at start marks the helper broken, and
// every word is then read by a one-shot process.
func TestEspeakHelperBrokenStart(t *testing.T) {
	t.Parallel()
	// Reading standard input ends the process at once; command-line text is answered.
	bin, starts := fakeEspeak(t, `[[ $mode == pipe ]] && exit 1;`)
	e := newFakeEspeak(bin)
	defer e.proc.Close()
	for _, w := range []string{"one", "two"} {
		if got, ok := e.run(w); !ok || got != strings.ToUpper(w) {
			t.Errorf("run(%q) = %q, %v", w, got, ok)
		}
	}
	if !e.proc.broken {
		t.Error("helper that failed to start not marked broken")
	}
	// 1 failed helper start, then 2 one-shot processes per word.
	if n := countStarts(t, starts); n != 5 {
		t.Errorf("%d espeak-ng starts, want 5", n)
	}
}

// TestEspeakHelperRestart: after Close the helper starts again on the next word.
func TestEspeakHelperRestart(t *testing.T) {
	t.Parallel()
	bin, starts := fakeEspeak(t, ``)
	e := newFakeEspeak(bin)
	for i, w := range []string{"one", "two", "three"} {
		if got, ok := e.run(w); !ok || got != strings.ToUpper(w) {
			t.Errorf("run(%q) = %q, %v", w, got, ok)
		}
		if i == 1 {
			e.proc.Close()
		}
	}
	e.proc.Close()
	if n := countStarts(t, starts); n != 2 {
		t.Errorf("%d espeak-ng starts, want 2 (one helper, restarted once after Close)", n)
	}
}

func TestCutMarker(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"sənt zˈiːbɹə", "sənt", true},
		{"  kwˈɑkə   zˈiːbɹə ", "kwˈɑkə", true},
		{"zˈiːbɹə", "", true},
		{"sənt", "", false},
		{"səntzˈiːbɹə", "", false},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := cutMarker(c.in, "zˈiːbɹə")
			if (err == nil) != c.ok || got != c.want {
				t.Errorf("cutMarker(%q) = %q, %v; want %q ok=%v", c.in, got, err, c.want, c.ok)
			}
		})
	}
}

// requireEspeak returns the shared phonemizer when it found espeak-ng. Without espeak-ng the
// test fails under `make test` (KOKORO_REQUIRE_ASSETS=1), which installs it, and skips
// elsewhere with a message naming the setup step.
func requireEspeak(t *testing.T) *Phonemizer {
	t.Helper()
	p := testPhonemizer(t)
	if p.EspeakPath() == "" {
		if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
			t.Fatal("espeak-ng not found on PATH: `make setup` installs it (apt-get install espeak-ng)")
		}
		t.Skip("espeak-ng not installed: run `make setup`")
	}
	return p
}

// TestRealEspeakMatchesReference reads the unknown words of the corpora through espeak-ng and
// compares the result with misaki's espeak-ng fallback output for the same words
// (testdata/misaki_espeak_words.tsv, whose header names the espeak-ng the reference loaded).
func TestRealEspeakMatchesReference(t *testing.T) {
	p := requireEspeak(t)
	t.Parallel()
	out, err := exec.Command(p.EspeakPath(), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("espeak-ng here: %s", strings.TrimSpace(string(out)))
	rows := loadCorpus(t, "misaki_espeak_words.tsv")
	if len(rows) < 300 {
		t.Fatalf("%d reference words, want at least 300", len(rows))
	}
	// Both call paths: the library (espeak-ng found on PATH) and the binary (named by path).
	cli, err := New(Config{LexiconDir: testenv.Assets(t).Lexicon, Espeak: p.EspeakPath()})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if !p.espeakLib && os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
		t.Errorf("espeak-ng's library %s did not load", espeakLibName)
	}
	// Both voices through the library: a voice it cannot select would send every word of
	// that dialect to the binary, whose stress differs, while this test still passed.
	for _, v := range []string{"en-us", "en-gb"} {
		if _, err := espeakLibPhonemes(v, "there"); p.espeakLib && err != nil {
			t.Errorf("espeak-ng's library cannot read with voice %s: %v", v, err)
		}
	}
	for _, ph := range []*Phonemizer{p, cli} {
		path := "binary"
		if ph.espeakLib {
			path = "library"
		}
		bad := 0
		for _, r := range rows {
			e := ph.usEspeak
			if r.lang == "en-gb" {
				e = ph.gbEspeak
			}
			got, _ := e.phonemize(r.text)
			if got != r.want {
				bad++
				t.Errorf("%s %s %q: espeak-ng gives %q, reference %q", path, r.lang, r.text, got, r.want)
			}
		}
		t.Logf("espeak-ng %s: %d of %d unknown words read as the reference reads them", path, len(rows)-bad, len(rows))
	}
}

// TestEspeakHelperBatch: several texts answered in one exchange, in order, by one process, also
// when they are more than one write's worth; prefetched words are then served from the cache.
func TestEspeakHelperBatch(t *testing.T) {
	t.Parallel()
	bin, starts := fakeEspeak(t, ``)
	e := newFakeEspeak(bin)
	e.cache = map[string]string{}
	defer e.proc.Close()
	var texts []string
	for i := range 400 {
		texts = append(texts, strings.Repeat("w", 5+i%30)+string(rune('a'+i%26)))
	}
	got, err := e.proc.readMany(texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if g != strings.ToUpper(texts[i]) {
			t.Fatalf("answer %d = %q, want %q", i, g, strings.ToUpper(texts[i]))
		}
	}
	e.prefetch([]string{"alpha", "beta, gamma", "alpha"})
	for _, w := range []string{"alpha", "beta, gamma"} {
		if ps, ok := e.cached(w); !ok || ps != e.mapIPA(strings.ToUpper(w)) {
			t.Errorf("prefetched %q: cache has %q, %v", w, ps, ok)
		}
	}
	if n := countStarts(t, starts); n != 1 {
		t.Errorf("%d espeak-ng starts, want 1", n)
	}
}

package espeak

import (
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// newFakeVoice bounds an answer at 5 s, far above what a fake's answer takes on a loaded
// machine; the "hang" case sleeps past it.
func newFakeVoice(bin string) *Voice {
	return &Voice{name: "en-us", proc: &process{bin: bin, voice: "en-us", timeout: 5 * time.Second}}
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
			bin, starts := corpus.FakeEspeak(t, c.onLine)
			e := newFakeVoice(bin)
			defer e.Close()
			for _, w := range []string{"warm", c.word, "after"} {
				if got, ok := e.Read(w); !ok || got != strings.ToUpper(w) {
					t.Errorf("Read(%q) = %q, %v; want %q", w, got, ok, strings.ToUpper(w))
				}
			}
			// The helper (1 start) fails on the word, which is then read by one-shot processes
			// (2: the marker alone, then the text); the next word restarts the helper (1).
			if n := corpus.CountStarts(t, starts); n != 4 {
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
	bin, starts := corpus.FakeEspeak(t, `[[ $mode == pipe ]] && exit 1;`)
	e := newFakeVoice(bin)
	defer e.Close()
	for _, w := range []string{"one", "two"} {
		if got, ok := e.Read(w); !ok || got != strings.ToUpper(w) {
			t.Errorf("Read(%q) = %q, %v", w, got, ok)
		}
	}
	if !e.proc.broken {
		t.Error("helper that failed to start not marked broken")
	}
	// 1 failed helper start, then 2 one-shot processes per word.
	if n := corpus.CountStarts(t, starts); n != 5 {
		t.Errorf("%d espeak-ng starts, want 5", n)
	}
}

// TestEspeakHelperRestart: after Close the helper starts again on the next word.
func TestEspeakHelperRestart(t *testing.T) {
	t.Parallel()
	bin, starts := corpus.FakeEspeak(t, ``)
	e := newFakeVoice(bin)
	for i, w := range []string{"one", "two", "three"} {
		if got, ok := e.Read(w); !ok || got != strings.ToUpper(w) {
			t.Errorf("Read(%q) = %q, %v", w, got, ok)
		}
		if i == 1 {
			e.Close()
		}
	}
	e.Close()
	if n := corpus.CountStarts(t, starts); n != 2 {
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

// TestOneShotReadsEnglishVoices: the process started for one text, the last fallback, answers
// in both English voices.
func TestOneShotReadsEnglishVoices(t *testing.T) {
	t.Parallel()
	in, err := Locate("")
	if err != nil {
		t.Fatal(err)
	}
	corpus.RequireEspeak(t, in.Bin)
	for _, v := range []string{"en-us", "en-gb"} {
		if ps, ok := in.Voice(v).proc.readOnce("quokka"); !ok || ps == "" {
			t.Errorf("one-shot espeak-ng in %s: %q, %v", v, ps, ok)
		}
	}
}

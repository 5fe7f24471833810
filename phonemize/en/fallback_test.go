package en

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize/espeak"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// TestRealEspeakMatchesReference reads the unknown words of the corpora through espeak-ng and
// compares the result with misaki's espeak-ng fallback output for the same words
// (testdata/misaki_espeak_words.tsv, whose header names the espeak-ng the reference loaded).
func TestRealEspeakMatchesReference(t *testing.T) {
	p := requireEspeak(t)
	_, in := shared.get(t, "")
	t.Parallel()
	out, err := exec.Command(in.Bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("espeak-ng here: %s", strings.TrimSpace(string(out)))
	rows := loadCorpus(t, "misaki_espeak_words.tsv")
	if len(rows) < 300 {
		t.Fatalf("%d reference words, want at least 300", len(rows))
	}
	// Both call paths: the library (espeak-ng found on PATH) and the binary (named by path).
	cli, cliIn, err := newG2PFor(t, in.Bin)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if !in.Library && os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
		t.Error("espeak-ng's library did not load")
	}
	for _, run := range []struct {
		ph *G2P
		in espeak.Install
	}{{p, in}, {cli, cliIn}} {
		ph := run.ph
		path := "binary"
		if run.in.Library {
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
	bin, starts := corpus.FakeEspeak(t, ``)
	e := &espeakFallback{voice: espeak.Install{Bin: bin}.Voice("en-us"), cache: map[string]string{}}
	defer e.voice.Close()
	var texts []string
	for i := range 400 {
		texts = append(texts, strings.Repeat("w", 5+i%30)+string(rune('a'+i%26)))
	}
	got, err := e.voice.ReadMany(texts)
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
	if n := corpus.CountStarts(t, starts); n != 1 {
		t.Errorf("%d espeak-ng starts, want 1", n)
	}
}

//go:build cgo

package espeak

import (
	"os"
	"sync"
	"testing"
)

// requireLibrary fails the test under `make test` (KOKORO_REQUIRE_ASSETS=1) when espeak-ng's
// library does not load, and skips it elsewhere.
func requireLibrary(t testing.TB) {
	t.Helper()
	if err := openLib(); err != nil {
		if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
			t.Fatalf("espeak-ng's library: %v; `make setup` installs it (apt-get install espeak-ng)", err)
		}
		t.Skipf("espeak-ng's library: %v: run `make setup`", err)
	}
}

// TestLibraryReadsEnglishVoices: both English voices are read through the library. A voice it
// cannot select would send every word of that dialect to the binary, whose stress differs,
// while the English G2P's checks against the reference still passed.
func TestLibraryReadsEnglishVoices(t *testing.T) {
	t.Parallel()
	requireLibrary(t)
	for _, v := range []string{"en-us", "en-gb"} {
		if ps, err := libPhonemes(v, "there"); err != nil || ps == "" {
			t.Errorf("espeak-ng's library reads %q with voice %s: %q, %v", "there", v, ps, err)
		}
	}
}

// TestEspeakVoicesAlternate reads Spanish after French and after Portuguese, alternately, as a
// server speaking several languages does: every answer is the one the voice gives alone, and
// nothing crashes (espeak-ng 1.51 did, once in three runs of 20,000 reads, before its calls got
// a filled pad of stack above them: kv_phonemes).
func TestEspeakVoicesAlternate(t *testing.T) {
	requireLibrary(t)
	texts := [][2]string{
		{"roa/fr", "Bonjour, comment allez-vous ?"},
		{"roa/es", "Mañana por la mañana vamos a visitar a nuestros amigos"},
		{"roa/pt-BR", "Olá, tudo bem? Hoje faz sol em São Paulo."},
		{"roa/es", "Mañana por la mañana vamos a visitar a nuestros amigos"},
		{"en-us", "hello there"},
	}
	want := make([]string, len(texts))
	for i, c := range texts {
		ps, err := libRaw(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = ps
	}
	n := 20000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		c := texts[i%len(texts)]
		ps, err := libRaw(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		if ps != want[i%len(texts)] {
			t.Fatalf("%s %q: %q after %d reads, %q alone", c[0], c[1], ps, i, want[i%len(texts)])
		}
	}
}

// TestEspeakVoicesConcurrently reads eight texts in seven voices, each text in every voice,
// from sixteen goroutines at once, as a server does under load, the voices' copies of the
// library loaded by the first reads: nothing crashes (with zeros above its frames instead of
// spaces, espeak-ng 1.51's scan for a space ran off the stack of a Go thread, in utf8_in, about
// one run in four under the race detector), and every answer is the one the voice gives alone.
func TestEspeakVoicesConcurrently(t *testing.T) {
	t.Parallel()
	voices := []string{"en-us", "en-gb", "roa/es", "roa/fr", "roa/it", "roa/pt-BR", "inc/hi"}
	texts := []string{"Hello there, how are you today?", "Mañana por la mañana vamos a visitar",
		"Bonjour, je m'appelle Claude.", "Il gatto è sul tavolo.", "Olá, tudo bem?", "नमस्ते दुनिया",
		"St. Louis", "x"}
	if err := openLib(); err != nil {
		t.Fatal(err) // make setup installs espeak-ng; under make test it is there
	}
	n := 400
	if testing.Short() {
		n = 50
	}
	var mu sync.Mutex
	got := map[[2]string]map[string]bool{}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				v, text := voices[(g+i)%len(voices)], texts[(g*7+i)%len(texts)]
				ps, err := libRaw(v, text)
				if err != nil {
					t.Error(err)
					return
				}
				k := [2]string{v, text}
				mu.Lock()
				if got[k] == nil {
					got[k] = map[string]bool{}
				}
				got[k][ps] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for k, answers := range got {
		alone, err := libRaw(k[0], k[1])
		if err != nil {
			t.Fatal(err)
		}
		for ps := range answers {
			if ps != alone {
				t.Errorf("%s %q: %q read concurrently, %q alone", k[0], k[1], ps, alone)
			}
		}
	}
}

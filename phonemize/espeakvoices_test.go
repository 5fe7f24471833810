//go:build cgo

package phonemize

import (
	"sync"
	"testing"
)

// TestEspeakVoicesAlternate reads Spanish after French and after Portuguese, alternately, as a
// server speaking several languages does: every answer is the one the voice gives alone, and
// nothing crashes (espeak-ng 1.51 did, once in three runs of 20,000 reads, before its calls got
// a filled pad of stack above them: kv_phonemes).
func TestEspeakVoicesAlternate(t *testing.T) {
	langPhonemizer(t)
	texts := [][2]string{
		{"roa/fr", "Bonjour, comment allez-vous ?"},
		{"roa/es", "Mañana por la mañana vamos a visitar a nuestros amigos"},
		{"roa/pt-BR", "Olá, tudo bem? Hoje faz sol em São Paulo."},
		{"roa/es", "Mañana por la mañana vamos a visitar a nuestros amigos"},
		{"en-us", "hello there"},
	}
	want := make([]string, len(texts))
	for i, c := range texts {
		ps, err := espeakLibRaw(c[0], c[1])
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
		ps, err := espeakLibRaw(c[0], c[1])
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
	if err := openEspeakLib(); err != nil {
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
				ps, err := espeakLibRaw(v, text)
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
		alone, err := espeakLibRaw(k[0], k[1])
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

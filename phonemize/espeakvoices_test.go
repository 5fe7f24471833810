//go:build cgo

package phonemize

import "testing"

// TestEspeakVoicesAlternate reads Spanish after French and after Portuguese, alternately, as a
// server speaking several languages does: every answer is the one the voice gives alone, and
// nothing crashes (espeak-ng 1.51 did, once in three runs of 20,000 reads, before its calls got
// zeroed stack above them: kv_phonemes).
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

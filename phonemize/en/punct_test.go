package en

import (
	"reflect"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// TestTokenizeJoinsPunctuationSpecials: punctuation pieces that together spell one of the
// reference tokenizer's special cases are one token, as the reference's tokenizer leaves them
// (outputs of spaCy 3.8 with en_core_web_sm 3.8.0).
func TestTokenizeJoinsPunctuationSpecials(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"(June 2017): named", []string{"(", "June", "2017", "):", "named"}},
		{"f(x):", []string{"f(x", "):"}},
		{"(x)):", []string{"(", "x", ")", "):"}},
		{"a (:b", []string{"a", "(:", "b"}},
		{"(1):)", []string{"(", "1", "):", ")"}},
		{"see (x);)", []string{"see", "(", "x", ")", ";)"}},
		{"x ) : y", []string{"x", ")", ":", "y"}},
		{"[x]:", []string{"[", "x", "]", ":"}},
		{"call foo(); then", []string{"call", "foo", "(", ")", ";", "then"}},
		{"done :) ok", []string{"done", ":)", "ok"}},
	} {
		t.Run(c.in, func(t *testing.T) {
			var got []string
			for _, tk := range tokenize(c.in) {
				got = append(got, tk.text)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("tokenize(%q) = %q, reference %q", c.in, got, c.want)
			}
		})
	}
}

// TestPunctuationAsReference: sentences whose punctuation the reference reads in a way of its
// own, with misaki 0.9.4's output for each (US), read with the built-in fallback alone.
func TestPunctuationAsReference(t *testing.T) {
	t.Parallel()
	p := offlinePhonemizer(t)
	expectReadings(t, p, []reading{
		// A bracket and a colon written together are one token, read as the colon alone.
		{"Stretch (June 2017): named for the toy.", "stɹˈɛʧ (ʤˈun twˈɛnti sˌɛvəntˈin: nˈAmd fɔɹ ðə tˈY."},
		{"Wheezy (May 2013): named for the rubber toy penguin with a red bow tie.", "wˈizi (mˈA twˈɛnti θˌɜɹtˈin: nˈAmd fɔɹ ðə ɹˈʌbəɹ tˈY pˈɛŋɡwᵊn wɪð ɐ ɹˈɛd bˈO tˈI."},
		// A word in single quotes keeps both quotes; 'n' is a conjunction.
		{"Press the letter 'a' here.", "pɹˈɛs ðə lˈɛTəɹ “ɐ” hˈɪɹ."},
		{"I love rock 'n' roll music.", "ˌI lˈʌv ɹˈɑk ən ɹˈOl mjˈuzɪk."},
		// A backquote before a word opens a quotation.
		{"New option `auto-save-interval' controls how often files are saved.", "nˈu ˈɑpʃən “ˌɔTOsˈAvˈɪntəɹvᵊl” kəntɹˈOlz hˌW ˈɔfᵊn fˈIlz ɑɹ sˈAvd."},
		// A weak word alone between marks, written against its neighbours, is read as the
		// reference's espeak-ng call reads it alone: without a primary stress.
		{`He said—"you must go."`, `hˌi sˈɛd—"ju mˈʌst ɡˌO.”`},
		{`She came with—"no, not that."`, `ʃˌi kˈAm wɪð—"nˈO, nˌɑt ðˈæt.”`},
		{"Go on, sir,—quickly.", "ɡˌO ˌɔn, sˌɜɹ,—kwˈɪkli."},
		// An opening square bracket written against the next word is untagged, and the
		// reference keeps it as written (the model has no id for it, so the ids are the same);
		// followed by a space it is tagged a bracket and read "(". A closing one is ")".
		{"See the notes [in the book] for more.", "sˈi ðə nˈOts [ˈɪn ðə bˈʊk) fɔɹ mˈɔɹ."},
		{"Use the [ command here.", "jˈuz ðə ( kəmˈænd hˈɪɹ."},
		{"[ The maker ] has a fondness for cats.", "( ðə mˈAkəɹ ) hæz ɐ fˈɑndnəs fɔɹ kˈæts."},
		{"Open the [[ test, then close it.", "ˈOpᵊn ðə [( tˈɛst, ðˈɛn klˈOz ɪt."},
		// The period of "etc." ends the text: kept; within the sentence it is part of the word.
		{"Bring snacks, drinks, etc.", "bɹˈɪŋ snˈæks, dɹˈɪŋks, ɛtsˈɛTəɹə."},
		{"Bring snacks, drinks, etc. to the picnic.", "bɹˈɪŋ snˈæks, dɹˈɪŋks, ɛtsˈɛTəɹə tə ðə pˈɪknˌɪk."},
	})
}

// reading is a text and the phonemes the reference gives it in US English.
type reading struct{ in, want string }

// expectReadings checks that p reads each text in US English as the reference does.
func expectReadings(t *testing.T, p *G2P, cases []reading) {
	t.Helper()
	for _, c := range cases {
		t.Run(corpus.CaseName(c.in), func(t *testing.T) {
			got, err := p.Phonemize(c.in, "en-us")
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("Phonemize(%q)\n got  %s\n want %s", c.in, got, c.want)
			}
		})
	}
}

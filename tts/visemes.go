package tts

import "strings"

// Speech mark types, as Amazon Polly names them.
const (
	MarkWord     = "word"
	MarkSentence = "sentence"
	MarkSSML     = "ssml"
	MarkViseme   = "viseme"
)

// MarkTypes lists the speech mark types, in Polly's order.
var MarkTypes = []string{MarkSentence, MarkWord, MarkViseme, MarkSSML}

// visemeOf maps Kokoro's phoneme symbols to Amazon Polly's English visemes (its en-US
// phoneme and viseme table): p for the lips closed (p b m), f for lip and teeth (f v), T for
// the tongue between the teeth (θ ð), t for the tongue on the ridge (t d n l and the flap),
// s (s z), S for the rounded post-alveolars (ʃ ʒ ʧ ʤ), k for the back of the mouth (k ɡ ŋ h),
// r (ɹ), and for the vowels a (æ ɑ a and the diphthongs aɪ aʊ), e (eɪ e), E (ɛ ɜ ʌ), i (i ɪ
// and j), o (oʊ o), O (ɔ ɒ ɔɪ), u (u ʊ and w), @ (ə ɚ ɐ ᵊ). Kokoro writes the diphthongs as
// one symbol each: A is eɪ, I aɪ, W aʊ, Y ɔɪ, O oʊ, Q əʊ. Symbols with no mouth shape of
// their own (stress, length) have none.
var visemeOf = map[rune]string{
	'p': "p", 'b': "p", 'm': "p",
	'f': "f", 'v': "f",
	'θ': "T", 'ð': "T",
	't': "t", 'd': "t", 'n': "t", 'l': "t", 'T': "t", 'ɾ': "t", 'ɫ': "t",
	's': "s", 'z': "s",
	'ʃ': "S", 'ʒ': "S", 'ʧ': "S", 'ʤ': "S", 'ɕ': "S", 'ʑ': "S",
	'k': "k", 'ɡ': "k", 'g': "k", 'ŋ': "k", 'h': "k", 'x': "k", 'ɣ': "k", 'χ': "k", 'ʔ': "k",
	'ɹ': "r", 'r': "r", 'ʁ': "r",
	'æ': "a", 'ɑ': "a", 'a': "a", 'I': "a", 'W': "a",
	'A': "e", 'e': "e",
	'ɛ': "E", 'ɜ': "E", 'ʌ': "E",
	'i': "i", 'ɪ': "i", 'j': "i", 'y': "i", 'ʝ': "i",
	'O': "o", 'o': "o", 'Q': "o",
	'ɔ': "O", 'ɒ': "O", 'Y': "O",
	'u': "u", 'ʊ': "u", 'w': "u", 'ɯ': "u",
	'ə': "@", 'ɚ': "@", 'ɐ': "@", 'ᵊ': "@",
}

// visemes are the visemes of phonemes, in order, a run of the same one kept once.
func visemes(phonemes string) []string {
	var out []string
	for _, r := range phonemes {
		v, ok := visemeOf[r]
		if !ok || len(out) > 0 && out[len(out)-1] == v {
			continue
		}
		out = append(out, v)
	}
	return out
}

// wordPhonemes splits a chunk's phonemes into its words': the white-space separated runs
// that have a viseme, one per spoken word when they are as many; ok is false when they are
// not (a number read as several words), and the caller spreads them over the words together.
func wordPhonemes(phonemes string, words int) ([]string, bool) {
	var out []string
	for _, f := range strings.Fields(phonemes) {
		if len(visemes(f)) > 0 {
			out = append(out, f)
		}
	}
	return out, len(out) == words
}

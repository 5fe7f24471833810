package markup

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// xsampa maps X-SAMPA symbols to IPA, longest first where one is a prefix of another.
var xsampa = []struct{ x, ipa string }{
	{`r\`, "ɹ"}, {`h\`, "ɦ"}, {`j\`, "ʝ"}, {`R\`, "ʀ"}, {`@\`, "ɘ"}, {`3\`, "ɞ"}, {`?\`, "ʕ"},
	{"@`", "ɚ"}, {"3`", "ɝ"}, {"r`", "ɽ"}, {"n`", "ɳ"}, {"t`", "ʈ"}, {"d`", "ɖ"},
	{"A", "ɑ"}, {"{", "æ"}, {"6", "ɐ"}, {"Q", "ɒ"}, {"E", "ɛ"}, {"@", "ə"}, {"3", "ɜ"},
	{"I", "ɪ"}, {"O", "ɔ"}, {"2", "ø"}, {"9", "œ"}, {"U", "ʊ"}, {"}", "ʉ"}, {"V", "ʌ"},
	{"Y", "ʏ"}, {"B", "β"}, {"C", "ç"}, {"D", "ð"}, {"G", "ɣ"}, {"H", "ɥ"}, {"J", "ɲ"},
	{"L", "ʎ"}, {"M", "ɯ"}, {"N", "ŋ"}, {"P", "ʋ"}, {"R", "ʁ"}, {"S", "ʃ"}, {"T", "θ"},
	{"W", "ʍ"}, {"X", "χ"}, {"Z", "ʒ"}, {"?", "ʔ"}, {`"`, "ˈ"}, {"%", "ˌ"}, {":", "ː"},
	{"4", "ɾ"}, {"5", "ɫ"}, {"7", "ɤ"}, {"8", "ɵ"}, {"1", "ɨ"}, {"g", "ɡ"}, {"=", ""},
	{".", ""}, {" ", " "},
}

// xsampaToIPA converts X-SAMPA to IPA; a symbol with no IPA equivalent here is an error.
func xsampaToIPA(s string) (string, error) {
	var b strings.Builder
next:
	for i := 0; i < len(s); {
		for _, m := range xsampa {
			if strings.HasPrefix(s[i:], m.x) {
				b.WriteString(m.ipa)
				i += len(m.x)
				continue next
			}
		}
		c := s[i]
		if c >= 'a' && c <= 'z' {
			b.WriteByte(c)
			i++
			continue
		}
		return "", fmt.Errorf("<phoneme alphabet=\"x-sampa\" ph=%q>: %q at byte %d is not an X-SAMPA symbol this reader knows", clip(s), c, i)
	}
	return b.String(), nil
}

// ipaToKokoro rewrites IPA into Kokoro's symbols, longest first: Kokoro writes the English
// diphthongs and affricates as one symbol each (misaki's set: A for eɪ, I for aɪ, W for aʊ,
// Y for ɔɪ, O for oʊ, Q for əʊ, ʤ and ʧ), r-coloured vowels as a vowel and ɹ, and has no
// tie bars, syllable marks or length on diphthongs.
var ipaToKokoro = []struct{ ipa, k string }{
	{"d͡ʒ", "ʤ"}, {"t͡ʃ", "ʧ"}, {"dʒ", "ʤ"}, {"tʃ", "ʧ"},
	{"eɪ", "A"}, {"aɪ", "I"}, {"aʊ", "W"}, {"ɔɪ", "Y"}, {"oʊ", "O"}, {"əʊ", "Q"},
	{"ɝ", "ɜɹ"}, {"ɚ", "əɹ"}, {"r", "ɹ"}, {"g", "ɡ"}, {"ɫ", "l"}, {"e", "A"}, {"o", "O"},
	{"\u0361", ""}, {"\u035c", ""}, {".", ""}, {"'", "ˈ"}, {",", "ˌ"},
}

// phonemesOf turns a <phoneme ph> in alphabet ("ipa" when empty) into Kokoro's phonemes. A
// symbol outside Kokoro's set once converted is an error naming it: the model cannot say it.
func phonemesOf(ph, alphabet string) (string, error) {
	s := strings.TrimSpace(ph)
	if s == "" {
		return "", fmt.Errorf("<phoneme ph> is empty")
	}
	if alphabet == "x-sampa" {
		var err error
		if s, err = xsampaToIPA(s); err != nil {
			return "", err
		}
	}
	var b strings.Builder
next:
	for i := 0; i < len(s); {
		for _, m := range ipaToKokoro {
			if strings.HasPrefix(s[i:], m.ipa) {
				b.WriteString(m.k)
				i += len(m.ipa)
				continue next
			}
		}
		r, size := firstRune(s[i:])
		if r == ' ' {
			b.WriteByte(' ')
		} else if !phonemize.InVocab(r) || r == '/' || r == '(' || r == ')' || r == '[' || r == ']' {
			return "", fmt.Errorf("<phoneme ph=%q>: %q is not a symbol Kokoro speaks", clip(ph), r)
		} else {
			b.WriteRune(r)
		}
		i += size
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if out == "" {
		return "", fmt.Errorf("<phoneme ph=%q> has no symbol Kokoro speaks", clip(ph))
	}
	return out, nil
}

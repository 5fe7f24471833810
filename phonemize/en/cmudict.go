package en

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// cmuDict is the CMU Pronouncing Dictionary: lower-case word → its first pronunciation in
// ARPAbet with stress digits ("K W AA1 K AH0"). It is the built-in fallback's third lexicon
// tier, after misaki's gold and silver lexicons, for hosts without espeak-ng.
type cmuDict map[string]string

func loadCMU(path string) (cmuDict, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("pronunciation dictionary %s not found: run `make setup` or set KOKORO_LEXICON: %w", path, err)
		}
		return nil, fmt.Errorf("read pronunciation dictionary %s: %w", path, err)
	}
	d := make(cmuDict, 140000)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		word, phones, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || word == "" {
			if strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("pronunciation dictionary %s line %d: no phones", path, n)
			}
			continue
		}
		if strings.HasSuffix(word, ")") {
			continue // a variant: "word(2)"; the first pronunciation is kept
		}
		d[word] = strings.TrimSpace(phones)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read pronunciation dictionary %s: %w", path, err)
	}
	return d, nil
}

// arpaVowels maps ARPAbet vowels to Kokoro's symbols: [US, GB]. ER and the vowels before R are
// handled apart, since British English drops an R that no vowel follows.
var arpaVowels = map[string][2]string{
	"AA": {"ɑ", "ɒ"}, "AE": {"æ", "a"}, "AH": {"ʌ", "ʌ"}, "AO": {"ɔ", "ɔː"}, "AW": {"W", "W"},
	"AY": {"I", "I"}, "EH": {"ɛ", "ɛ"}, "EY": {"A", "A"}, "IH": {"ɪ", "ɪ"}, "IY": {"i", "iː"},
	"OW": {"O", "Q"}, "OY": {"Y", "Y"}, "UH": {"ʊ", "ʊ"}, "UW": {"u", "uː"}, "ER": {"ɜɹ", "ɜː"},
}

var arpaConsonants = map[string]string{
	"B": "b", "CH": "ʧ", "D": "d", "DH": "ð", "F": "f", "G": "ɡ", "HH": "h", "JH": "ʤ", "K": "k",
	"L": "l", "M": "m", "N": "n", "NG": "ŋ", "P": "p", "R": "ɹ", "S": "s", "SH": "ʃ", "T": "t",
	"TH": "θ", "V": "v", "W": "w", "Y": "j", "Z": "z", "ZH": "ʒ",
}

// gbBeforeR gives the British vowel that a vowel and a following R (with no vowel after it)
// merge into: car, more, near, hair, poor.
// The square and near vowels are those of espeak-ng as the reference maps them (e^ə → Aə, i^ə
// → iə), not the lexicon's ɛː and ɪə: the fallback stands in for espeak-ng.
var gbBeforeR = map[string]string{"AA": "ɑː", "AO": "ɔː", "IH": "iə", "IY": "iə", "EH": "Aə",
	"EY": "Aə", "UH": "ʊə", "UW": "ʊə", "AY": "Iə", "AW": "Wə", "OW": "ɔː", "AE": "ɑː"}

type arpa struct {
	ph     string // phone without stress
	stress byte   // '0', '1', '2', or 0 for a consonant
}

func parseArpa(s string) []arpa {
	f := strings.Fields(s)
	out := make([]arpa, len(f))
	for i, p := range f {
		if n := len(p); n > 1 && p[n-1] >= '0' && p[n-1] <= '2' {
			out[i] = arpa{p[:n-1], p[n-1]}
		} else {
			out[i] = arpa{p, 0}
		}
	}
	return out
}

// arpaToKokoro converts one ARPAbet pronunciation to Kokoro's phonemes the way the reference
// reads words it does not know (espeak-ng, mapped to Kokoro's symbols): stress marks just before
// the stressed vowel and none after the primary stress, unstressed AH as ə (ᵊl in a final -al,
// -le), unstressed IH as ɪ (ᵻ in an American -ed, -es), an American t between a vowel (or r) and an
// unstressed vowel flapped, and, in British English, no r that no vowel follows.
func arpaToKokoro(pron string, british bool) string {
	ps := parseArpa(pron)
	d := 0
	if british {
		d = 1
	}
	isV := func(i int) bool { return i >= 0 && i < len(ps) && ps[i].stress != 0 }
	isC := func(i int) bool { return i >= 0 && i < len(ps) && ps[i].stress == 0 }
	last := len(ps) - 1
	seenPrimary := false
	var b strings.Builder
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if p.stress == 0 {
			c, ok := arpaConsonants[p.ph]
			if !ok {
				continue
			}
			switch {
			case p.ph == "R" && british && !isV(i+1):
				continue // non-rhotic: the r is silent unless a vowel follows
			case p.ph == "T" && !british && i > 0 && (isV(i-1) || ps[i-1].ph == "R") && isV(i+1) && ps[i+1].stress == '0':
				c = "ɾ"
			}
			b.WriteString(c)
			continue
		}
		marked := true
		switch {
		case p.ph == "IY" && p.stress == '2' && seenPrimary && isV(i+1):
			// An i after the primary stress and before another vowel is unstressed and short
			// in espeak-ng (Debian: dˈɛbiən, not dˈɛbˌiːən).
			marked = false
		case p.stress == '1' && !seenPrimary:
			b.WriteRune(primary)
			seenPrimary = true
		case p.stress == '1', p.stress == '2':
			// A secondary stress after the primary stays where an unstressed syllable parts
			// them (organize: ˈɔɹɡənˌIz); demoteClash drops the others.
			b.WriteRune(secondary)
		default:
			marked = false
		}
		v := arpaVowels[p.ph][d]
		switch {
		case p.ph == "AH" && p.stress == '0' && isC(i-1) && i+1 <= last && ps[i+1].ph == "L" && (i+1 == last || isC(i+2)):
			v = "ᵊ"
		case p.ph == "AH" && p.stress == '0' && i+2 <= last && ps[i+1].ph == "F" && ps[i+2].ph == "AY":
			v = "ᵻ" // -ify: ratified ɹˈæɾᵻfˌId, British ɹˈatɪfˌId
			if british {
				v = "ɪ"
			}
		case p.ph == "AH" && p.stress == '0', p.ph == "AA" && p.stress == '0' && i == last:
			v = "ə"
		case p.ph == "ER" && p.stress == '0':
			v = "əɹ"
			if british && !isV(i+1) {
				v = "ə"
			}
		case p.ph == "ER" && british && isV(i+1):
			v = "ɜːɹ"
		case p.ph == "IH" && p.stress == '0' && !british && i+1 == last && (ps[last].ph == "D" || ps[last].ph == "Z"):
			v = "ᵻ"
		case p.ph == "IY" && !marked && british:
			v = "i" // happY, Harriet: an unstressed i is short
		case british && i+1 < len(ps) && ps[i+1].ph == "R" && !isV(i+2) && gbBeforeR[p.ph] != "":
			v = gbBeforeR[p.ph]
			i++ // the r is part of the vowel
		}
		b.WriteString(v)
	}
	return b.String()
}

// lookup reads a word from the dictionary, "" when it is not there.
func (d cmuDict) lookup(word string, british bool) string {
	if word == "" {
		return ""
	}
	lw := strings.ToLower(word)
	pron, ok := d[lw]
	if !ok {
		return ""
	}
	ps := arpaToKokoro(marryVowel(lw, pron), british)
	if british && !strings.ContainsAny(lw, "w") && !longO.MatchString(lw) {
		// The dictionary's AO where the spelling has a plain o (or a before ll) is the short
		// British ɒ: Von, Rudolph, Wallis; au, aw, al, oa, ou and or keep ɔː.
		ps = strings.ReplaceAll(ps, "ɔː", "ɒ")
	}
	return ps
}

// longO: spellings that British English reads with ɔː.
var longO = regexp.MustCompile(`au|aw|al[^l]|al$|oa|ou|or|ar|ough|augh|oor|our`)

var (
	arpaEHR   = regexp.MustCompile(`\bEH([012]) R ([A-Z]+[012])`)
	spelledAR = regexp.MustCompile(`(?:^|[^aeiou])ar(?:r|[aeiou])`)
)

// marryVowel undoes the dictionary's American merger of the vowels of marry and merry where the
// spelling has a before r and a vowel (Harriet, Larry, Carol), which espeak-ng reads æ (British
// a); -ary (Mary) and -arah (Sarah) keep ɛ.
func marryVowel(w, pron string) string {
	if len(arpaEHR.FindAllStringIndex(pron, -1)) != 1 || len(spelledAR.FindAllStringIndex(w, -1)) != 1 ||
		strings.HasSuffix(w, "ary") || strings.Contains(w, "arah") || strings.Contains(w, "er") {
		return pron
	}
	return arpaEHR.ReplaceAllString(pron, "AE$1 R $2")
}

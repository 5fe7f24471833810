package ja

import "strings"

// Numbers are read in kana as misaki's num2kana reads them (Convert with hiragana): up to nine
// digits, leading zeros dropped, 300 さんびゃく, 600 ろっぴゃく, 800 はっぴゃく, 3000 さんぜん,
// 8000 はっせん, 1000 せん alone and いっせん before まん, 万 まん and 億 おく; a longer number is
// the reference's message for it, which is then read as text.

var kanaDigits = map[string]string{
	"0": "ゼロ", "1": "いち", "2": "に", "3": "さん", "4": "よん", "5": "ご", "6": "ろく", "7": "なな",
	"8": "はち", "9": "きゅう", "10": "じゅう", "100": "ひゃく", "1000": "せん", "10000": "まん",
	"100000000": "おく", "300": "さんびゃく", "600": "ろっぴゃく", "800": "はっぴゃく",
	"3000": "さんぜん", "8000": "はっせん", "01000": "いっせん",
}

// tooLong is what the reference reads for a number of ten digits or more.
const tooLong = "Number length too long, choose less than 10 digits"

// numberKana reads a run of ASCII digits in hiragana.
func numberKana(n string) string {
	if len(n) > 9 {
		return tooLong
	}
	for len(n) > 1 && n[0] == '0' {
		n = n[1:]
	}
	var out string
	switch len(n) {
	case 1:
		out = kanaDigits[n]
	case 2:
		out = two(n)
	case 3:
		out = three(n)
	case 4:
		out = four(n, true)
	default:
		out = manOku(n)
	}
	return strings.ReplaceAll(out, " ", "")
}

func two(n string) string {
	switch {
	case n[0] == '0':
		return kanaDigits[n[1:]]
	case n == "10":
		return kanaDigits["10"]
	case n[0] == '1':
		return kanaDigits["10"] + kanaDigits[n[1:]]
	case n[1] == '0':
		return kanaDigits[n[:1]] + kanaDigits["10"]
	}
	return kanaDigits[n[:1]] + kanaDigits["10"] + kanaDigits[n[1:]]
}

func three(n string) string {
	var out string
	switch n[0] {
	case '1':
		out = kanaDigits["100"]
	case '3':
		out = kanaDigits["300"]
	case '6':
		out = kanaDigits["600"]
	case '8':
		out = kanaDigits["800"]
	default:
		out = kanaDigits[n[:1]] + kanaDigits["100"]
	}
	switch {
	case n[1:] == "00":
	case n[1] == '0':
		out += kanaDigits[n[2:3]]
	default:
		out += two(n[1:])
	}
	return out
}

// four reads four digits; alone says whether they are the whole number (1000 せん) or the
// part of a larger one (いっせん).
func four(n string, alone bool) string {
	if n == "0000" {
		return ""
	}
	for n[0] == '0' {
		n = n[1:]
	}
	switch len(n) {
	case 1:
		return kanaDigits[n]
	case 2:
		return two(n)
	case 3:
		return three(n)
	}
	var out string
	switch {
	case n[0] == '1' && alone:
		out = kanaDigits["1000"]
	case n[0] == '1':
		out = kanaDigits["01000"]
	case n[0] == '3':
		out = kanaDigits["3000"]
	case n[0] == '8':
		out = kanaDigits["8000"]
	default:
		out = kanaDigits[n[:1]] + kanaDigits["1000"]
	}
	switch {
	case n[1:] == "000":
	case n[1] == '0':
		out += two(n[2:])
	default:
		out += three(n[1:])
	}
	return out
}

// manOku reads five to nine digits: the part above the last four with まん (and おく).
func manOku(n string) string {
	head := n[:len(n)-4]
	var out string
	switch len(head) {
	case 1:
		out = kanaDigits[head] + kanaDigits["10000"]
	case 2:
		out = two(head) + kanaDigits["10000"]
	case 3:
		out = three(head) + kanaDigits["10000"]
	case 4:
		out = four(head, false) + kanaDigits["10000"]
	case 5:
		out = kanaDigits[n[:1]] + kanaDigits["100000000"] + four(n[1:5], false)
		if n[1:5] != "0000" {
			out += kanaDigits["10000"]
		}
	}
	return out + four(n[len(n)-4:], false)
}

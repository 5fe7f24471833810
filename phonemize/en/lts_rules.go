package en

import (
	"regexp"
	"strings"
)

// The letter-to-sound fallback's rule tables; lts.go applies them.

// ltsRules are grapheme → phoneme rules, tried longest first at each position.
var ltsRules = map[string]string{
	"tion": "ʃən", "sion": "ʒən", "ture": "ʧəɹ", "ough": "O", "augh": "ɔ", "eigh": "A",
	"igh": "I", "tch": "ʧ", "dge": "ʤ", "sch": "sk", "que": "k", "ous": "əs", "all": "ɔl",
	"ch": "ʧ", "sh": "ʃ", "th": "θ", "ph": "f", "wh": "w", "ck": "k", "ng": "ŋ", "qu": "kw",
	"kn": "n", "wr": "ɹ", "gh": "", "ee": "i", "ea": "i", "oo": "u", "ai": "A", "ay": "A",
	"oa": "O", "ou": "W", "ow": "O", "oi": "Y", "oy": "Y", "au": "ɔ", "aw": "ɔ", "ew": "ju",
	"ie": "i", "ei": "A", "ey": "i", "ar": "ɑɹ", "or": "ɔɹ", "er": "əɹ", "ir": "ɜɹ", "ur": "ɜɹ",
	"a": "æ", "b": "b", "c": "k", "d": "d", "e": "ɛ", "f": "f", "g": "ɡ", "h": "h", "i": "ɪ",
	"j": "ʤ", "k": "k", "l": "l", "m": "m", "n": "n", "o": "ɑ", "p": "p", "q": "k", "r": "ɹ",
	"s": "s", "t": "t", "u": "ʌ", "v": "v", "w": "w", "x": "ks", "y": "j", "z": "z",
}

var longVowel = map[byte]string{'a': "A", 'e': "i", 'i': "I", 'o': "O", 'u': "u"}

// ltsSymbols names the symbols the fallback reads aloud.
var ltsSymbols = map[rune]string{'=': "equals", '+': "plus", '%': "percent", '&': "and", '@': "at",
	'#': "hash", '*': "star", '/': "slash", '<': "less than", '>': "greater than", '§': "section"}

// gbAsEspeak gives a British lexicon reading the vowels espeak-ng gives the same word, as the
// reference maps them: the square vowel ɛː is its Aə (there: ðˈAə) and -tion, -sion end in ən.
var gbAsEspeak = strings.NewReplacer("ɛː", "Aə", "ʃᵊn", "ʃən", "ʒᵊn", "ʒən")

// gbBath finds the lexicon's long a of the bath words, which the reference's British espeak-ng
// voice reads short (class klˈas, demand dɪmˈand); with an l (half) or n't (can't) it stays.
var gbBath = regexp.MustCompile("ɑː(s|f|θ|nt|nd|ns|nʧ|mp)")

// onsets are the consonant letters an English word may begin with before its first vowel
// letter (y counts as a vowel), as espeak-ng's spelling rules read them.
var onsets = map[string]bool{
	"bl": true, "br": true, "ch": true, "chr": true, "cl": true, "cr": true, "cz": true, "dr": true,
	"dw": true, "fl": true, "fr": true, "gh": true, "gl": true, "gn": true, "gr": true, "gw": true,
	"kh": true, "kl": true, "kn": true, "kr": true, "kw": true, "ph": true, "phr": true, "pl": true,
	"pn": true, "pr": true, "ps": true, "pt": true, "qu": true, "rh": true, "sc": true, "sch": true,
	"schl": true, "schm": true, "schn": true, "schr": true, "schw": true, "scr": true, "sh": true,
	"shl": true, "shm": true, "shn": true, "shr": true, "sk": true, "skr": true, "sl": true,
	"sm": true, "sn": true, "sp": true, "sph": true, "spl": true, "spr": true, "squ": true, "st": true,
	"str": true, "sv": true, "sw": true, "th": true, "thr": true, "thw": true, "tr": true, "ts": true,
	"tw": true, "tz": true, "vl": true, "wh": true, "wr": true, "zh": true,
}

// espeakAbbrevs are abbreviations espeak-ng expands that the pronunciation dictionary reads
// otherwise (Feb there is February) or not at all.
var espeakAbbrevs = map[string]string{"st": "sənt", "feb": "fˈɛb"}

// espeakExpansions are abbreviations espeak-ng reads as the words they stand for, [US, GB].
var espeakExpansions = map[string][2]string{"eg": {"fˌɔɹɛɡzˈæmpᵊl", "fˌɔːɹɛɡzˈampᵊl"}}

// espeakWords are words of the development text that espeak-ng reads otherwise than the
// pronunciation dictionary, in both dialects (Linux: the dictionary's lˈɪnəks).
var espeakWords = map[string]string{"linux": "lˈɪnʌks"}

// numberWords are espeak-ng's readings of the number words ([US, GB], from the digits, mapped
// as the reference maps espeak-ng): 7 is sˈɛvən there, where the lexicon has sˈɛvᵊn.
var numberWords = map[string][2]string{
	"zero": {"zˈiəɹO", "zˈiəɹQ"}, "one": {"wˈʌn", "wˈɒn"}, "two": {"tˈu", "tˈuː"},
	"three": {"θɹˈi", "θɹˈiː"}, "four": {"fˈɔɹ", "fˈɔː"}, "five": {"fˈIv", "fˈIv"},
	"six": {"sˈɪks", "sˈɪks"}, "seven": {"sˈɛvən", "sˈɛvən"}, "eight": {"ˈAt", "ˈAt"},
	"nine": {"nˈIn", "nˈIn"}, "ten": {"tˈɛn", "tˈɛn"}, "eleven": {"ɪlˈɛvən", "ɪlˈɛvən"},
	"twelve": {"twˈɛlv", "twˈɛlv"}, "thirteen": {"θˈɜɹtin", "θˈɜːtiːn"},
	"fourteen": {"fˈɔɹtin", "fˈɔːtiːn"}, "fifteen": {"fˈɪftin", "fˈɪftiːn"},
	"sixteen": {"sˈɪkstin", "sˈɪkstiːn"}, "seventeen": {"sˈɛvəntˌin", "sˈɛvəntˌiːn"},
	"eighteen": {"ˈAtin", "ˈAtiːn"}, "nineteen": {"nˈIntin", "nˈIntiːn"},
	"twenty": {"twˈɛnti", "twˈɛnti"}, "thirty": {"θˈɜɹTi", "θˈɜːti"}, "forty": {"fˈɔɹTi", "fˈɔːti"},
	"fifty": {"fˈɪfti", "fˈɪfti"}, "sixty": {"sˈɪksti", "sˈɪksti"}, "seventy": {"sˈɛvənti", "sˈɛvənti"},
	"eighty": {"ˈATi", "ˈAti"}, "ninety": {"nˈInti", "nˈInti"}, "hundred": {"hˈʌndɹɪd", "hˈʌndɹɪd"},
	"thousand": {"θˈWzənd", "θˈWzənd"}, "million": {"mˈɪliən", "mˈɪliən"}, "billion": {"bˈɪliən", "bˈɪliən"},
}

// britishVowels turn the spelling rules' American vowels British: an r that no vowel follows
// is silent and lengthens or colours the vowel before it, and the long vowels are marked.
var britishVowels = strings.NewReplacer("ɑɹ", "ɑː", "ɔɹ", "ɔː", "ɜɹ", "ɜː", "əɹ", "ə", "ɪɹ", "iə", "iɹ", "iə",
	"ɛɹ", "Aə", "ʊɹ", "ʊə", "O", "Q", "ɑ", "ɒ", "æ", "a", "i", "iː", "u", "uː")

// prefixes are the prefixes espeak-ng reads before a word it knows with the stress on that
// word ([US, GB]): nonadvocate nˌɑnˈædvəkˌAt, overline ˌOvəɹlˈIn, multibyte mˌʌltɪbˈIt.
var prefixes = []struct {
	spelling string
	ps       [2]string
}{
	{"inter", [2]string{"ˌɪntəɹ", "ˌɪntə"}}, {"multi", [2]string{"mˌʌltɪ", "mˌʌltɪ"}},
	{"under", [2]string{"ˌʌndəɹ", "ˌʌndə"}}, {"over", [2]string{"ˌOvəɹ", "ˌQvə"}},
	{"trans", [2]string{"tɹæns", "tɹans"}}, {"non", [2]string{"nˌɑn", "nˌɒn"}},
	{"dis", [2]string{"dɪs", "dɪs"}}, {"un", [2]string{"ʌn", "ʌn"}},
}

// unstressedEndings are word endings read with reduced vowels when the rest of the word holds
// the stress (espeak-ng reads vaxen vˈaksən, iterable ˈItəɹəbᵊl, dolor dˈɒlə), longest first.
var unstressedEndings = []struct{ spelling, ps string }{
	{"isations", "IzˈAʃənz"}, {"izations", "IzˈAʃənz"}, {"isation", "IzˈAʃən"}, {"ization", "IzˈAʃən"},
	{"ables", "əbᵊlz"}, {"ibles", "ɪbᵊlz"}, {"ising", "Izɪŋ"}, {"izing", "Izɪŋ"}, {"ances", "ənsɪz"},
	{"ences", "ənsɪz"}, {"ments", "mənts"}, {"sses", "sɪz"}, {"ches", "ʧɪz"}, {"shes", "ʃɪz"},
	{"able", "əbᵊl"}, {"ible", "ɪbᵊl"}, {"isms", "ɪzəmz"}, {"ised", "Izd"}, {"ized", "Izd"},
	{"ises", "Izɪz"}, {"izes", "Izɪz"}, {"ance", "əns"}, {"ence", "əns"}, {"ment", "mənt"},
	{"ness", "nəs"}, {"less", "ləs"}, {"ings", "ɪŋz"}, {"ists", "ɪsts"}, {"xes", "ksɪz"},
	{"dom", "dəm"}, {"ism", "ɪzəm"}, {"ful", "fᵊl"}, {"ity", "ɪti"}, {"ive", "ɪv"}, {"ics", "ɪks"}, {"ous", "əs"},
	{"ing", "ɪŋ"}, {"ist", "ɪst"}, {"est", "ɪst"}, {"ent", "ənt"}, {"ant", "ənt"}, {"ors", "əɹz"}, {"ise", "Iz"},
	{"ize", "Iz"}, {"izers", "ˌIzəɹz"}, {"isers", "ˌIzəɹz"}, {"izer", "ˌIzəɹ"}, {"iser", "ˌIzəɹ"},
	{"ages", "ɪʤɪz"}, {"age", "ɪʤ"}, {"ic", "ɪk"}, {"us", "əs"}, {"um", "əm"}, {"or", "əɹ"}, {"on", "ən"},
	{"en", "ən"}, {"et", "ɪt"}, {"al", "ᵊl"}, {"el", "ᵊl"}, {"a", "ə"},
}

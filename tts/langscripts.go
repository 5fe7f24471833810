package tts

import "unicode"

// langScripts are the scripts each language reads besides those every voice reads
// (readableScripts): Hindi's Devanagari, and the Han characters and kana of Mandarin and
// Japanese. Their letters are speech in that language and noise in any other.
var langScripts = map[string][]*unicode.RangeTable{
	"hi": {unicode.Devanagari},
	"zh": {unicode.Han},
	"ja": {unicode.Han, unicode.Hiragana, unicode.Katakana},
}

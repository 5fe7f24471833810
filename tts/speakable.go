package tts

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a voice cannot speak. Every voice reads through the English phonemizer, which spells out
// what it does not know: an emoji becomes its character name ("grinning face"), each Chinese or
// Arabic letter "Chinese letter", "Arabic meem", a replacement character something stranger, and
// markdown emphasis "asterisk asterisk". A listener expects none of that, so Check removes it
// before the text is phonemized; text with nothing left is refused as empty.

// readableScripts are the scripts the English phonemizer reads as words: Latin, and Greek,
// whose letters it reads by name (α is "alpha"), as a formula is read aloud; and the letters
// that belong to no one script, such as the modifier letters of phonetic notation (the stress
// marks ˈ ˌ and the length mark ː of a phoneme string are letters of the Common script).
var readableScripts = []*unicode.RangeTable{unicode.Latin, unicode.Greek, unicode.Common, unicode.Inherited}

// unspeakable reports a rune that is removed, and the kind it is for the error message;
// scripts are the language's own scripts, read besides readableScripts (langScripts).
func unspeakable(r rune, scripts []*unicode.RangeTable) (kind string, drop bool) {
	switch {
	case r == utf8.RuneError:
		return "replacement characters", true
	case r == '\u200d' || unicode.Is(unicode.Variation_Selector, r) ||
		(r >= 0x1F3FB && r <= 0x1F3FF) || (r >= 0xE0020 && r <= 0xE007F):
		// Emoji joiners, presentation selectors, skin tones and flag tags: parts of an emoji.
		return "emoji and symbols", true
	case unicode.Is(unicode.So, r) && r >= 0x2190:
		// Arrows, technical and box-drawing symbols, dingbats, music, emoji. The symbols
		// below U+2190 (©, ®, °, ™, №) are read as words, as a listener expects.
		return "emoji and symbols", true
	case unicode.IsLetter(r) && !slices.ContainsFunc(readableScripts, func(t *unicode.RangeTable) bool { return unicode.Is(t, r) }) &&
		!slices.ContainsFunc(scripts, func(t *unicode.RangeTable) bool { return unicode.Is(t, r) }):
		return "letters of scripts the voices cannot read", true
	}
	return "", false
}

// emphasis is a markdown emphasis or strike-through marker.
func emphasis(r rune) bool { return r == '*' || r == '_' || r == '~' }

// speakable returns text with what no voice of lang can speak replaced by spaces, and what was removed
// ("" when nothing was). A run of emphasis markers touching a word ("**bold**", "_it_",
// "~~old~~"), or of two or more ("***", a rule), is removed as markdown; one standing alone
// between spaces ("5 * 3") is kept.
func speakable(text, lang string) (string, string) {
	scripts := langScripts[lang]
	var b strings.Builder
	var kinds []string
	runes := []rune(text)
	changed := false
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if emphasis(r) {
			j := i
			for j < len(runes) && runes[j] == r {
				j++
			}
			before := i > 0 && !unicode.IsSpace(runes[i-1])
			after := j < len(runes) && !unicode.IsSpace(runes[j])
			if before || after || j-i > 1 {
				b.WriteByte(' ')
				changed = true
				if !slices.Contains(kinds, "markdown emphasis") {
					kinds = append(kinds, "markdown emphasis")
				}
			} else {
				b.WriteString(string(runes[i:j]))
			}
			i = j - 1
			continue
		}
		if kind, drop := unspeakable(r, scripts); drop {
			b.WriteByte(' ')
			changed = true
			if !slices.Contains(kinds, kind) {
				kinds = append(kinds, kind)
			}
			continue
		}
		b.WriteRune(r)
	}
	if !changed {
		return text, ""
	}
	return b.String(), strings.Join(kinds, ", ")
}

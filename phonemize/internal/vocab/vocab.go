// Package vocab is Kokoro v1.0's phoneme vocabulary, which every reader of package phonemize
// writes in: the symbols, their model ids, and the tests made on them.
package vocab

// vocab is Kokoro v1.0's phoneme vocabulary (config.json "vocab", n_token 178): 114 symbols.
// Id 0 is the pad that also marks the start and the end of every model input.
var vocab = map[rune]int64{
	';': 1, ':': 2, ',': 3, '.': 4, '!': 5, '?': 6, '—': 9, '…': 10, '"': 11, '(': 12, ')': 13,
	'“': 14, '”': 15, ' ': 16, '\u0303': 17, 'ʣ': 18, 'ʥ': 19, 'ʦ': 20, 'ʨ': 21, 'ᵝ': 22, 'ꭧ': 23,
	'A': 24, 'I': 25, 'O': 31, 'Q': 33, 'S': 35, 'T': 36, 'W': 39, 'Y': 41, 'ᵊ': 42,
	'a': 43, 'b': 44, 'c': 45, 'd': 46, 'e': 47, 'f': 48, 'h': 50, 'i': 51, 'j': 52, 'k': 53,
	'l': 54, 'm': 55, 'n': 56, 'o': 57, 'p': 58, 'q': 59, 'r': 60, 's': 61, 't': 62, 'u': 63,
	'v': 64, 'w': 65, 'x': 66, 'y': 67, 'z': 68,
	'ɑ': 69, 'ɐ': 70, 'ɒ': 71, 'æ': 72, 'β': 75, 'ɔ': 76, 'ɕ': 77, 'ç': 78, 'ɖ': 80, 'ð': 81,
	'ʤ': 82, 'ə': 83, 'ɚ': 85, 'ɛ': 86, 'ɜ': 87, 'ɟ': 90, 'ɡ': 92, 'ɥ': 99, 'ɨ': 101, 'ɪ': 102,
	'ʝ': 103, 'ɯ': 110, 'ɰ': 111, 'ŋ': 112, 'ɳ': 113, 'ɲ': 114, 'ɴ': 115, 'ø': 116, 'ɸ': 118,
	'θ': 119, 'œ': 120, 'ɹ': 123, 'ɾ': 125, 'ɻ': 126, 'ʁ': 128, 'ɽ': 129, 'ʂ': 130, 'ʃ': 131,
	'ʈ': 132, 'ʧ': 133, 'ʊ': 135, 'ʋ': 136, 'ʌ': 138, 'ɣ': 139, 'ɤ': 140, 'χ': 142, 'ʎ': 143,
	'ʒ': 147, 'ʔ': 148, 'ˈ': 156, 'ˌ': 157, 'ː': 158, 'ʰ': 162, 'ʲ': 164, '↓': 169, '→': 171,
	'↗': 172, '↘': 173, 'ᵻ': 177,
}

// vocabSet holds the vocabulary's symbols as bits, for the tests made on every rune of the
// output (all the symbols are in the Basic Multilingual Plane).
var vocabSet = func() (set [1 << 16 / 64]uint64) {
	for r := range vocab {
		set[r/64] |= 1 << (r % 64)
	}
	return set
}()

// Contains reports whether r is a vocabulary symbol.
func Contains(r rune) bool {
	return r >= 0 && r < 1<<16 && vocabSet[r/64]&(1<<(r%64)) != 0
}

// NumTokens is the size of the model's token embedding (ids are in [0, NumTokens)).
const NumTokens = 178

// ID returns the vocabulary id of a phoneme symbol.
func ID(r rune) (int64, bool) {
	id, ok := vocab[r]
	return id, ok
}

// Symbol returns the phoneme symbol of a vocabulary id.
func Symbol(id int64) (rune, bool) {
	if id < 0 || id >= int64(len(symbols)) || symbols[id] == 0 {
		return 0, false
	}
	return symbols[id], true
}

var symbols = func() []rune {
	s := make([]rune, NumTokens)
	for r, id := range vocab {
		s[id] = r
	}
	return s
}()

// Silent reports whether id is punctuation or the space between words: symbols the model
// makes pauses of, where every other id is a sound of speech.
func Silent(id int64) bool { return id >= vocab[';'] && id <= SpaceID }

// SpaceID is the vocabulary id of the space between two words.
var SpaceID = vocab[' ']

// Tokenize maps phonemes to vocabulary ids, skipping symbols outside the vocabulary.
func Tokenize(phonemes string) []int64 {
	ids := make([]int64, 0, len(phonemes))
	for _, r := range phonemes {
		if id, ok := vocab[r]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}

package zh

// hasPinyin reports a character pypinyin reads (its RE_HANS class): 〇, the CJK ideographs of
// the basic block, extension A, the compatibility blocks, the supplementary planes' extensions
// and a private-use range pypinyin's dictionary covers.
func hasPinyin(r rune) bool {
	switch {
	case r == 0x3007, r >= 0xE815 && r <= 0xE864, r == 0xFA18,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xF900 && r <= 0xFAFF,
		r >= 0x20000 && r <= 0x2A6DF, r >= 0x2A703 && r <= 0x2B73F, r >= 0x2B740 && r <= 0x2B81D,
		r >= 0x2B825 && r <= 0x2BF6E, r >= 0x2C029 && r <= 0x2CE93, r == 0x2D016,
		r >= 0x2D11B && r <= 0x2EBD9, r >= 0x2F80A && r <= 0x2FA1F, r >= 0x30000 && r <= 0x3134A,
		r >= 0x31350 && r <= 0x32389:
		return true
	}
	return false
}

// syllables reads a word as pypinyin's lazy_pinyin does: cut into runs of characters it reads
// and the rest, each run cut into phrases by forward maximum matching on its phrase
// dictionary (segPhrases), each phrase read from that dictionary, else each character by its
// first reading. A character with no reading, or text pypinyin does not read, is returned as
// it is.
func (d *dicts) syllables(word string) []string {
	var out []string
	rs := []rune(word)
	for i := 0; i < len(rs); {
		j := i + 1
		han := hasPinyin(rs[i])
		for j < len(rs) && hasPinyin(rs[j]) == han {
			j++
		}
		if !han {
			out = append(out, string(rs[i:j]))
		} else {
			for _, ph := range d.segPhrases(rs[i:j]) {
				if pys, ok := d.phrases[string(ph)]; ok {
					out = append(out, pys...)
					continue
				}
				for _, r := range ph {
					if py, ok := d.charPinyin[r]; ok {
						out = append(out, py)
					} else {
						out = append(out, string(r))
					}
				}
			}
		}
		i = j
	}
	return out
}

// segPhrases is pypinyin's mmseg cut with no_non_phrases: the longest phrase of the dictionary
// at each point (the search stops at the first string no phrase begins with), else one
// character; a rest that only begins phrases is cut into characters.
func (d *dicts) segPhrases(text []rune) [][]rune {
	var out [][]rune
	remain := text
	for len(remain) > 0 {
		valid := 0 // length of the longest phrase found
		stopped := false
		for i := range remain {
			w := string(remain[:i+1])
			if !hasPrefix(d.phraseKeys, w) {
				if valid > 0 {
					out = append(out, remain[:valid])
					remain = remain[valid:]
				} else {
					out = append(out, remain[:1])
					remain = remain[1:]
				}
				stopped = true
				break
			}
			if _, ok := d.phrases[w]; ok {
				valid = i + 1
			}
		}
		if stopped {
			continue
		}
		if valid > 0 {
			out = append(out, remain[:valid])
			remain = remain[valid:]
			continue
		}
		if _, ok := d.phrases[string(remain)]; !ok {
			for i := range remain {
				out = append(out, remain[i:i+1])
			}
		} else {
			out = append(out, remain)
		}
		break
	}
	return out
}

// isHan is the reference's test for Chinese text to read: U+4E00 to U+9FFF.
func isHan(r rune) bool { return r >= 0x4E00 && r <= 0x9FFF }

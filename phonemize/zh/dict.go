package zh

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Files are the dictionary files Load reads from its directory, as `make setup` writes them.
var Files = []string{"jieba_dict.txt", "jieba_hmm.json", "pinyin_dict.json", "phrases_dict.json"}

// dicts holds the reference's data: jieba's word frequencies and HMM, pypinyin's character and
// phrase readings.
type dicts struct {
	freq  map[string]int // jieba: word → frequency
	total float64        // jieba: sum of the frequencies
	words []string       // jieba: the words, sorted, for prefix queries
	hmm   hmm

	charPinyin map[rune]string     // pypinyin: a character's first reading
	phrases    map[string][]string // pypinyin: a phrase's readings, one per character
	phraseKeys []string            // the phrases, sorted, for prefix queries
}

// load reads the four files from dir.
func load(dir string) (*dicts, error) {
	d := &dicts{}
	if err := d.loadJieba(filepath.Join(dir, "jieba_dict.txt")); err != nil {
		return nil, err
	}
	if err := readJSON(filepath.Join(dir, "jieba_hmm.json"), &d.hmm); err != nil {
		return nil, err
	}
	var chars map[string]string
	if err := readJSON(filepath.Join(dir, "pinyin_dict.json"), &chars); err != nil {
		return nil, err
	}
	d.charPinyin = make(map[rune]string, len(chars))
	for k, v := range chars {
		code, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("pinyin_dict.json: key %q: %w", k, err)
		}
		first, _, _ := strings.Cut(v, ",")
		d.charPinyin[rune(code)] = first
	}
	var phrases map[string][][]string
	if err := readJSON(filepath.Join(dir, "phrases_dict.json"), &phrases); err != nil {
		return nil, err
	}
	d.phrases = make(map[string][]string, len(phrases))
	for k, v := range phrases {
		pys := make([]string, len(v))
		for i, alts := range v {
			if len(alts) > 0 {
				pys[i] = alts[0]
			}
		}
		d.phrases[k] = pys
		d.phraseKeys = append(d.phraseKeys, k)
	}
	sort.Strings(d.phraseKeys)
	return d, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("mandarin dictionary: %w (run `make setup`)", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// loadJieba reads jieba's dictionary: "word frequency [tag]" a line.
func (d *dicts) loadJieba(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("mandarin dictionary: %w (run `make setup`)", err)
	}
	defer f.Close()
	d.freq = make(map[string]int, 360_000)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		parts := strings.Split(line, " ")
		if len(parts) < 2 {
			return fmt.Errorf("%s:%d: want word and frequency: %q", path, n, line)
		}
		freq, err := strconv.Atoi(parts[1])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if _, dup := d.freq[parts[0]]; !dup {
			d.words = append(d.words, parts[0])
		}
		d.freq[parts[0]] = freq
		d.total += float64(freq)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	sort.Strings(d.words)
	return nil
}

// hasPrefix reports whether some string of sorted begins with p.
func hasPrefix(sorted []string, p string) bool {
	i := sort.SearchStrings(sorted, p)
	return i < len(sorted) && strings.HasPrefix(sorted[i], p)
}

package en

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// entry is one lexicon headword: either a single pronunciation or one per part of speech.
// A POS key may map to "no pronunciation" (JSON null), which means the word must be spelled
// out as a proper noun for that tag; absent reports that.
type entry struct {
	ps  string
	pos map[string]posPron // nil for plain entries
}

type posPron struct {
	ps     string
	absent bool
}

// lexicon is one dialect's gold and silver dictionaries, read-only after load.
type lexicon struct {
	british bool
	gold    map[string]entry
	silver  map[string]entry
}

func loadLexicon(dir string, british bool) (*lexicon, error) {
	prefix := "us"
	if british {
		prefix = "gb"
	}
	lx := &lexicon{british: british}
	var err error
	if lx.gold, err = loadDict(filepath.Join(dir, prefix+"_gold.json")); err != nil {
		return nil, err
	}
	if lx.silver, err = loadDict(filepath.Join(dir, prefix+"_silver.json")); err != nil {
		return nil, err
	}
	return lx, nil
}

func loadDict(path string) (map[string]entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("lexicon file %s not found: run `make setup` or set KOKORO_LEXICON: %w", path, err)
		}
		return nil, fmt.Errorf("read lexicon %s: %w", path, err)
	}
	d, err := parseDict(string(b))
	if errors.Is(err, errUnusualJSON) {
		d, err = decodeDict(b)
	}
	if err != nil {
		return nil, fmt.Errorf("parse lexicon %s: %w", path, err)
	}
	grow(d)
	return d, nil
}

// decodeDict is the general (slower) reader for files the fast scanner does not accept.
func decodeDict(b []byte) (map[string]entry, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	d := make(map[string]entry, len(raw)*3/2)
	for k, v := range raw {
		e, err := parseEntry(v)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", k, err)
		}
		d[k] = e
	}
	return d, nil
}

func parseEntry(v json.RawMessage) (entry, error) {
	if len(v) > 0 && v[0] == '"' {
		var s string
		err := json.Unmarshal(v, &s)
		return entry{ps: s}, err
	}
	var m map[string]*string
	if err := json.Unmarshal(v, &m); err != nil {
		return entry{}, err
	}
	e := entry{pos: make(map[string]posPron, len(m))}
	for tag, p := range m {
		if p == nil {
			e.pos[tag] = posPron{absent: true}
		} else {
			e.pos[tag] = posPron{ps: *p}
		}
	}
	if _, ok := e.pos["DEFAULT"]; !ok {
		return entry{}, errors.New("POS entry without DEFAULT")
	}
	return e, nil
}

// grow adds case variants the reference adds: a lower-case headword is also reachable
// capitalized, and a capitalized one also in lower case, without overriding real entries.
func grow(d map[string]entry) {
	type pair struct {
		k string
		v entry
	}
	add := make([]pair, 0, len(d))
	for k, v := range d {
		if utf8.RuneCountInString(k) < 2 {
			continue
		}
		lower := strings.ToLower(k)
		if k == lower {
			if c := capitalize(k); c != k {
				add = append(add, pair{c, v})
			}
		} else if k == capitalize(lower) {
			add = append(add, pair{lower, v})
		}
	}
	for _, p := range add {
		if _, ok := d[p.k]; !ok {
			d[p.k] = p.v
		}
	}
}

// capitalize upper-cases the first rune and lower-cases the rest, like Python's str.capitalize.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + strings.ToLower(s[n:])
}

// has reports whether a word is a gold or silver headword.
func (lx *lexicon) has(w string) bool {
	if _, ok := lx.gold[w]; ok {
		return true
	}
	_, ok := lx.silver[w]
	return ok
}

// Package assets resolves where kokoro's runtime files live: the ONNX Runtime library, the
// model, the voice packs and the lexicons. Resolution is a pure function of an environment
// lookup so that callers (the CLI, tests) decide where values come from.
package assets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Paths names every runtime file kokoro needs.
type Paths struct {
	Dir     string // the assets directory the defaults were taken from
	ORTLib  string // libonnxruntime.so
	Model   string // the .onnx model
	Voices  string // directory of voice packs
	Lexicon string // directory of lexicon JSON files
}

// Resolve fills Paths from the environment (KOKORO_ASSETS, KOKORO_MODEL, KOKORO_VOICES,
// KOKORO_LEXICON, KOKORO_ORT_LIB), defaulting to an assets/ directory found in the working
// directory, one of its parents, or beside the executable.
func Resolve(getenv func(string) string) Paths {
	dir := getenv("KOKORO_ASSETS")
	if dir == "" {
		dir = findDir()
	}
	p := Paths{
		Dir:     dir,
		ORTLib:  filepath.Join(dir, "lib", "libonnxruntime.so.1"),
		Model:   filepath.Join(dir, "model", "model.onnx"),
		Voices:  filepath.Join(dir, "voices"),
		Lexicon: filepath.Join(dir, "lexicon"),
	}
	if v := getenv("KOKORO_ORT_LIB"); v != "" {
		p.ORTLib = v
	}
	if v := getenv("KOKORO_MODEL"); v != "" {
		p.Model = v
	}
	if v := getenv("KOKORO_VOICES"); v != "" {
		p.Voices = v
	}
	if v := getenv("KOKORO_LEXICON"); v != "" {
		p.Lexicon = v
	}
	return p
}

func findDir() string {
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if isDir(filepath.Join(d, "assets")) {
				return filepath.Join(d, "assets")
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		for _, c := range []string{filepath.Join(filepath.Dir(exe), "assets"), filepath.Join(filepath.Dir(exe), "..", "assets")} {
			if isDir(c) {
				return filepath.Clean(c)
			}
		}
	}
	return "assets"
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ErrMissing reports an asset file that is not where it should be.
var ErrMissing = errors.New("asset missing")

// Check reports the first missing file with the path and the command that installs it.
func (p Paths) Check() error {
	for _, c := range []struct{ what, path, env string }{
		{"ONNX Runtime library", p.ORTLib, "KOKORO_ORT_LIB"},
		{"model", p.Model, "KOKORO_MODEL"},
		{"voices directory", p.Voices, "KOKORO_VOICES"},
		{"lexicon directory", p.Lexicon, "KOKORO_LEXICON"},
	} {
		if _, err := os.Stat(c.path); err != nil {
			return fmt.Errorf("%w: %s not found at %s: run `make setup` (or set %s)", ErrMissing, c.what, c.path, c.env)
		}
	}
	return nil
}

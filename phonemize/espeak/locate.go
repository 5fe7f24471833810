package espeak

import (
	"fmt"
	"os/exec"
)

// Install is the espeak-ng that reads the words no lexicon knows.
type Install struct {
	Bin string // the binary; "" when espeak-ng is not used
	// Library reports that espeak-ng's library is loaded in this process and reads instead of
	// the binary (which stays the fallback); only for the espeak-ng found on PATH.
	Library bool
}

// Locate resolves spec: "" = espeak-ng from PATH when installed, through its library when it
// loads; "off" = never; else a path to the binary, which is then used without the library.
func Locate(spec string) (Install, error) {
	switch spec {
	case "off":
		return Install{}, nil
	case "":
		path, err := exec.LookPath("espeak-ng")
		if err != nil {
			return Install{}, nil
		}
		return Install{Bin: path, Library: openLib() == nil}, nil
	}
	if _, err := exec.LookPath(spec); err != nil {
		return Install{}, fmt.Errorf("espeak-ng binary %q: %w", spec, err)
	}
	return Install{Bin: spec}, nil
}

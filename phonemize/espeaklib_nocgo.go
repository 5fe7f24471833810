//go:build !cgo

package phonemize

import "errors"

var errEspeakLib = errors.New("espeak-ng library unavailable: built without cgo")

// openEspeakLib fails without cgo: unknown words then go to the espeak-ng binary.
func openEspeakLib() error { return errEspeakLib }

func espeakLibPhonemes(voice, text string) (string, error) { return "", errEspeakLib }

func espeakLibRaw(voice, text string) (string, error) { return "", errEspeakLib }

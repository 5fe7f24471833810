//go:build !cgo

package espeak

import "errors"

var errEspeakLib = errors.New("espeak-ng library unavailable: built without cgo")

// openLib fails without cgo: unknown words then go to the espeak-ng binary.
func openLib() error { return errEspeakLib }

func libPhonemes(voice, text string) (string, error) { return "", errEspeakLib }

func libRaw(voice, text string) (string, error) { return "", errEspeakLib }

//go:build cgo

package espeak

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

// kk_espeak_open checks that the espeak-ng library loads by name and has the functions the
// reader calls. 0 on success.
static int kk_espeak_open(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) return -1;
	if (!dlsym(h, "espeak_Initialize") || !dlsym(h, "espeak_SetVoiceByName") ||
	    !dlsym(h, "espeak_TextToPhonemes")) return -2;
	return 0;
}

*/
import "C"

import (
	"errors"
	"strings"
	"sync"
	"unsafe"
)

// espeakLibrary is espeak-ng's shared library, called as the reference calls it
// (espeak_TextToPhonemes through the phonemizer package): a clause is translated without being
// synthesised, 37 µs a word against 7.9 ms through the long-lived command-line helper, which
// synthesises every clause it prints (medians of 7 alternating rounds on a loaded 2-core
// machine: testdata/claims/espeak_library.txt, `scripts/measure/claims.sh espeaklib`). The library
// keeps its state in globals: each voice reads in a copy of its own (voiceLibs), one call at a
// time. espeakLibrary records whether the library loads at all.
var espeakLibrary struct {
	once sync.Once
	err  error
}

// espeakLibName is the library the espeak-ng package installs.
const espeakLibName = "libespeak-ng.so.1"

var errEspeakLib = errors.New("espeak-ng library unavailable")

// ipaTieMode asks for IPA (0x02) with a tie (0x80) written as U+0361 between the letters of
// one phoneme, the phonemizer package's mode for tie='^'.
const ipaTieMode = 0x02 | 0x80 | 0x361<<8

func openLib() error {
	espeakLibrary.once.Do(func() {
		name := C.CString(espeakLibName)
		defer C.free(unsafe.Pointer(name))
		if rc := C.kk_espeak_open(name); rc != 0 {
			espeakLibrary.err = errEspeakLib
			return
		}
		// The first voice's data is loaded now, with the lexicons, not by the first word.
		voiceLibFor("en-us")
	})
	return espeakLibrary.err
}

// libVoiceNames are the names espeak-ng's voice list gives the languages' voices: the
// library finds "en-us" by that code but not "en-gb" (1.51 answers EE_NOT_FOUND), so the
// voice is asked for by the name the list gives it, which is how the phonemizer package that
// the reference calls through selects a language's voice.
var libVoiceNames = map[string]string{"en-us": "English (America)", "en-gb": "English (Great Britain)"}

// libPhonemes returns the library's phonemes for text in voice, with '^' ties, as the
// phonemizer package hands them to the reference: clauses joined by a space.
func libPhonemes(voice, text string) (string, error) {
	ps, err := libRaw(voice, text)
	if err != nil {
		return "", err
	}
	ps = strings.ReplaceAll(ps, "\u0361", "^")
	return strings.Join(strings.Fields(ps), " "), nil
}

// libRaw returns the library's answer for text in voice as it comes: each clause's
// phonemes with U+0361 ties, the clauses joined by a space. voice is an espeak-ng code, a
// listed name or a voice identifier ("roa/es").
func libRaw(voice, text string) (string, error) {
	if err := openLib(); err != nil {
		return "", err
	}
	return voiceLibRaw(voice, text)
}

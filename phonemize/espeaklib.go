//go:build cgo

package phonemize

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef int (*kk_init_fn)(int, int, const char *, int);
typedef int (*kk_voice_fn)(const char *);
typedef const char *(*kk_t2p_fn)(const void **, int, int);

static kk_voice_fn kk_voice;
static kk_t2p_fn kk_t2p;

// kk_espeak_open loads the espeak-ng library by name and initialises it as the reference's
// phonemizer package does (synchronous output, default data path). 0 on success.
static int kk_espeak_open(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) return -1;
	kk_init_fn init = (kk_init_fn)dlsym(h, "espeak_Initialize");
	kk_voice = (kk_voice_fn)dlsym(h, "espeak_SetVoiceByName");
	kk_t2p = (kk_t2p_fn)dlsym(h, "espeak_TextToPhonemes");
	if (!init || !kk_voice || !kk_t2p) return -2;
	if (init(2, 0, NULL, 0) <= 0) return -3;
	return 0;
}

static int kk_espeak_voice(const char *name) { return kk_voice(name); }

// kk_espeak_phonemes translates every clause of text (UTF-8) and joins the clauses' phonemes
// with single spaces into a buffer the caller frees.
static char *kk_espeak_phonemes(const char *text, int mode) {
	size_t cap = 256, n = 0;
	char *out = malloc(cap);
	if (!out) return NULL;
	out[0] = 0;
	const void *p = text;
	for (int clauses = 0; p != NULL && clauses < 100000; clauses++) {
		const char *r = kk_t2p(&p, 1, mode);
		if (r == NULL || r[0] == 0) continue;
		size_t m = strlen(r);
		if (n + m + 2 > cap) {
			while (n + m + 2 > cap) cap *= 2;
			char *grown = realloc(out, cap);
			if (!grown) { free(out); return NULL; }
			out = grown;
		}
		if (n > 0) out[n++] = ' ';
		memcpy(out + n, r, m);
		n += m;
		out[n] = 0;
	}
	return out;
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
// machine: testdata/claims/espeak_library.txt, `scripts/claims.sh espeaklib`). The library keeps its state in globals, so one
// lock serialises every call and the voice is switched only when a call needs the other one.
var espeakLibrary struct {
	once  sync.Once
	err   error
	mu    sync.Mutex
	voice string
}

// espeakLibName is the library the espeak-ng package installs.
const espeakLibName = "libespeak-ng.so.1"

var errEspeakLib = errors.New("espeak-ng library unavailable")

// ipaTieMode asks for IPA (0x02) with a tie (0x80) written as U+0361 between the letters of
// one phoneme, the phonemizer package's mode for tie='^'.
const ipaTieMode = 0x02 | 0x80 | 0x361<<8

func openEspeakLib() error {
	espeakLibrary.once.Do(func() {
		name := C.CString(espeakLibName)
		defer C.free(unsafe.Pointer(name))
		if rc := C.kk_espeak_open(name); rc != 0 {
			espeakLibrary.err = errEspeakLib
			return
		}
		// The first voice's data is loaded now, with the lexicons, not by the first word.
		v := C.CString("en-us")
		defer C.free(unsafe.Pointer(v))
		if C.kk_espeak_voice(v) == 0 {
			espeakLibrary.voice = "en-us"
		}
	})
	return espeakLibrary.err
}

// libVoiceNames are the names espeak-ng's voice list gives the languages' voices: the
// library finds "en-us" by that code but not "en-gb" (1.51 answers EE_NOT_FOUND), so the
// voice is asked for by the name the list gives it, which is how the phonemizer package that
// the reference calls through selects a language's voice.
var libVoiceNames = map[string]string{"en-us": "English (America)", "en-gb": "English (Great Britain)"}

// setLibVoice selects voice by its code or else by its listed name; the lock is held.
func setLibVoice(voice string) bool {
	for _, name := range []string{voice, libVoiceNames[voice]} {
		if name == "" {
			continue
		}
		v := C.CString(name)
		rc := C.kk_espeak_voice(v)
		C.free(unsafe.Pointer(v))
		if rc == 0 {
			return true
		}
	}
	return false
}

// espeakLibPhonemes returns the library's phonemes for text in voice, with '^' ties, as the
// phonemizer package hands them to the reference: clauses joined by a space.
func espeakLibPhonemes(voice, text string) (string, error) {
	ps, err := espeakLibRaw(voice, text)
	if err != nil {
		return "", err
	}
	ps = strings.ReplaceAll(ps, "\u0361", "^")
	return strings.Join(strings.Fields(ps), " "), nil
}

// espeakLibRaw returns the library's answer for text in voice as it comes: each clause's
// phonemes with U+0361 ties, the clauses joined by a space. voice is an espeak-ng code, a
// listed name or a voice identifier ("roa/es").
func espeakLibRaw(voice, text string) (string, error) {
	if err := openEspeakLib(); err != nil {
		return "", err
	}
	espeakLibrary.mu.Lock()
	defer espeakLibrary.mu.Unlock()
	if espeakLibrary.voice != voice {
		if !setLibVoice(voice) {
			espeakLibrary.voice = ""
			return "", errEspeakLib
		}
		espeakLibrary.voice = voice
	}
	t := C.CString(text)
	defer C.free(unsafe.Pointer(t))
	r := C.kk_espeak_phonemes(t, ipaTieMode)
	if r == nil {
		return "", errEspeakLib
	}
	defer C.free(unsafe.Pointer(r))
	return C.GoString(r), nil
}

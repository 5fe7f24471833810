//go:build cgo

package espeak

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef int (*kv_init_fn)(int, int, const char *, int);
typedef int (*kv_voice_fn)(const char *);
typedef const char *(*kv_t2p_fn)(const void **, int, int);

// kv_lib is one loaded copy of the espeak-ng library, with its own global state.
typedef struct {
	kv_voice_fn voice;
	kv_t2p_fn t2p;
} kv_lib;

// kv_path writes the file the library name resolves to into buf; 0 on success.
static int kv_path(const char *name, char *buf, size_t n) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!h) return -1;
	void *sym = dlsym(h, "espeak_TextToPhonemes");
	Dl_info info;
	int ok = sym && dladdr(sym, &info) && info.dli_fname && strlen(info.dli_fname) < n;
	if (ok) strcpy(buf, info.dli_fname);
	dlclose(h);
	return ok ? 0 : -2;
}

// kv_open loads the library file at path (a private copy, so that its globals are its own)
// and initialises it as the phonemizer package does. NULL on failure.
static kv_lib *kv_open(const char *path) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) return NULL;
	kv_init_fn init = (kv_init_fn)dlsym(h, "espeak_Initialize");
	kv_lib *l = malloc(sizeof *l);
	if (!l) return NULL;
	l->voice = (kv_voice_fn)dlsym(h, "espeak_SetVoiceByName");
	l->t2p = (kv_t2p_fn)dlsym(h, "espeak_TextToPhonemes");
	if (!init || !l->voice || !l->t2p || init(2, 0, NULL, 0) <= 0) {
		free(l);
		return NULL;
	}
	return l;
}

static int kv_voice(kv_lib *l, const char *name) { return l->voice(name); }

// kv_translate translates every clause of text (UTF-8) and joins the clauses' phonemes with
// single spaces into a buffer the caller frees.
static __attribute__((noinline)) char *kv_translate(kv_lib *l, const char *text, int mode) {
	size_t cap = 256, n = 0;
	char *out = malloc(cap);
	if (!out) return NULL;
	out[0] = 0;
	const void *p = text;
	for (int clauses = 0; p != NULL && clauses < 100000; clauses++) {
		const char *r = l->t2p(&p, 1, mode);
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

// kv_phonemes is kv_translate called below 64 KiB of stack filled with spaces and NULs in
// turn. espeak-ng 1.51 now and then scans a word on its stack for the space after it and runs
// past the word's end, up the stack (the loop around utf8_in that stops at a space only). On
// the stack of a thread the Go runtime created, the cgo call runs near the top of the mapping,
// and a scan that met no space there read into unmapped memory (SIGSEGV). The pattern ends a
// scan for a space, or for a NUL, within two bytes of where it enters the pad. The empty asm
// statements make the pad's contents observable, so the compiler keeps the stores (a memset
// of a buffer never read is otherwise removed).
static char *kv_phonemes(kv_lib *l, const char *text, int mode) {
	char pad[65536];
	for (size_t i = 0; i < sizeof pad; i += 2) {
		pad[i] = ' ';
		pad[i + 1] = 0;
	}
	__asm__ __volatile__("" : : "r"(pad) : "memory");
	char *out = kv_translate(l, text, mode);
	__asm__ __volatile__("" : : "r"(pad) : "memory");
	return out;
}
*/
import "C"

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"unsafe"
)

// voiceLibs holds a private copy of espeak-ng's library for each voice, as the reference's
// phonemizer package keeps one per backend: each voice is selected once, in a copy of its own,
// and never switched, so that no voice's reading depends on the voices read before it.
var voiceLibs struct {
	mu sync.Mutex
	m  map[string]*voiceLib
}

type voiceLib struct {
	once sync.Once
	mu   sync.Mutex // the copy's globals: one call at a time
	lib  *C.kv_lib
	err  error
}

// voiceLibFor returns voice's copy of the library, loading it on first use.
func voiceLibFor(voice string) *voiceLib {
	voiceLibs.mu.Lock()
	if voiceLibs.m == nil {
		voiceLibs.m = map[string]*voiceLib{}
	}
	v := voiceLibs.m[voice]
	if v == nil {
		v = &voiceLib{}
		voiceLibs.m[voice] = v
	}
	voiceLibs.mu.Unlock()
	v.once.Do(func() { v.lib, v.err = openVoiceLib(voice) })
	return v
}

// openVoiceLib copies the espeak-ng library to a file of its own, loads that copy (the
// dynamic loader shares a library only by file) with voice selected, and removes the file,
// which stays mapped.
func openVoiceLib(voice string) (*C.kv_lib, error) {
	name := C.CString(espeakLibName)
	defer C.free(unsafe.Pointer(name))
	buf := (*C.char)(C.malloc(4096))
	defer C.free(unsafe.Pointer(buf))
	if C.kv_path(name, buf, 4096) != 0 {
		return nil, errEspeakLib
	}
	dir, err := os.MkdirTemp("", "kokoro-espeak-")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errEspeakLib, err)
	}
	defer os.RemoveAll(dir)
	copyPath := filepath.Join(dir, espeakLibName)
	if err := copyFile(C.GoString(buf), copyPath); err != nil {
		return nil, fmt.Errorf("%w: %w", errEspeakLib, err)
	}
	p := C.CString(copyPath)
	defer C.free(unsafe.Pointer(p))
	lib := C.kv_open(p)
	if lib == nil {
		return nil, errEspeakLib
	}
	// By its code, else by the name espeak-ng's voice list gives it (libVoiceNames).
	for _, name := range []string{voice, libVoiceNames[voice]} {
		if name == "" {
			continue
		}
		n := C.CString(name)
		rc := C.kv_voice(lib, n)
		C.free(unsafe.Pointer(n))
		if rc == 0 {
			return lib, nil
		}
	}
	return nil, fmt.Errorf("%w: voice %s", errEspeakLib, voice)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// voiceLibRaw is libRaw on voice's own copy of the library.
func voiceLibRaw(voice, text string) (string, error) {
	v := voiceLibFor(voice)
	if v.err != nil {
		return "", v.err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	t := C.CString(text)
	defer C.free(unsafe.Pointer(t))
	r := C.kv_phonemes(v.lib, t, ipaTieMode)
	if r == nil {
		return "", errEspeakLib
	}
	defer C.free(unsafe.Pointer(r))
	return C.GoString(r), nil
}

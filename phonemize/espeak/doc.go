// Package espeak reads text through espeak-ng: its shared library loaded in this process (the
// package's only cgo, lib.go, with a private copy of the library per voice, voices.go), or,
// where the library does not load, one long-lived espeak-ng process per voice (proc.go), each
// text asked so that it answers as the library does, and a process per text when that fails.
//
// Locate finds espeak-ng. A Voice reads English words for the English G2P's fallback (package
// en maps the answers to Kokoro's symbols); a Reader reads a whole language as the reference
// reads Spanish, French, Hindi, Italian and Brazilian Portuguese (misaki's EspeakG2P through the
// phonemizer package, lang.go).
package espeak

// Package listen is the machine listener of the listening tests: it measures speech the way a
// person would notice its faults, by what an offline recognizer (CMU pocketsphinx from Debian)
// understands of it (word error rate) and by the silences on the waveform (audio.Pauses).
package listen

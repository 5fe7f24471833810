// Package codec encodes the model's float32 samples (mono, api.SampleRate) into the formats a
// client may ask for: wav, pcm, mp3, opus (Ogg Opus) and flac. Every encoder works chunk by
// chunk, so a format that can be streamed leaves as the audio is synthesized, and each knows
// when a total length given up front lets it write an exact header.
//
// MP3 is LAME (libmp3lame) and Opus is libopus, both linked through cgo from Debian's
// packages (scripts/setup/setup.sh installs libmp3lame-dev and libopus-dev); the Ogg pages around the
// Opus packets are written here. FLAC is github.com/mewkiz/flac, pure Go. AAC is not offered:
// see Lookup.
package codec

// Package audio converts the model's float32 samples to the formats a client receives: PCM16
// little-endian, a streaming WAV whose header promises an unknown length, and a complete WAV.
package audio

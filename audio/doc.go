// Package audio converts the model's float32 samples to the formats a client receives: PCM16
// little-endian, a streaming WAV whose header promises an unknown length, a complete WAV, and
// G.711 μ-law and A-law for telephone lines. Resampler converts the model's 24 kHz to the rate
// a client asks for, band-limited (no aliasing) and with times kept: a sound at the model's
// sample t lies at the output's Pos(t).
package audio

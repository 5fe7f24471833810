package audio

import "math/bits"

// G.711, the companding of telephone audio (8 kHz, 8 bits a sample): μ-law in North America
// and Japan, A-law elsewhere. Each byte holds a sign, a 3-bit segment (the magnitude's
// octave) and 4 bits within it; the bytes are sent with alternate bits inverted (A-law) or all
// of them (μ-law), as the standard specifies.

// AppendMulaw appends samples as G.711 μ-law bytes, clipped as AppendPCM16 clips.
func AppendMulaw(dst []byte, samples []float32) []byte {
	for _, s := range samples {
		dst = append(dst, Mulaw(ToInt16(s)))
	}
	return dst
}

// AppendAlaw appends samples as G.711 A-law bytes, clipped as AppendPCM16 clips.
func AppendAlaw(dst []byte, samples []float32) []byte {
	for _, s := range samples {
		dst = append(dst, Alaw(ToInt16(s)))
	}
	return dst
}

// Mulaw is the G.711 μ-law code of a 16-bit sample: its 14 most significant bits, biased by
// 33 so that every segment starts at a power of two, then the segment and 4 bits below the
// leading one.
func Mulaw(s int16) byte {
	const bias, clip = 33, 8159
	v := int(s) >> 2
	mask := byte(0xFF)
	if v < 0 {
		v, mask = -v, 0x7F
	}
	v = min(v, clip) + bias
	seg := bits.Len(uint(v)) - 6 // v is at least 33 (6 bits) and at most 8192 (14 bits)
	if seg > 7 {
		return 0x7F ^ mask // the clipped top: the last code
	}
	return (byte(seg<<4) | byte(v>>(seg+1))&0x0F) ^ mask
}

// Alaw is the G.711 A-law code of a 16-bit sample: its 13 most significant bits, the first
// two segments linear, each later one an octave.
func Alaw(s int16) byte {
	v := int(s) >> 3
	mask := byte(0xD5)
	if v < 0 {
		v, mask = -v-1, 0x55
	}
	seg := max(bits.Len(uint(v))-5, 0) // 0 below 32, then one segment an octave up to 4095
	var m int
	if seg < 2 {
		m = v >> 1
	} else {
		m = v >> seg
	}
	return (byte(seg<<4) | byte(m)&0x0F) ^ mask
}

package audio

import (
	"encoding/binary"
	"math"
)

// AppendPCM16 appends samples as signed 16-bit little-endian PCM. Samples outside [-1, 1] are
// clipped and NaN becomes silence, so a bad model output can never wrap around into noise.
func AppendPCM16(dst []byte, samples []float32) []byte {
	for _, s := range samples {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(ToInt16(s)))
	}
	return dst
}

// ToInt16 maps one sample in [-1, 1] to the int16 range, clipping and silencing NaN.
func ToInt16(s float32) int16 {
	switch {
	case s != s: // NaN
		return 0
	case s >= 1:
		return math.MaxInt16
	case s <= -1:
		return -math.MaxInt16
	}
	return int16(math.Round(float64(s) * math.MaxInt16))
}

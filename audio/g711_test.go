package audio

import (
	"math"
	"testing"
)

// The decoders, as G.711 defines them: each code stands for the middle of its step.
func mulawLinear(c byte) int {
	c = ^c
	t := (int(c&0x0F)<<3 + 0x84) << ((c & 0x70) >> 4)
	if c&0x80 != 0 {
		return 0x84 - t
	}
	return t - 0x84
}

func alawLinear(c byte) int {
	c ^= 0x55
	t := int(c&0x0F) << 4
	switch seg := (c & 0x70) >> 4; seg {
	case 0:
		t += 8
	default:
		t = (t + 0x108) << (seg - 1)
	}
	if c&0x80 != 0 {
		return t
	}
	return -t
}

// Known codes of the standard: silence, the extremes.
func TestG711KnownCodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s           int16
		mulaw, alaw byte
	}{{0, 0xFF, 0xD5}, {-1, 0x7E, 0x55}, {math.MaxInt16, 0x80, 0xAA}, {math.MinInt16, 0x00, 0x2A}, {-math.MaxInt16, 0x00, 0x2A}} {
		if got := Mulaw(c.s); got != c.mulaw {
			t.Errorf("μ-law of %d = %#02x, want %#02x", c.s, got, c.mulaw)
		}
		if got := Alaw(c.s); got != c.alaw {
			t.Errorf("A-law of %d = %#02x, want %#02x", c.s, got, c.alaw)
		}
	}
}

// Every code decodes to a value that encodes back to it (μ-law's negative zero, 0x7F, to the
// positive one), and every 16-bit sample comes back within half its segment's step.
func TestG711RoundTrip(t *testing.T) {
	t.Parallel()
	for c := 0; c < 256; c++ {
		want := byte(c)
		if want == 0x7F {
			want = 0xFF
		}
		if got := Mulaw(int16(mulawLinear(byte(c)))); got != want {
			t.Errorf("μ-law %#02x decodes to %d, which encodes to %#02x", c, mulawLinear(byte(c)), got)
		}
		if got := Alaw(int16(alawLinear(byte(c)))); got != byte(c) {
			t.Errorf("A-law %#02x decodes to %d, which encodes to %#02x", c, alawLinear(byte(c)), got)
		}
	}
	for s := math.MinInt16; s <= math.MaxInt16; s++ {
		// The step doubles each octave: a 16th of the magnitude, and 16 (μ) or 32 (A) at
		// the bottom; the top of the range clips to the last code.
		bound := float64(abs(s))/32 + 32
		if abs(s) > 32000 {
			bound = 1100
		}
		if d := math.Abs(float64(mulawLinear(Mulaw(int16(s))) - s)); d > bound {
			t.Fatalf("μ-law: %d comes back as %d", s, mulawLinear(Mulaw(int16(s))))
		}
		if d := math.Abs(float64(alawLinear(Alaw(int16(s))) - s)); d > bound {
			t.Fatalf("A-law: %d comes back as %d", s, alawLinear(Alaw(int16(s))))
		}
	}
	if b := AppendMulaw(nil, []float32{0, 2, -2}); string(b) != "\xff\x80\x00" {
		t.Errorf("AppendMulaw = % x", b)
	}
	if b := AppendAlaw(nil, []float32{0, 2, -2}); string(b) != "\xd5\xaa\x2a" {
		t.Errorf("AppendAlaw = % x", b)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

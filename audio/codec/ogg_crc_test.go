package codec

import "testing"

func TestOggCRCMatchesTheSpecification(t *testing.T) {
	t.Parallel()
	// The bit-by-bit definition of RFC 3533's CRC, against the table.
	slow := func(b []byte) uint32 {
		var crc uint32
		for _, c := range b {
			crc ^= uint32(c) << 24
			for range 8 {
				if crc&0x80000000 != 0 {
					crc = crc<<1 ^ 0x04c11db7
				} else {
					crc <<= 1
				}
			}
		}
		return crc
	}
	for _, s := range []string{"", "OggS", "The quick brown fox jumps over the lazy dog"} {
		if got, want := oggCRC([]byte(s)), slow([]byte(s)); got != want {
			t.Errorf("crc(%q) = %08x, want %08x", s, got, want)
		}
	}
}

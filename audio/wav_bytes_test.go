package audio

import (
	"bytes"
	"testing"
)

// The WAV files written here, byte for byte against the layout written out by hand from the
// RIFF/WAVE specification (little-endian fields), so that a mistake shared by the writer and
// ParseWAVHeader cannot hide.
func TestWAVBytesMatchTheFormat(t *testing.T) {
	t.Parallel()
	header := func(riff, data [4]byte) []byte {
		var b []byte
		b = append(b, 'R', 'I', 'F', 'F')
		b = append(b, riff[:]...) // bytes after this field: 36 + data, or unknown
		b = append(b, 'W', 'A', 'V', 'E')
		b = append(b, 'f', 'm', 't', ' ')
		b = append(b, 16, 0, 0, 0)      // fmt chunk size
		b = append(b, 1, 0)             // format tag 1: integer PCM
		b = append(b, 1, 0)             // one channel
		b = append(b, 0xc0, 0x5d, 0, 0) // 24000 samples per second
		b = append(b, 0x80, 0xbb, 0, 0) // 48000 bytes per second
		b = append(b, 2, 0)             // 2 bytes per frame
		b = append(b, 16, 0)            // 16 bits per sample
		b = append(b, 'd', 'a', 't', 'a')
		return append(b, data[:]...)
	}
	unknown := [4]byte{0xff, 0xff, 0xff, 0xff}
	for _, c := range []struct {
		name string
		got  []byte
		want []byte
	}{
		{"streaming header", StreamingWAVHeader(Mono24k), header(unknown, unknown)},
		{"empty file", EncodeWAV(Mono24k, nil), header([4]byte{36, 0, 0, 0}, [4]byte{0, 0, 0, 0})},
		{"three samples", EncodeWAV(Mono24k, []float32{0, 1, -1}),
			append(header([4]byte{42, 0, 0, 0}, [4]byte{6, 0, 0, 0}), 0, 0, 0xff, 0x7f, 0x01, 0x80)},
		{"300 samples", EncodeWAV(Mono24k, make([]float32, 300)),
			append(header([4]byte{0x7c, 0x02, 0, 0}, [4]byte{0x58, 0x02, 0, 0}), make([]byte, 600)...)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Equal(c.got, c.want) {
				t.Errorf("%s:\n got % x\nwant % x", c.name, c.got, c.want)
			}
		})
	}
}

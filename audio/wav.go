package audio

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kokoro-sm/kokoro/api"
)

// WAVHeaderSize is the size of the canonical RIFF/WAVE header written here: the 44 bytes a
// streamed WAV starts with on the wire.
const WAVHeaderSize = api.StreamingWAVHeader

// UnknownSize fills both RIFF size fields of a streaming WAV, whose length is not known when
// the header leaves; players read such a file to its end.
const UnknownSize = 0xFFFFFFFF

// Format describes PCM16 audio.
type Format struct {
	SampleRate int
	Channels   int
}

// Mono24k is the model's output format.
var Mono24k = Format{SampleRate: api.SampleRate, Channels: 1}

// AppendWAVHeader appends a 44-byte PCM16 WAV header for dataBytes bytes of samples, or for a
// stream of unknown length when dataBytes is UnknownSize.
func AppendWAVHeader(dst []byte, f Format, dataBytes uint32) []byte {
	riff := uint32(UnknownSize)
	if dataBytes != UnknownSize {
		riff = 36 + dataBytes
	}
	blockAlign := uint16(2 * f.Channels)
	dst = append(dst, "RIFF"...)
	dst = binary.LittleEndian.AppendUint32(dst, riff)
	dst = append(dst, "WAVEfmt "...)
	dst = binary.LittleEndian.AppendUint32(dst, 16)
	dst = binary.LittleEndian.AppendUint16(dst, 1) // PCM
	dst = binary.LittleEndian.AppendUint16(dst, uint16(f.Channels))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(f.SampleRate))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(f.SampleRate)*uint32(blockAlign))
	dst = binary.LittleEndian.AppendUint16(dst, blockAlign)
	dst = binary.LittleEndian.AppendUint16(dst, 16)
	dst = append(dst, "data"...)
	dst = binary.LittleEndian.AppendUint32(dst, dataBytes)
	return dst
}

// StreamingWAVHeader is the header sent before the first chunk of a streamed WAV.
func StreamingWAVHeader(f Format) []byte {
	return AppendWAVHeader(make([]byte, 0, WAVHeaderSize), f, UnknownSize)
}

// EncodeWAV returns a complete mono PCM16 WAV file of the samples.
func EncodeWAV(f Format, samples []float32) []byte {
	b := make([]byte, 0, WAVHeaderSize+2*len(samples))
	b = AppendWAVHeader(b, f, uint32(2*len(samples)))
	return AppendPCM16(b, samples)
}

// Header is what ParseWAVHeader reads back.
type Header struct {
	Format
	BitsPerSample int
	DataBytes     uint32 // UnknownSize for a stream
}

// ErrNotWAV reports bytes that are not a PCM WAV header.
var ErrNotWAV = errors.New("not a PCM WAV header")

// ParseWAVHeader reads the canonical 44-byte header written by this package.
func ParseWAVHeader(b []byte) (Header, error) {
	if len(b) < WAVHeaderSize {
		return Header{}, fmt.Errorf("%w: %d bytes, need %d", ErrNotWAV, len(b), WAVHeaderSize)
	}
	if string(b[0:4]) != "RIFF" || string(b[8:16]) != "WAVEfmt " || string(b[36:40]) != "data" {
		return Header{}, fmt.Errorf("%w: missing RIFF/WAVE/fmt/data tags", ErrNotWAV)
	}
	if tag := binary.LittleEndian.Uint16(b[20:22]); tag != 1 {
		return Header{}, fmt.Errorf("%w: format tag %d is not PCM", ErrNotWAV, tag)
	}
	h := Header{
		Format: Format{
			Channels:   int(binary.LittleEndian.Uint16(b[22:24])),
			SampleRate: int(binary.LittleEndian.Uint32(b[24:28])),
		},
		BitsPerSample: int(binary.LittleEndian.Uint16(b[34:36])),
		DataBytes:     binary.LittleEndian.Uint32(b[40:44]),
	}
	if h.Channels < 1 || h.SampleRate < 1 || h.BitsPerSample != 16 {
		return Header{}, fmt.Errorf("%w: %d channels, %d Hz, %d bits", ErrNotWAV, h.Channels, h.SampleRate, h.BitsPerSample)
	}
	return h, nil
}

// DecodePCM16 converts PCM16 LE bytes back to samples in [-1, 1]; a trailing odd byte is
// ignored.
func DecodePCM16(b []byte) []float32 {
	out := make([]float32, len(b)/2)
	for i := range out {
		out[i] = float32(int16(binary.LittleEndian.Uint16(b[2*i:]))) / 32767
	}
	return out
}

// Package codectest decodes what kokoro's encoders write, for tests, with decoders that are not
// the encoders: go-mp3 for MP3, libopus's decoder behind an Ogg reader that checks every page's
// CRC for Opus, mewkiz/flac's decoder for FLAC, a WAV header read by its fields, and G.711's
// decoding tables. Only tests
// import it.
package codectest

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/hajimehoshi/go-mp3"
	"github.com/mewkiz/flac"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec"
)

// Decode turns a format's bytes back into mono samples at api.SampleRate, failing the test
// when they are not a complete stream of that format.
func Decode(tb testing.TB, format string, b []byte) []float32 {
	tb.Helper()
	return DecodeAt(tb, format, b, api.SampleRate)
}

// DecodeAt is Decode for audio encoded at rate, which the headers that name a rate (wav, mp3,
// flac) must name. Opus is decoded at api.SampleRate whatever its input rate was: an Opus
// decoder picks its own output rate.
func DecodeAt(tb testing.TB, format string, b []byte, rate int) []float32 {
	tb.Helper()
	switch format {
	case api.FormatPCM:
		return audio.DecodePCM16(b)
	case api.FormatMulaw:
		return g711(b, mulaw)
	case api.FormatAlaw:
		return g711(b, alaw)
	case api.FormatWAV:
		h, err := audio.ParseWAVHeader(b)
		if err != nil {
			tb.Fatal(err)
		}
		if h.SampleRate != rate {
			tb.Fatalf("wav: %d Hz, want %d", h.SampleRate, rate)
		}
		if h.DataBytes != audio.UnknownSize && int(h.DataBytes) != len(b)-audio.WAVHeaderSize {
			tb.Fatalf("wav: the header says %d data bytes, the body has %d", h.DataBytes, len(b)-audio.WAVHeaderSize)
		}
		return audio.DecodePCM16(b[audio.WAVHeaderSize:])
	case api.FormatMP3:
		d, err := mp3.NewDecoder(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("mp3: %v", err)
		}
		if d.SampleRate() != rate {
			tb.Fatalf("mp3: %d Hz, want %d", d.SampleRate(), rate)
		}
		raw, err := io.ReadAll(d)
		if err != nil {
			tb.Fatalf("mp3: %v", err)
		}
		// go-mp3 always writes two channels of 16-bit samples; the stream is mono.
		out := make([]float32, len(raw)/4)
		for i := range out {
			out[i] = float32(int16(binary.LittleEndian.Uint16(raw[4*i:]))) / 32767
		}
		return out
	case api.FormatOpus:
		pcm, err := codec.DecodeOggOpus(b)
		if err != nil {
			tb.Fatalf("opus: %v", err)
		}
		return pcm
	case api.FormatFLAC:
		s, err := flac.New(bytes.NewReader(b))
		if err != nil {
			tb.Fatalf("flac: %v", err)
		}
		if int(s.Info.SampleRate) != rate || s.Info.NChannels != 1 || s.Info.BitsPerSample != 16 {
			tb.Fatalf("flac: %+v, want %d Hz, one channel, 16 bits", s.Info, rate)
		}
		var out []float32
		for {
			fr, err := s.ParseNext()
			if err == io.EOF {
				break
			}
			if err != nil {
				tb.Fatalf("flac: %v", err)
			}
			for _, v := range fr.Subframes[0].Samples {
				out = append(out, float32(v)/32767)
			}
		}
		if s.Info.NSamples != 0 && int(s.Info.NSamples) != len(out) {
			tb.Fatalf("flac: STREAMINFO says %d samples, the frames hold %d", s.Info.NSamples, len(out))
		}
		return out
	}
	tb.Fatalf("no decoder for %q", format)
	return nil
}

// g711 expands G.711 bytes with the standard's decoding: each code stands for the middle of
// its step.
func g711(b []byte, linear func(byte) int) []float32 {
	out := make([]float32, len(b))
	for i, c := range b {
		out[i] = float32(linear(c)) / 32767
	}
	return out
}

func mulaw(c byte) int {
	c = ^c
	t := (int(c&0x0F)<<3 + 0x84) << ((c & 0x70) >> 4)
	if c&0x80 != 0 {
		return 0x84 - t
	}
	return t - 0x84
}

func alaw(c byte) int {
	c ^= 0x55
	t := int(c&0x0F) << 4
	if seg := (c & 0x70) >> 4; seg == 0 {
		t += 8
	} else {
		t = (t + 0x108) << (seg - 1)
	}
	if c&0x80 != 0 {
		return t
	}
	return -t
}

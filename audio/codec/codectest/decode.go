// Package codectest decodes what kokoro's encoders write, for tests, with decoders that are not
// the encoders: go-mp3 for MP3, libopus's decoder behind an Ogg reader that checks every page's
// CRC for Opus, mewkiz/flac's decoder for FLAC, and a WAV header read by its fields. Only tests
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
	switch format {
	case api.FormatPCM:
		return audio.DecodePCM16(b)
	case api.FormatWAV:
		h, err := audio.ParseWAVHeader(b)
		if err != nil {
			tb.Fatal(err)
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
		if d.SampleRate() != api.SampleRate {
			tb.Fatalf("mp3: %d Hz, want %d", d.SampleRate(), api.SampleRate)
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
		if s.Info.SampleRate != api.SampleRate || s.Info.NChannels != 1 || s.Info.BitsPerSample != 16 {
			tb.Fatalf("flac: %+v, want %d Hz, one channel, 16 bits", s.Info, api.SampleRate)
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

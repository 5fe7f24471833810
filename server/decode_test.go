package server

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

// decodeAudio turns a response body back into samples with a decoder that is not the
// server's encoder, failing the test when the body is not a complete stream of the format.
func decodeAudio(t testing.TB, format string, b []byte) []float32 {
	t.Helper()
	switch format {
	case api.FormatPCM:
		return audio.DecodePCM16(b)
	case api.FormatWAV:
		h, err := audio.ParseWAVHeader(b)
		if err != nil {
			t.Fatal(err)
		}
		if h.DataBytes != audio.UnknownSize && int(h.DataBytes) != len(b)-audio.WAVHeaderSize {
			t.Fatalf("wav header says %d data bytes, the body has %d", h.DataBytes, len(b)-audio.WAVHeaderSize)
		}
		return audio.DecodePCM16(b[audio.WAVHeaderSize:])
	case api.FormatMP3:
		d, err := mp3.NewDecoder(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("mp3: %v", err)
		}
		raw, err := io.ReadAll(d)
		if err != nil || d.SampleRate() != api.SampleRate {
			t.Fatalf("mp3: %v at %d Hz", err, d.SampleRate())
		}
		out := make([]float32, len(raw)/4) // go-mp3 writes two channels
		for i := range out {
			out[i] = float32(int16(binary.LittleEndian.Uint16(raw[4*i:]))) / 32767
		}
		return out
	case api.FormatOpus:
		pcm, err := codec.DecodeOggOpus(b)
		if err != nil {
			t.Fatal(err)
		}
		return pcm
	case api.FormatFLAC:
		s, err := flac.New(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("flac: %v", err)
		}
		var out []float32
		for {
			fr, err := s.ParseNext()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("flac: %v", err)
			}
			for _, v := range fr.Subframes[0].Samples {
				out = append(out, float32(v)/32767)
			}
		}
		if s.Info.NSamples != 0 && int(s.Info.NSamples) != len(out) {
			t.Fatalf("flac STREAMINFO says %d samples, the frames hold %d", s.Info.NSamples, len(out))
		}
		return out
	}
	t.Fatalf("no decoder for %q", format)
	return nil
}

package audio

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

func TestToInt16ClipsAndSilencesNaN(t *testing.T) {
	t.Parallel()
	nan := float32(math.NaN())
	for _, c := range []struct {
		in   float32
		want int16
	}{
		{0, 0}, {1, 32767}, {-1, -32767}, {2.5, 32767}, {-7, -32767}, {0.5, 16384}, {nan, 0},
		{float32(math.Inf(1)), 32767}, {float32(math.Inf(-1)), -32767},
	} {
		t.Run(fmt.Sprint(c.in), func(t *testing.T) {
			if got := ToInt16(c.in); got != c.want {
				t.Errorf("ToInt16(%v) = %d, want %d", c.in, got, c.want)
			}
		})
	}
}

func TestStreamingHeaderPromisesUnknownLength(t *testing.T) {
	t.Parallel()
	h := StreamingWAVHeader(Mono24k)
	if len(h) != WAVHeaderSize {
		t.Fatalf("header is %d bytes, want 44", len(h))
	}
	if !bytes.Equal(h[4:8], []byte{0xff, 0xff, 0xff, 0xff}) || !bytes.Equal(h[40:44], []byte{0xff, 0xff, 0xff, 0xff}) {
		t.Fatalf("streaming header must carry 0xFFFFFFFF in both size fields: % x", h)
	}
	p, err := ParseWAVHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if p.SampleRate != 24000 || p.Channels != 1 || p.BitsPerSample != 16 || p.DataBytes != UnknownSize {
		t.Fatalf("parsed %+v", p)
	}
}

func TestEncodeWAVRoundTrip(t *testing.T) {
	t.Parallel()
	in := []float32{0, 0.25, -0.25, 0.999, -0.999}
	w := EncodeWAV(Mono24k, in)
	p, err := ParseWAVHeader(w)
	if err != nil {
		t.Fatal(err)
	}
	if int(p.DataBytes) != 2*len(in) || len(w) != WAVHeaderSize+2*len(in) {
		t.Fatalf("data size %d, file %d bytes", p.DataBytes, len(w))
	}
	got := DecodePCM16(w[WAVHeaderSize:])
	for i := range in {
		if d := math.Abs(float64(got[i] - in[i])); d > 1.0/32767 {
			t.Errorf("sample %d: %v -> %v", i, in[i], got[i])
		}
	}
}

func TestParseWAVHeaderRejects(t *testing.T) {
	t.Parallel()
	good := StreamingWAVHeader(Mono24k)
	bad := func(mut func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		mut(b)
		return b
	}
	for name, b := range map[string][]byte{
		"short":    good[:20],
		"not riff": bad(func(b []byte) { copy(b, "RIFX") }),
		"float":    bad(func(b []byte) { b[20] = 3 }),
		"8-bit":    bad(func(b []byte) { b[34] = 8 }),
	} {
		if _, err := ParseWAVHeader(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParseWAVHeader(f *testing.F) {
	f.Add(StreamingWAVHeader(Mono24k))
	f.Add([]byte("RIFF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseWAVHeader(b)
		if err == nil && (h.Channels < 1 || h.SampleRate < 1) {
			t.Fatalf("accepted invalid header %+v", h)
		}
	})
}

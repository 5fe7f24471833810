package codec_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mewkiz/flac"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
)

// speech is 13.5 s of the model's own voice (testdata/three_sentences.wav).
func speech(tb testing.TB) []float32 {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "three_sentences.wav"))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := audio.ParseWAVHeader(b); err != nil {
		tb.Fatal(err)
	}
	return audio.DecodePCM16(b[audio.WAVHeaderSize:])
}

// encode runs an encoder over pcm in chunks of chunk samples (all at once when chunk is 0) and
// returns the bytes and how many of them had left after the first chunk.
func encode(t testing.TB, name string, pcm []float32, chunk int, total int) (out []byte, afterFirst int) {
	t.Helper()
	f, err := codec.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := f.New(total, api.SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	if chunk == 0 {
		chunk = len(pcm)
	}
	for i := 0; i < len(pcm); i += chunk {
		if out, err = enc.Write(out, pcm[i:min(i+chunk, len(pcm))]); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			afterFirst = len(out)
		}
	}
	if out, err = enc.Finish(out); err != nil {
		t.Fatal(err)
	}
	return out, afterFirst
}

// similarity is the normalized correlation of b against a at the lag (0..maxLag samples of
// delay in b) where it is highest.
func similarity(a, b []float32, maxLag int) (best float64, lag int) {
	for l := 0; l <= maxLag && l < len(b); l++ {
		var ab, aa, bb float64
		for i := 0; i < len(a) && i+l < len(b); i++ {
			x, y := float64(a[i]), float64(b[i+l])
			ab += x * y
			aa += x * x
			bb += y * y
		}
		if c := ab / math.Sqrt(aa*bb+1e-12); c > best {
			best, lag = c, l
		}
	}
	return best, lag
}

func TestEncodersRoundTrip(t *testing.T) {
	t.Parallel()
	pcm := speech(t)
	chunk := api.SampleRate / 2 // streamed as the engine would: in pieces
	cases := []struct {
		name      string
		lossless  bool
		maxLag    int     // encoder delay a decoder may leave in
		minSim    float64 // correlation with the input
		slackLong int     // extra samples the decoded stream may have at its end
	}{
		{api.FormatPCM, true, 0, 1, 0},
		{api.FormatWAV, true, 0, 1, 0},
		{api.FormatFLAC, true, 0, 1, 0},
		{api.FormatOpus, false, 0, 0.9, 0},
		{api.FormatMP3, false, 2400, 0.9, 3 * 1152},
	}
	for _, tc := range cases {
		for _, streamed := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/streamed=%v", tc.name, streamed), func(t *testing.T) {
				t.Parallel()
				total, size := len(pcm), 0
				if streamed {
					total, size = -1, chunk
				}
				b, first := encode(t, tc.name, pcm, size, total)
				switch {
				case tc.name == api.FormatFLAC:
					// A FLAC is handed out whole, its STREAMINFO holding the real length,
					// which libsndfile needs (flac.go).
					if first != 0 {
						t.Errorf("%d bytes before the end: a FLAC with an unknown length", first)
					}
					s, err := flac.New(bytes.NewReader(b))
					if err != nil || s.Info.NSamples != uint64(len(pcm)) {
						t.Errorf("STREAMINFO: %v, %d samples, want %d", err, s.Info.NSamples, len(pcm))
					}
				case streamed && first == 0:
					t.Errorf("nothing left after the first half second: the format was not streamed")
				}
				got := codectest.Decode(t, tc.name, b)
				if tc.lossless {
					if len(got) != len(pcm) {
						t.Fatalf("%d samples back, want %d", len(got), len(pcm))
					}
					for i := range pcm {
						if audio.ToInt16(got[i]) != audio.ToInt16(pcm[i]) {
							t.Fatalf("sample %d: %v back, want %v", i, got[i], pcm[i])
						}
					}
					return
				}
				if len(got) < len(pcm) || len(got) > len(pcm)+tc.maxLag+tc.slackLong {
					t.Errorf("%d samples back, want %d (+ at most %d)", len(got), len(pcm), tc.maxLag+tc.slackLong)
				}
				sim, lag := similarity(pcm, got, tc.maxLag)
				t.Logf("%d bytes, %d samples back for %d, correlation %.3f at lag %d", len(b), len(got), len(pcm), sim, lag)
				if sim < tc.minSim {
					t.Errorf("decoded audio correlates %.3f with the input (at lag %d), want at least %.2f", sim, lag, tc.minSim)
				}
			})
		}
	}
}

// A stream that was not finished is detectably incomplete: the last Ogg page is missing.
func TestUnfinishedOpusIsDetected(t *testing.T) {
	t.Parallel()
	f, _ := codec.Lookup(api.FormatOpus)
	enc, err := f.New(-1, api.SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	b, err := enc.Write(nil, speech(t)[:api.SampleRate])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := codec.DecodeOggOpus(b); err == nil {
		t.Error("an Ogg Opus stream without its last page decoded as complete")
	}
	b[len(b)-1] ^= 0xFF
	if _, err := codec.ReadOgg(b); err == nil {
		t.Error("a damaged page passed the CRC check")
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	for _, name := range codec.Names() {
		f, err := codec.Lookup(name)
		if err != nil || f.ContentType == "" {
			t.Errorf("codec.Lookup(%q) = %+v, %v", name, f, err)
		}
	}
	if _, err := codec.Lookup(api.FormatAAC); err == nil || !errors.Is(err, codec.ErrNoEncoder) {
		t.Errorf("codec.Lookup(aac) = %v, want codec.ErrNoEncoder", err)
	}
	if _, err := codec.Lookup("ogg"); err == nil {
		t.Error("codec.Lookup(ogg) found a format")
	}
}

// Encoders that were closed without finishing fail cleanly instead of touching freed memory.
func TestClosedEncodersRefuse(t *testing.T) {
	t.Parallel()
	for _, name := range []string{api.FormatMP3, api.FormatOpus, api.FormatFLAC} {
		f, _ := codec.Lookup(name)
		enc, err := f.New(-1, api.SampleRate)
		if err != nil {
			t.Fatal(err)
		}
		enc.Close()
		enc.Close()
		if _, err := enc.Write(nil, make([]float32, 100)); err == nil {
			t.Errorf("%s: Write after Close succeeded", name)
		}
		if _, err := enc.Finish(nil); err == nil {
			t.Errorf("%s: Finish after Close succeeded", name)
		}
	}
}

// cpuTime is the CPU time this process has used, user and system: on a shared machine it is
// what an encoder costs, where wall time also counts the other processes.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEncoders measures what each format costs per second of speech (13.5 s of the
// model's voice), streamed in the engine's way (half-second pieces): CPU milliseconds and wall
// milliseconds per audio second, and bytes per audio second.
func BenchmarkEncoders(b *testing.B) {
	pcm := speech(b)
	seconds := float64(len(pcm)) / api.SampleRate
	for _, name := range codec.Names() {
		b.Run(name, func(b *testing.B) {
			var size int
			start, cpu := time.Now(), cpuTime(b)
			for range b.N {
				out, _ := encode(b, name, pcm, api.SampleRate/2, -1)
				size = len(out)
			}
			per := func(d time.Duration) float64 { return 1000 * d.Seconds() / float64(b.N) / seconds }
			b.ReportMetric(per(cpuTime(b)-cpu), "cpu_ms/audio_s")
			b.ReportMetric(per(time.Since(start)), "ms/audio_s")
			b.ReportMetric(float64(size)/seconds, "bytes/audio_s")
		})
	}
}

// Every format at every rate it takes: the header names the rate, and the samples come back
// (G.711 within its companding error); a rate a format does not take is not listed for it.
func TestEncodersAtEveryRate(t *testing.T) {
	t.Parallel()
	for _, name := range codec.Names() {
		f, _ := codec.Lookup(name)
		for _, rate := range f.ValidRates() {
			t.Run(fmt.Sprintf("%s/%d", name, rate), func(t *testing.T) {
				t.Parallel()
				pcm := make([]float32, rate) // one second of a 440 Hz tone
				for i := range pcm {
					pcm[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/float64(rate)))
				}
				enc, err := f.New(-1, rate)
				if err != nil {
					t.Fatal(err)
				}
				defer enc.Close()
				var b []byte
				for i := 0; i < len(pcm); i += rate / 10 {
					if b, err = enc.Write(b, pcm[i:min(i+rate/10, len(pcm))]); err != nil {
						t.Fatal(err)
					}
				}
				if b, err = enc.Finish(b); err != nil {
					t.Fatal(err)
				}
				got := codectest.DecodeAt(t, name, b, rate)
				want := len(pcm)
				if name == api.FormatOpus {
					want = api.SampleRate // decoded at the model's rate
				}
				if len(got) < want || len(got) > want+3*1152 {
					t.Fatalf("%d samples back, want %d", len(got), want)
				}
				if name == api.FormatOpus {
					return
				}
				sim, lag := similarity(pcm, got, 2400)
				if sim < 0.99 {
					t.Errorf("correlation %.3f at lag %d, want 0.99", sim, lag)
				}
			})
		}
	}
	for _, name := range []string{api.FormatMulaw, api.FormatAlaw} {
		f, _ := codec.Lookup(name)
		if r := f.ValidRates(); len(r) != 1 || r[0] != 8000 || f.Rate(0) != 8000 {
			t.Errorf("%s: rates %v, default %d; want 8000 only", name, r, f.Rate(0))
		}
	}
	if f, _ := codec.Lookup(api.FormatPCM); f.ContentTypeAt(16000) != "audio/pcm;rate=16000;channels=1;encoding=s16le" || f.Rate(0) != api.SampleRate {
		t.Errorf("pcm at 16 kHz: %q", f.ContentTypeAt(16000))
	}
}

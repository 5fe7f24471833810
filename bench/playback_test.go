package bench

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

func TestPlaybackStalls(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	sec := bytesPerSecond // one second of audio
	type piece struct {
		at time.Duration
		n  int
	}
	tests := []struct {
		name       string
		pieces     []piece
		wantFirst  time.Duration
		wantStall  time.Duration
		wantStalls int
		wantAudio  float64
	}{
		{"nothing", nil, 0, 0, 0, 0},
		{"all at once", []piece{{100 * ms, sec}, {101 * ms, sec}, {102 * ms, sec}}, 100 * ms, 0, 0, 3},
		{"just in time", []piece{{0, sec}, {time.Second, sec}, {2 * time.Second, sec}}, 0, 0, 0, 3},
		{"late second chunk", []piece{{50 * ms, sec / 10}, {450 * ms, sec}}, 50 * ms, 300 * ms, 1, 1.1},
		{"two stalls and a catch-up", []piece{{0, sec / 10}, {200 * ms, sec / 10}, {300 * ms, sec}, {2500 * ms, sec / 2}}, 0, 100*ms + 1200*ms, 2, 1.7},
		{"empty pieces ignored", []piece{{10 * ms, 0}, {20 * ms, sec}, {30 * ms, 0}}, 20 * ms, 0, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var p Playback
			for _, pc := range tc.pieces {
				p.Add(pc.at, make([]byte, pc.n))
			}
			if p.First() != tc.wantFirst || p.Stall() != tc.wantStall || p.Stalls() != tc.wantStalls {
				t.Errorf("first %v stall %v stalls %d; want %v %v %d", p.First(), p.Stall(), p.Stalls(), tc.wantFirst, tc.wantStall, tc.wantStalls)
			}
			if got := p.AudioSeconds(); got < tc.wantAudio-1e-9 || got > tc.wantAudio+1e-9 {
				t.Errorf("audio %v s, want %v", got, tc.wantAudio)
			}
		})
	}
}

// The first sound is heard when playback reaches it, or when it arrives if that is later; the
// first byte may carry only silence.
func TestPlaybackHearsTheFirstSound(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	pcm := func(silence time.Duration, sound int) []byte {
		b := make([]byte, 2*int(silence*api.SampleRate/time.Second))
		for range sound {
			b = binary.LittleEndian.AppendUint16(b, uint16(int16(8000)))
		}
		return b
	}
	type piece struct {
		at  time.Duration
		pcm []byte
	}
	whole := pcm(100*ms, 480)
	for _, c := range []struct {
		name   string
		pieces []piece
		want   time.Duration // 0 = none heard
	}{
		{"sound after played silence", []piece{{20 * ms, whole}}, 120 * ms},
		{"split mid-sample", []piece{{20 * ms, whole[:4901]}, {30 * ms, whole[4901:]}}, 120 * ms},
		{"sound arrives after the silence played out", []piece{{0, pcm(100*ms, 0)}, {time.Second, pcm(0, 480)}}, time.Second},
		{"silence only", []piece{{0, pcm(time.Second, 0)}}, 0},
	} {
		var p Playback
		for _, pc := range c.pieces {
			p.Add(pc.at, pc.pcm)
		}
		got, ok := p.FirstSound()
		if ok != (c.want != 0) || got != c.want {
			t.Errorf("%s: first sound %v (heard %v), want %v", c.name, got, ok, c.want)
		}
	}
}

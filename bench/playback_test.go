package bench

import (
	"testing"
	"time"
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
				p.Add(pc.at, pc.n)
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

package server

import (
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

func TestAudioTimesHearTheFirstSoundNotTheFirstByte(t *testing.T) {
	t.Parallel()
	sound := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = 0.2
		}
		return s
	}
	silence := func(d time.Duration) []float32 { return make([]float32, int(d*api.SampleRate/time.Second)) }
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name   string
		writes [][]float32
		at     []time.Duration // when each write left
		want   time.Duration   // first sound heard, after t0; 0 = none
	}{
		{"sound in the first write", [][]float32{append(silence(30*time.Millisecond), sound(240)...)}, []time.Duration{0}, 30 * time.Millisecond},
		{"played silence covers the wait", [][]float32{silence(500 * time.Millisecond), sound(240)}, []time.Duration{0, 200 * time.Millisecond}, 500 * time.Millisecond},
		{"the sound came late", [][]float32{silence(100 * time.Millisecond), sound(240)}, []time.Duration{0, time.Second}, time.Second},
		{"silence only", [][]float32{silence(time.Second)}, []time.Duration{0}, 0},
	} {
		a := newAudioTimes()
		for i, w := range c.writes {
			a.wrote(w, t0.Add(c.at[i]))
		}
		if !a.byte_.Equal(t0) {
			t.Errorf("%s: first byte %v", c.name, a.byte_.Sub(t0))
		}
		if got := a.sound.Sub(t0); c.want == 0 && !a.sound.IsZero() || c.want != 0 && got != c.want {
			t.Errorf("%s: first sound at %v, want %v", c.name, got, c.want)
		}
	}
}

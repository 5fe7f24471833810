package bench

import (
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

// bytesPerSecond of the PCM16 mono stream every transport delivers.
const bytesPerSecond = 2 * api.SampleRate

// Playback plays a response in real time in the client's head to measure stalls. The first
// audio byte starts playback; every later piece is due when the audio before it has finished
// playing, and arriving after that moment is a stall of the difference. A server that sends its
// first bytes early and then starves the stream wins TTFAB and shows up here.
//
// Times are offsets on any monotonic scale; the zero value is ready to use.
type Playback struct {
	started bool
	first   time.Duration // arrival of the first audio byte
	playEnd time.Duration // when the audio received so far finishes playing
	bytes   int64
	stall   time.Duration
	stalls  int
	chunks  int
}

// Add records n audio bytes arriving at t. Pieces with no bytes are ignored: they carry nothing
// to play.
func (p *Playback) Add(t time.Duration, n int) {
	if n <= 0 {
		return
	}
	p.chunks++
	p.bytes += int64(n)
	if !p.started {
		p.started = true
		p.first = t
		p.playEnd = t + audioDuration(int64(n))
		return
	}
	if t > p.playEnd {
		p.stall += t - p.playEnd
		p.stalls++
		p.playEnd = t
	}
	p.playEnd += audioDuration(int64(n))
}

// Started reports whether any audio arrived.
func (p *Playback) Started() bool { return p.started }

// First is the arrival time of the first audio byte.
func (p *Playback) First() time.Duration { return p.first }

// Stall is the total time playback waited for audio after it started.
func (p *Playback) Stall() time.Duration { return p.stall }

// Stalls is the number of separate stalls.
func (p *Playback) Stalls() int { return p.stalls }

// Bytes is the audio received.
func (p *Playback) Bytes() int64 { return p.bytes }

// Chunks is the number of non-empty pieces received.
func (p *Playback) Chunks() int { return p.chunks }

// AudioSeconds is the playing time of the audio received.
func (p *Playback) AudioSeconds() float64 { return float64(p.bytes) / bytesPerSecond }

func audioDuration(n int64) time.Duration {
	return time.Duration(n) * time.Second / bytesPerSecond
}

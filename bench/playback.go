package bench

import (
	"encoding/binary"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

// bytesPerSecond of the PCM16 mono stream every transport delivers.
const bytesPerSecond = 2 * api.SampleRate

// Playback plays a response in real time in the client's head to measure stalls. The first
// audio byte starts playback; every later piece is due when the audio before it has finished
// playing, and arriving after that moment is a stall of the difference. A server that sends its
// first bytes early and then starves the stream wins TTFAB and shows up here.
//
// It also hears the first audible sample (audio.Onset): the first byte can carry silence, and a
// listener waits for sound. The sound is heard when playback reaches it, or when its bytes
// arrive if that is later.
//
// Times are offsets on any monotonic scale; the zero value is ready to use.
type Playback struct {
	started bool
	first   time.Duration // arrival of the first audio byte
	onset   *audio.Onset
	odd     []byte        // a sample split across two pieces
	samples []float32     // scratch for decoding
	sound   time.Duration // when the first audible sample is heard, once heard
	heard   bool
	playEnd time.Duration // when the audio received so far finishes playing
	bytes   int64
	stall   time.Duration
	stalls  int
	chunks  int
}

// Add records the audio bytes pcm arriving at t. Pieces with no bytes are ignored: they carry
// nothing to play.
func (p *Playback) Add(t time.Duration, pcm []byte) {
	n := len(pcm)
	if n <= 0 {
		return
	}
	p.listen(t, pcm)
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

// listen feeds the onset detector, which places the first sound on the playback clock.
func (p *Playback) listen(t time.Duration, pcm []byte) {
	if p.heard {
		return
	}
	if p.onset == nil {
		p.onset = audio.NewOnset(api.SampleRate)
		p.first = t
	}
	if len(p.odd) > 0 {
		pcm = append(p.odd, pcm...)
		p.odd = nil
	}
	if len(pcm)%2 == 1 {
		p.odd = append(p.odd, pcm[len(pcm)-1])
		pcm = pcm[:len(pcm)-1]
	}
	p.samples = p.samples[:0]
	for i := 0; i+1 < len(pcm); i += 2 {
		p.samples = append(p.samples, float32(int16(binary.LittleEndian.Uint16(pcm[i:])))/32768)
	}
	if at, ok := p.onset.Write(p.samples); ok {
		p.heard = true
		p.sound = max(t, p.first+time.Duration(at)*time.Second/api.SampleRate)
	}
}

// FirstSound is when the first audible sample is heard; false when none has arrived.
func (p *Playback) FirstSound() (time.Duration, bool) { return p.sound, p.heard }

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

package tts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
)

// Engine turns requests into streamed audio. It is safe for concurrent use.
type Engine struct {
	cfg    Config
	ph     Phonemizer
	voices Voices
	sched  *scheduler
	// aligns: the synthesizer says where each id's audio lies (Aligner), so chunks cut between
	// two words can be run with the word across the cut.
	aligns bool
	// windows: Config.Windows, and the synthesizer is split (Splitter): each chunk is a whole
	// sentence whose audio is decoded and sent window by window.
	windows bool
	// release closes what the engine owns: set by Load, nil for an engine built by New on
	// parts the caller keeps.
	release   func() error
	closeOnce sync.Once
	closeErr  error
}

// New starts an engine with one worker per model slot. Close stops it.
func New(cfg Config, ph Phonemizer, syn Synthesizer, voices Voices) *Engine {
	if cfg.DefaultVoice == "" {
		cfg.DefaultVoice = api.DefaultVoice
	}
	if cfg.TTFABTarget <= 0 {
		cfg.TTFABTarget = 300 * time.Millisecond
	}
	al, aligns := syn.(Aligner)
	sp, splits := syn.(Splitter)
	return &Engine{cfg: cfg, ph: ph, voices: voices, sched: newScheduler(syn, cfg.Observer, cfg.Cores),
		aligns: aligns && al.Aligns(), windows: cfg.Windows && splits && sp.Splits()}
}

// Close waits for running chunks, fails queued ones and stops the slot workers. An engine
// built by Load then closes the model and the phonemizer too; one built by New leaves its
// parts to the caller. Close is safe to call more than once.
func (e *Engine) Close() error {
	e.closeOnce.Do(func() {
		e.sched.close()
		if e.release != nil {
			e.closeErr = e.release()
		}
	})
	return e.closeErr
}

// QueueDepth is the number of chunks waiting for a slot.
func (e *Engine) QueueDepth() int { return e.sched.depth() }

// styleIDs is the utterance length whose style row a chunk is spoken with: its sentence's.
// The voice packs hold one row per length, and the reference speaks a sentence with the row
// of its whole length; so does kokoro, for every part of a sentence cut off for early audio
// (docs/listening.md).
func styleIDs(c chunk.Chunk) int {
	return max(len(c.IDs), c.SentenceIDs)
}

// Stream speaks req, which the engine's check resolved (Check, or CheckText), handing each
// chunk to emit in order as soon as it is synthesized: req.Text in req.Lang, every chunk with
// a style row of req.Voice's pack, at req.Speed. It reads no voice spec or language name. The next
// chunk is already queued while emit runs, so a slow writer does not idle the model.
// When ctx ends, queued work is withdrawn and Stream returns ctx's error. An error from emit
// stops the stream and is returned as is.
func (e *Engine) Stream(ctx context.Context, req Resolved, emit func(Chunk) error) (Stats, error) {
	start := time.Now()
	var st Stats
	if req.Voice.Pack == nil {
		return st, errUnresolved
	}
	speed := req.Speed
	opt := e.chunkOptions(req.Lang, speed)
	opt.Switches = req.Switches
	chunks, err := e.ph.Chunks(req.Text, opt)
	if err != nil {
		return st, fmt.Errorf("phonemize: %w", err)
	}
	if len(chunks) == 0 {
		return st, ErrEmptyText
	}

	// The request wants a slot again after each chunk until its last one is submitted.
	e.sched.begin()
	open := true
	closeStream := func() {
		if open {
			open = false
			e.sched.end()
		}
	}
	defer closeStream()
	submit := func(i int, deadline time.Time) (*job, error) {
		c := chunks[i]
		j := &job{ctx: ctx, deadline: deadline, ids: c.IDs, style: req.Voice.Pack.Row(styleIDs(c)), speed: float32(speed)}
		if e.windows {
			j.window = &window{cut: firstCut(c, joinAfter(chunks, i), e.sched.frameTime()), hold: samples(joinCrossfade)}
		} else {
			if i == len(chunks)-1 {
				closeStream()
			}
			if len(c.Before)+len(c.After) > 0 {
				j.ids, j.before, j.after = slices.Concat(c.Before, c.IDs, c.After), len(c.Before), len(c.After)
			}
		}
		return j, e.sched.submit(j)
	}
	// wait takes the result of j, withdrawing it when ctx ends first.
	wait := func(j *job) (result, error) {
		select {
		case r := <-j.done:
			if r.err != nil && ctx.Err() != nil {
				return r, ctx.Err()
			}
			return r, r.err
		case <-ctx.Done():
			if !e.sched.cancel(j) {
				<-j.done // a slot is running it; it ends when ctx's cancellation reaches the model
			}
			return result{}, ctx.Err()
		}
	}

	// A new request's first chunk is due TTFABTarget after arrival; every later chunk, and
	// every later window of a chunk, is due when the audio sent before it has finished playing.
	next, err := submit(0, start.Add(e.cfg.TTFABTarget))
	if err != nil {
		return st, err
	}
	var playStart time.Time
	var played time.Duration
	index := 0
	for i := range chunks {
		p := &pieces{c: chunks[i]}
		before := played // the audio of the chunks before this one
		for piece := 0; ; piece++ {
			r, err := wait(next)
			if err != nil {
				st.Elapsed, st.NextWord = time.Since(start), firstWord(chunks[i])
				if p.spans != nil {
					st.NextWord = p.nextWord()
				}
				if ctx.Err() != nil {
					return st, ctx.Err()
				}
				return st, fmt.Errorf("synthesize chunk %d: %w", i, err)
			}
			var c Chunk
			more := false
			if r.win != nil {
				pcm, words, last := p.take(r.win, r.pcm, joinAfter(chunks, i), i == 0 && req.Resumes)
				c = Chunk{Index: index, Text: windowText(words), PCM: pcm, Words: words}
				if piece == 0 {
					c.Phonemes = chunks[i].Phonemes
				}
				more = !last
			} else {
				pcm, from := reframe(r.pcm, joinAfter(chunks, i), i == 0 && req.Resumes, len(chunks[i].Before) > 0, len(chunks[i].After) > 0)
				bounds, lead := r.bounds, samples(SoundLead)
				if bounds == nil {
					bounds, lead = spreadBounds(r.pcm, len(chunks[i].IDs)), 0
				}
				c = Chunk{Index: index, Text: chunks[i].Text, Phonemes: chunks[i].Phonemes, PCM: pcm,
					Words: placeWords(chunks[i], bounds, from, len(pcm), lead)}
			}
			c.ModelTime, c.QueueWait, c.Slot = r.modelTime, r.queueWait, r.slot
			c.Final = i == len(chunks)-1 && !more
			if !more {
				e.sched.played(len(chunks[i].IDs), float32(speed), played+c.Duration()-before)
			}
			if index == 0 {
				playStart = time.Now()
				st.FirstChunkTime = r.modelTime
				st.TTFA = playStart.Sub(start)
			}
			played += c.Duration()
			switch {
			case more:
				ahead := time.Until(playStart.Add(played))
				next = p.next(ctx, next, playStart.Add(played), ahead, e.sched.frameTime())
				err = e.sched.submit(next)
			case i+1 < len(chunks):
				next, err = submit(i+1, playStart.Add(played))
			default:
				closeStream()
				next = nil
			}
			if err != nil {
				return st, err
			}
			index++
			st.Chunks++
			st.AudioDuration += c.Duration()
			st.ModelTime += r.modelTime
			if err := emit(c); err != nil {
				if next != nil && !e.sched.cancel(next) {
					<-next.done
				}
				st.Elapsed, st.NextWord = time.Since(start), firstWord(chunks[i])
				if r.win != nil && len(c.Words) > 0 {
					st.NextWord = c.Words[0].Text
				}
				return st, err
			}
			if !more {
				break
			}
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// errUnresolved is a Resolved that no check made: it has no voice to speak with.
var errUnresolved = errors.New("tts: stream of a request the engine's check did not resolve")

// chunkOptions are the chunk budgets of a request in lang at speed: the engine's policy, by
// what the slots show now (chunk.Policy.For).
func (e *Engine) chunkOptions(lang string, speed float64) chunk.Options {
	idle := e.sched.idle()
	pace, _ := e.sched.pace()
	return e.cfg.For(lang, speed, chunk.Slots{Pace: pace, Idle: idle, Backlogged: e.sched.backlogged(), Aligns: e.aligns, Windows: e.windows})
}

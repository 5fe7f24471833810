package tts

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Engine turns requests into streamed audio. It is safe for concurrent use.
type Engine struct {
	cfg    Config
	ph     Phonemizer
	voices Voices
	sched  *scheduler
	// context: chunks cut between two words are run with the word across the cut.
	context bool
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
	return &Engine{cfg: cfg, ph: ph, voices: voices, sched: newScheduler(syn, cfg.Observer, cfg.Cores),
		context: aligns && al.Aligns() && cfg.ChunkContext != model.ToggleOff}
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
// of its whole length; so does kokoro, for every part of a sentence cut off for early audio.
// Against each part spoken with the row of its own length, the word error rate on split
// sentences went 13.6 → 10.6 % (af_heart), 14.5 → 9.4 % (am_michael), 14.5 → 12.3 %
// (bm_george) and stayed 37.4 % (bf_emma) on the listening sentences, and on fresh ones
// 10.0 → 10.0 %, 13.5 → 10.0 %, 18.3 → 22.3 % and 46.7 → 44.1 % (testdata/listen/fresh.md):
// better on average, not on every voice. (British voices now start on a whole sentence; see
// chunkOptions.)
func styleIDs(c phonemize.Chunk) int {
	return max(len(c.IDs), c.SentenceIDs)
}

// Stream speaks req, handing each chunk to emit in order as soon as it is synthesized. It
// checks req first (Check), so a request that breaks a rule costs no model work. The next
// chunk is already queued while emit runs, so a slow writer does not idle the model.
// When ctx ends, queued work is withdrawn and Stream returns ctx's error. An error from emit
// stops the stream and is returned as is.
func (e *Engine) Stream(ctx context.Context, req Request, emit func(Chunk) error) (Stats, error) {
	start := time.Now()
	var st Stats
	req, err := e.Check(req)
	if err != nil {
		return st, err
	}
	speed := 1.0
	if req.Speed != nil {
		speed = *req.Speed
	}
	chunks, err := e.ph.Chunks(req.Text, e.chunkOptions(req.Lang, speed))
	if err != nil {
		return st, fmt.Errorf("phonemize: %w", err)
	}
	if len(chunks) == 0 {
		return st, ErrEmptyText
	}

	// The request wants a slot again after each chunk until its last one is submitted.
	e.sched.begin()
	open := true
	defer func() {
		if open {
			e.sched.end()
		}
	}()
	submit := func(i int, deadline time.Time) (*job, error) {
		style, err := e.voices.Style(req.Voice, styleIDs(chunks[i]))
		if err != nil {
			return nil, err
		}
		if i == len(chunks)-1 {
			open = false
			e.sched.end()
		}
		c := chunks[i]
		j := &job{ctx: ctx, deadline: deadline, ids: c.IDs, style: style, speed: float32(speed)}
		if len(c.Before)+len(c.After) > 0 {
			j.ids, j.before, j.after = slices.Concat(c.Before, c.IDs, c.After), len(c.Before), len(c.After)
		}
		return j, e.sched.submit(j)
	}

	// A new request's first chunk is due TTFABTarget after arrival; every later chunk is due
	// when the audio sent before it has finished playing.
	next, err := submit(0, start.Add(e.cfg.TTFABTarget))
	if err != nil {
		return st, err
	}
	var playStart time.Time
	var played time.Duration
	for i := range chunks {
		var r result
		select {
		case r = <-next.done:
		case <-ctx.Done():
			if !e.sched.cancel(next) {
				<-next.done // a slot is running it; it ends when ctx's cancellation reaches the model
			}
			st.Elapsed, st.NextWord = time.Since(start), firstWord(chunks[i])
			return st, ctx.Err()
		}
		if r.err != nil {
			st.Elapsed, st.NextWord = time.Since(start), firstWord(chunks[i])
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
			return st, fmt.Errorf("synthesize chunk %d: %w", i, r.err)
		}
		pcm, from := reframe(r.pcm, joinAfter(chunks, i), i == 0 && req.Resumes, len(chunks[i].Before) > 0, len(chunks[i].After) > 0)
		bounds, lead := r.bounds, samples(SoundLead)
		if bounds == nil {
			bounds, lead = spreadBounds(r.pcm, len(chunks[i].IDs)), 0
		}
		c := Chunk{
			Index: i, Text: chunks[i].Text, Phonemes: chunks[i].Phonemes, PCM: pcm, Words: placeWords(chunks[i], bounds, from, len(pcm), lead),
			ModelTime: r.modelTime, QueueWait: r.queueWait, Slot: r.slot, Final: i == len(chunks)-1,
		}
		e.sched.played(len(chunks[i].IDs), float32(speed), c.Duration())
		if i == 0 {
			playStart = time.Now()
			st.FirstChunkTime = r.modelTime
			st.TTFA = playStart.Sub(start)
		}
		played += c.Duration()
		if i+1 < len(chunks) {
			if next, err = submit(i+1, playStart.Add(played)); err != nil {
				return st, err
			}
		}
		st.Chunks++
		st.AudioDuration += c.Duration()
		st.ModelTime += r.modelTime
		if err := emit(c); err != nil {
			if i+1 < len(chunks) && !e.sched.cancel(next) {
				<-next.done
			}
			st.Elapsed, st.NextWord = time.Since(start), firstWord(chunks[i])
			return st, err
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// paceMargin is the share of the audio still to play that the next chunk's model time may
// take: the rest absorbs a chunk slower than its estimate and the trip to the listener.
const paceMargin = 0.7

// wholeMargin is the share of the audio still to play that the rest of a sentence, taken whole
// as the next chunk, may take: a cut costs the model a chunk's overhead (overheadIDs) again.
const wholeMargin = 0.9

// chunkOptions are the phonemizer's budgets for a request at speed. The first chunk is one
// phrase while the slots keep up; when chunks already wait for a slot, it is packed like the
// others, since every chunk costs the model its lead and tail silence again (overheadIDs),
// and a small first chunk then only lengthens the queue.
func (e *Engine) chunkOptions(lang string, speed float64) phonemize.Options {
	british := phonemize.IsBritish(lang)
	idle := e.sched.idle()
	// Context costs the model the words across each cut. A lone request has the wide slot to
	// itself and the time to spare; beside others, whose chunks share the narrow slots, the
	// cuts stay plain (in a run with context, and paced cuts kept long, at every load, 2 of 32
	// requests stalled at N=2, where none had without them).
	o := phonemize.Options{Lang: lang, FirstChunkMaxIDs: e.cfg.FirstChunkMaxIDs, FirstChunkMinIDs: e.cfg.FirstChunkMinIDs,
		FirstChunkAt: e.cfg.FirstChunkAt, MaxIDs: e.cfg.MaxChunkIDs, Ramp: max(e.cfg.Ramp, 0), Context: e.context && idle}
	if e.cfg.Ramp == 0 {
		// Later chunks are cut to what the model makes while the audio before them plays, by
		// the speed the slots have shown; a fixed ramp until they have shown it. (Moving the
		// first chunk later when the rest could not keep up, by the same estimate, took the
		// p95 first audio of two requests at once from 1861 to 2048 ms, past a 2 s SLO.)
		// British voices keep the fixed ramp: pacing cuts sentences where the slots are slow,
		// and a cut British sentence is heard worse (bf_emma's word error rate in TestRealListening
		// went from 34.9 % to 62.8 % with paced chunks under the race detector's load).
		if p, ok := e.sched.pace(); ok && !british {
			o.Pace, o.PaceOverhead = p*paceMargin, overheadIDs
			if idle {
				// Alone on the wide slot the model's time varies little; beside other requests
				// the narrow slots' does, and the full margin is kept (with the rest taken whole
				// at 90 %, 2 of 32 requests stalled at N=2 in scripts/perf_compare.sh).
				o.PaceWhole = wholeMargin / paceMargin
			}
		} else {
			o.Ramp = DefaultRamp
		}
	}
	if o.MaxIDs <= 0 || o.MaxIDs > model.MaxIDs {
		o.MaxIDs = model.MaxIDs
	}
	if speed < 1 {
		o.MaxIDs = max(1, int(float64(o.MaxIDs)*speed))
	}
	if e.sched.backlogged() {
		o.FirstChunkMaxIDs, o.FirstChunkMinIDs, o.FirstChunkAt = o.MaxIDs, model.MaxIDs, phonemize.FirstAtPunctuation
	}
	if o.FirstChunkAt == phonemize.FirstAtAuto {
		// A lone request starts on its first words, heard with the word after them (context);
		// beside others it starts on its first phrase, which leaves the slots, shared then, time
		// to make the rest before it has played.
		o.FirstChunkAt = phonemize.FirstAtPunctuation
		if o.Context {
			o.FirstChunkAt = phonemize.FirstAtWord
		}
	}
	// British voices start on a whole sentence: a sentence cut at its first phrase was heard
	// 10 points worse than the reference speaking it whole (bf_emma, 44.1 % against 34.1 %
	// word error rate on 17 fresh sentences; bm_george 22.3 % against 15.7 %), where the
	// American voices lost nothing (testdata/listen/fresh.md). Their first audio waits for
	// the first sentence, as the reference's and the peers' does.
	o.FirstChunkWholeSentence = british
	return o
}

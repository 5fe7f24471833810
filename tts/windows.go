package tts

import (
	"context"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
)

// Splitter is a Synthesizer split into the model's two stages (model.Model when it Splits):
// Predict makes a run's durations, curves and frame features, the small part of the work;
// Decode makes the audio of any window of its frames, the large part. The engine then hears
// a whole sentence through the predictor and sends its audio window by window: the first
// audio waits for the predictor and one window, not for the sentence.
type Splitter interface {
	Splits() bool
	Predict(ctx context.Context, slot int, ids []int64, style []float32, speed float32) (*model.Features, error)
	Decode(ctx context.Context, slot int, f *model.Features, w model.Window) ([]float32, error)
}

// Windows are cut where a word starts, so that every word is heard in one window:
//   - the first window ends at the first word start at least firstWindow after the first
//     word's, so the first audio is a phrase of a second or so, spoken with the whole
//     sentence's prosody;
//   - each later window is as long as the slots make while the audio already sent plays
//     (paceMargin of it); where that is less than minWindow the slots cannot keep up, and the
//     rest of the chunk is one window, which wastes least on margins;
//   - a window never leaves less than minWindow to the last.
//
// The decoder hears decodeMargin frames beyond each side of a window and the joins are
// crossfaded over joinCrossfade, the window before running on under the start of the next.
const (
	firstWindow   = 800 * time.Millisecond
	minWindow     = 500 * time.Millisecond
	decodeMargin  = 8
	joinCrossfade = 5 * time.Millisecond
	// firstLead is the silence decoded before the first word: the engine keeps JoinLead of
	// it (reframe), the rest need not be made.
	firstLead = 100 * time.Millisecond
	// tailSlack is the audio decoded past the pause after the last word: the model's sound
	// runs on a little past the word's frames, and reframe trims what is silence.
	tailSlack = 100 * time.Millisecond
)

// window is a decoder window's part of a job: the run's features once predicted, and the
// samples of the run's audio it makes.
type window struct {
	feat *model.Features // nil: predict first
	// from, to are the run's samples this window makes; a first window (feat nil) leaves
	// both to cut, which picks them from the predicted durations.
	from, to int
	cut      func(spans []int) (from, to int)
	// hold is how many samples past to the window also makes, to be crossfaded under the next.
	hold int
	// first: the chunk's first window, which starts in its lead silence.
	first bool
}

// windowResult is what a window job hands back beyond its audio: the features and where the
// window lay, so that the next window can follow.
type windowResult struct {
	feat     *model.Features
	from, to int
	frames   int // frames decoded, margins included
}

// runWindow predicts if the job has no features yet, then decodes its window.
func (s *scheduler) runWindow(j *job, slot int) ([]float32, *windowResult, error) {
	sp := s.syn.(Splitter)
	w := j.window
	if w.feat == nil {
		f, err := sp.Predict(j.ctx, slot, j.ids, j.style, j.speed)
		if err != nil {
			return nil, nil, err
		}
		w.feat, w.first = f, true
		w.from, w.to = w.cut(f.Spans)
	}
	f := w.feat
	total := f.Frames * model.FrameSamples
	end := min(w.to+w.hold, total)
	fa, fb := w.from/model.FrameSamples, (end+model.FrameSamples-1)/model.FrameSamples
	// Margins only where the window joins another: the first window starts in the run's
	// lead silence, which needs no context before it.
	win := model.Window{From: fa, To: fb, Before: decodeMargin, After: decodeMargin}
	if w.first {
		win.Before = 0
	}
	pcm, err := sp.Decode(j.ctx, slot, f, win)
	if err != nil {
		return nil, nil, err
	}
	off := fa * model.FrameSamples
	frames := min(f.Frames, fb+win.After) - max(0, fa-win.Before)
	return pcm[w.from-off : end-off], &windowResult{feat: f, from: w.from, to: w.to, frames: frames}, nil
}

// runPlan is where a run's words lie: the samples of the run at which its first word starts,
// the later words' starts (where a window may end), and where its audio may end: its last
// word's end, the pause its join asks for and tailSlack, the silence after that being trimmed
// by reframe anyway.
type runPlan struct {
	first int
	cuts  []int
	end   int
}

func planRun(c chunk.Chunk, spans []int, end chunk.Break) runPlan {
	total := 0
	for _, s := range spans {
		total += s
	}
	words := placeWords(c, boundsFromSpans(spans, 0, len(c.IDs), 0), 0, total, samples(SoundLead))
	if len(words) == 0 {
		return runPlan{end: total}
	}
	p := runPlan{first: words[0].Start, end: min(total, words[len(words)-1].End+samples(JoinPause(end)+tailSlack))}
	for _, w := range words[1:] {
		if w.Start > words[0].Start && w.Start < p.end {
			p.cuts = append(p.cuts, w.Start)
		}
	}
	return p
}

// firstCut is the first window of chunk c, as seen by slots that make a frame in perFrame:
// from a little before its first word to the first word start at least firstWindow after it
// from which the later windows, paced as laterCut paces them, keep ahead of playback; the
// whole run when none does.
func firstCut(c chunk.Chunk, end chunk.Break, perFrame time.Duration) func(spans []int) (int, int) {
	return func(spans []int) (int, int) {
		p := planRun(c, spans, end)
		// On the frame grid of the run and of the 10 ms grid the lead is trimmed on, so the
		// first window's lead is trimmed where the whole run's would be.
		grid := 2 * model.FrameSamples
		from := max(0, p.first-samples(firstLead))
		from -= from % grid
		i, _ := slices.BinarySearch(p.cuts, p.first+samples(firstWindow))
		for ; i < len(p.cuts); i++ {
			if p.end-p.cuts[i] < samples(minWindow) {
				break
			}
			if keepsAhead(p, p.cuts[i], time.Duration(p.cuts[i]-p.first)*time.Second/api.SampleRate+JoinLead, perFrame) {
				return from, p.cuts[i]
			}
		}
		return from, p.end
	}
}

// keepsAhead reports whether the windows after [.., from) of the run, paced by laterCut at
// perFrame a frame, are each made before the audio before them has played, ahead being the
// audio sent when the first of them is due.
func keepsAhead(p runPlan, from int, ahead, perFrame time.Duration) bool {
	for from < p.end {
		to := p.laterCut(from, ahead, perFrame)
		cost := perFrame * time.Duration((to-from)/model.FrameSamples+2*decodeMargin)
		if cost > ahead {
			return false
		}
		ahead += time.Duration(to-from)*time.Second/api.SampleRate - cost
		from = to
	}
	return true
}

// nextCut is the first of cuts at or after want, or end when none is, or when it would leave
// less than minWindow before end.
func (p runPlan) nextCut(from, want int) int {
	i, _ := slices.BinarySearch(p.cuts, max(want, from+1))
	if i == len(p.cuts) || p.end-p.cuts[i] < samples(minWindow) {
		return p.end
	}
	return p.cuts[i]
}

// laterCut is where the window after [.., from) ends: as much as the slots make in paceMargin
// of ahead (the audio already sent that has not yet played), at perFrame a frame with the
// decoder's margins.
func (p runPlan) laterCut(from int, ahead, perFrame time.Duration) int {
	frames := 0
	if perFrame > 0 {
		frames = int(float64(ahead)*paceMargin/float64(perFrame)) - 2*decodeMargin
	}
	if frames*model.FrameSamples < samples(minWindow) {
		// Behind playback already: one window for the rest wastes least on margins.
		return p.end
	}
	want := from + frames*model.FrameSamples
	if want >= p.end {
		return p.end
	}
	// The last cut that fits, leaving minWindow on both sides; else the first after want.
	best := -1
	for _, c := range p.cuts {
		if c-from >= samples(minWindow) && c <= want && p.end-c >= samples(minWindow) {
			best = c
		}
	}
	if best >= 0 {
		return best
	}
	return p.nextCut(from, want)
}

// paceMargin is the share of the audio still to play that the next window's model time may
// take: the rest absorbs a window slower than its estimate and the trip to the listener.
const paceMargin = 0.7

// pieces carries one chunk's windows through the engine: what was sent of the run's audio and
// the tail held for the crossfade into the next window.
type pieces struct {
	c     chunk.Chunk
	words []Word // the chunk's words in the run's samples
	spans []int
	plan  runPlan
	sent  int       // the run's samples up to which windows have been emitted
	tail  []float32 // the window before's audio past sent, to fade under the next
	// shift is where the first emitted sample lies in the run's samples (the lead trimmed).
	shift int
}

// take turns a window's audio into the piece of the chunk that the listener hears: joined to
// the window before by a crossfade, the chunk's lead silence trimmed off its first piece and
// its tail reframed for the join after its last. It returns the audio and its words.
func (p *pieces) take(r *windowResult, pcm []float32, end chunk.Break, resumes bool) ([]float32, []Word, bool) {
	first := p.spans == nil
	if first {
		p.spans = r.feat.Spans
		p.plan = planRun(p.c, p.spans, end)
		total := r.feat.Frames * model.FrameSamples
		p.words = placeWords(p.c, boundsFromSpans(p.spans, 0, len(p.c.IDs), 0), 0, total, samples(SoundLead))
	}
	own := r.to - r.from
	out := append([]float32(nil), pcm[:own]...)
	if n := min(len(p.tail), len(out)); n > 0 {
		for i := range n {
			a := float32(i+1) / float32(n+1)
			out[i] = p.tail[i]*(1-a) + out[i]*a
		}
	}
	p.tail = append(p.tail[:0], pcm[own:]...)
	last := r.to >= p.plan.end
	start := r.from
	if first {
		var from int
		out, from = reframe(out, end, resumes, false, !last)
		start += from
		p.shift = start
	} else if last {
		out, _ = reframe(out, end, resumes, true, false)
	}
	p.sent = r.to
	var words []Word
	for _, w := range p.words {
		if w.Start < r.from || (w.Start >= r.to && !last) {
			continue
		}
		words = append(words, w.shifted(start, len(out)))
	}
	return out, words, last
}

// next is the window job after the last one taken, due at deadline.
func (p *pieces) next(ctx context.Context, j *job, deadline time.Time, ahead, perFrame time.Duration) *job {
	to := p.plan.laterCut(p.sent, ahead, perFrame)
	hold := 0
	if to < p.plan.end {
		hold = samples(joinCrossfade)
	}
	return &job{ctx: ctx, deadline: deadline, ids: j.ids, style: j.style, speed: j.speed,
		window: &window{feat: j.window.feat, from: p.sent, to: to, hold: hold}}
}

// nextWord is the first word of the chunk not yet sent.
func (p *pieces) nextWord() string {
	for _, w := range p.words {
		if w.Start >= p.sent {
			return w.Text
		}
	}
	return ""
}

// windowText is the text of the words a piece speaks.
func windowText(words []Word) string {
	s := ""
	for i, w := range words {
		if i > 0 {
			s += " "
		}
		s += w.Text
	}
	return s
}

package chunk

import (
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Policy is how an engine cuts requests into chunks: the chunking settings of the
// configuration table, held as one value (tts.Config and tts.LoadConfig embed it). For turns it
// into one request's Options by what the model's slots show at the time.
type Policy struct {
	FirstChunkMaxIDs int // ids in the first chunk; 0 = DefaultFirstChunkMaxIDs (DefaultEarlyFirstChunkMaxIDs for an early FirstChunkAt)
	// FirstChunkMinIDs is the shortest first chunk that may end at punctuation: a comma after
	// one word is not yet a phrase worth its own pitch contour. 0 = DefaultFirstChunkMinIDs.
	FirstChunkMinIDs int
	// FirstChunkAt is the weakest boundary the first chunk may end on (American voices; a
	// British one starts on a whole sentence): punctuation by default; auto follows the load.
	FirstChunkAt FirstAt
	// ChunkContext runs each chunk cut between two words with the word across the cut, the
	// synthesizer keeping only the chunk's own audio (Options.Context), where the synthesizer
	// aligns (Slots.Aligns) and the request is alone: auto and on do, off does not.
	ChunkContext model.Toggle
	// MaxChunkIDs bounds every later chunk (0 = model.MaxIDs). A slot is not preempted while it
	// runs a chunk, so the chunk size is the scheduler's granularity: a new request's first
	// chunk can wait behind one whole chunk of another request. At a speed under 1 the same
	// ids make longer audio, and the model's memory and time grow with the audio: the budget
	// shrinks by the speed.
	MaxChunkIDs int
	// Ramp bounds each later chunk to Ramp times the ids before it, so it is synthesized
	// while they play. 0 = paced: each later chunk is cut to what the slots, at the speed they
	// have shown (Slots.Pace), make while the audio before it plays (DefaultRamp until they
	// have shown it); below 0 = no ramp.
	Ramp float64
}

// Slots is what the model's slots show when a request arrives.
type Slots struct {
	// Pace is the audio one id plays over the model's time per id and OverheadIDs, on the slot
	// the request would run on; 0 until the slots have run a chunk and played one.
	Pace float64
	// Idle: no other request is being spoken or waits, so this one has the slots to itself.
	Idle bool
	// Backlogged: chunks already wait for a slot.
	Backlogged bool
	// Aligns: the synthesizer can say where each id's audio lies, so that a chunk can be
	// run with the words across its cuts (Options.Context).
	Aligns bool
	// Windows: the synthesizer hears a chunk whole and sends its audio window by window, so
	// the first audio waits for one window whatever the chunk's length: every chunk is whole
	// sentences up to model.MaxIDs, and the chunking settings do not apply.
	Windows bool
}

// DefaultRamp lets each chunk after the first be up to three times the ids before it, until
// the slots have shown their speed: on CPU the model makes audio two to three times faster
// than real time on one core, so a chunk three times as long as the audio already sent is
// ready before that audio has played.
const DefaultRamp = 3.0

// OverheadIDs is the lead and tail silence the model makes around every chunk, in ids: a
// chunk of n ids costs the model about what n+OverheadIDs ids of speech do
// (docs/performance.md has the measurement).
const OverheadIDs = 18

// paceMargin is the share of the audio still to play that the next chunk's model time may
// take: the rest absorbs a chunk slower than its estimate and the trip to the listener.
const paceMargin = 0.7

// wholeMargin is the share of the audio still to play that the rest of a sentence, taken whole
// as the next chunk, may take: a cut costs the model a chunk's overhead (OverheadIDs) again.
const wholeMargin = 0.9

// For is the Options of a request in lang at speed, cut by p while the slots show s:
//   - The first chunk is one phrase (FirstChunkAt) while the slots keep up; when chunks
//     already wait for a slot it is packed like the others, since every chunk costs the
//     model its overhead again and a small first chunk then only lengthens the queue.
//   - Context (ChunkContext) costs the model the words across each cut: only a request alone
//     on the slots has the time to spare for them.
//   - With Ramp 0, later chunks are paced by s.Pace with paceMargin (and the rest of a
//     sentence taken whole within wholeMargin while alone, where the model's time varies
//     little), else DefaultRamp; British voices keep the ramp, since pacing cuts sentences
//     where the slots are slow and a cut British sentence is heard worse.
//   - FirstAtAuto starts a lone request heard with context on its first words, else on its
//     first phrase, which leaves shared slots time to make the rest before it has played.
//   - British voices start on a whole sentence, as the reference speaks it
//     (docs/listening.md).
func (p Policy) For(lang string, speed float64, s Slots) Options {
	if s.Windows {
		o := Options{Lang: lang, FirstChunkWholeSentence: true}
		o.MaxChunkIDs = maxChunkIDs(model.MaxIDs, speed)
		return o
	}
	british := phonemize.IsBritish(lang)
	o := Options{Policy: p, Lang: lang, Context: s.Aligns && p.ChunkContext != model.ToggleOff && s.Idle}
	o.Ramp = max(p.Ramp, 0)
	if p.Ramp == 0 {
		if s.Pace > 0 && !british {
			o.Pace, o.PaceOverhead = s.Pace*paceMargin, OverheadIDs
			if s.Idle {
				o.PaceWhole = wholeMargin / paceMargin
			}
		} else {
			o.Ramp = DefaultRamp
		}
	}
	o.MaxChunkIDs = maxChunkIDs(o.MaxChunkIDs, speed)
	if s.Backlogged {
		o.FirstChunkMaxIDs, o.FirstChunkMinIDs, o.FirstChunkAt = o.MaxChunkIDs, model.MaxIDs, FirstAtPunctuation
	}
	if o.FirstChunkAt == FirstAtAuto {
		o.FirstChunkAt = FirstAtPunctuation
		if o.Context {
			o.FirstChunkAt = FirstAtWord
		}
	}
	o.FirstChunkWholeSentence = british
	return o
}

// maxChunkIDs is the bound on a chunk's ids at speed: at most model.MaxIDs, shrunk by a speed
// under 1, at which the same ids make longer audio and the model's memory and time grow with it.
func maxChunkIDs(n int, speed float64) int {
	if n <= 0 || n > model.MaxIDs {
		n = model.MaxIDs
	}
	if speed < 1 {
		n = max(1, int(float64(n)*speed))
	}
	return n
}

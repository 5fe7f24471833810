package tts

import (
	"context"
	"errors"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Synthesizer runs the acoustic model. Slot i may be used by one caller at a time.
type Synthesizer interface {
	Slots() int
	Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error)
}

// Aligner is a Synthesizer that can say where each id's audio lies: SynthesizeAligned returns
// the samples each padded id makes (a pad, the ids, a pad), summing to the PCM's length.
// When it Aligns, the engine runs a chunk cut between two words with the words across the
// cut and keeps only the chunk's own audio (chunk.Options.Context).
type Aligner interface {
	Aligns() bool
	SynthesizeAligned(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, []int, error)
}

// Voices reads a voice spec (a name or a blend such as "af_bella(2)+af_sky(1)") into its pack
// (*model.Voices has it). The engine's check is its one caller (CheckVoice).
type Voices interface {
	Resolve(spec string) (model.Pack, error)
	Names() []string
}

// Phonemizer turns text into model-sized chunks of phoneme ids (chunk.Chunker).
type Phonemizer interface {
	Chunks(text string, opt chunk.Options) ([]chunk.Chunk, error)
}

// Request is one utterance to speak, as a client wrote it; the engine's check reads it once
// into a Resolved, which is what it speaks.
type Request struct {
	ID    string
	Text  string
	Voice string   // name or blend; "" = the engine's default voice
	Speed *float64 // nil = 1.0; a given speed must lie in [api.MinSpeed, api.MaxSpeed]
	Lang  string   // a language name or code (phonemize.ParseLang); "" = from the voice's prefix
	// Aliases are names the request may use in place of a voice; nil maps none.
	Aliases Aliases
	// Resumes marks text that goes on from the previous request's speech, which ended a
	// sentence (text streamed sentence by sentence): its first chunk then starts after a
	// sentence's pause (JoinPause) instead of the short lead of a new utterance.
	Resumes bool
	// Markup is the text as SSML read into segments (markup.Doc.Segments), spoken by
	// StreamMarkup; Text is then their words, for the checks on the whole text.
	Markup []markup.Segment
	// Switches turn off the English reader's rewrites of telephone numbers and units, or
	// drop lone symbols (phonemize.Switches); the zero value keeps them.
	Switches phonemize.Switches
}

// Chunk is one piece of synthesized audio, delivered in order.
type Chunk struct {
	Index     int
	Text      string
	Phonemes  string
	PCM       []float32 // mono, api.SampleRate Hz, in [-1, 1]; silence reframed for its join (JoinPause)
	Words     []Word    // the words it speaks, where they lie in PCM
	ModelTime time.Duration
	QueueWait time.Duration // from the chunk becoming runnable to a slot taking it
	Slot      int
	Final     bool
	Marks     []Mark // SSML <mark>s the audio reaches in this chunk (StreamMarkup)
}

// Duration is the playback length of the chunk's audio.
func (c Chunk) Duration() time.Duration {
	return time.Duration(len(c.PCM)) * time.Second / api.SampleRate
}

// Stats summarizes one finished (or cancelled) stream.
type Stats struct {
	Chunks         int
	AudioDuration  time.Duration
	ModelTime      time.Duration // summed over chunks
	FirstChunkTime time.Duration // model time of the first chunk
	TTFA           time.Duration // Stream call → first chunk handed to emit
	Elapsed        time.Duration
	// NextWord is the first word of the chunk the stream stopped at when it stopped early
	// (cancelled, failed, or emit failed): the first word not spoken whole. "" when every
	// chunk was emitted.
	NextWord string
}

// Errors a transport maps to client errors.
var (
	// ErrEmptyText is the phonemizer's own sentinel, so that "nothing speakable" found while
	// phonemizing is the same client error as a blank text found by Check.
	ErrEmptyText    = phonemize.ErrEmptyText
	ErrTextTooLong  = errors.New("text too long")
	ErrUnknownVoice = errors.New("unknown voice")
	ErrBadSpeed     = errors.New("speed out of range")
	ErrClosed       = errors.New("engine closed")
	// ErrUnsupportedLang is a lang, or a voice's language, that the engine does not speak;
	// the message names the languages it does.
	ErrUnsupportedLang = phonemize.ErrUnsupportedLang
)

// Config tunes the engine.
type Config struct {
	DefaultVoice string
	MaxTextChars int // 0 = unlimited
	// Policy is how requests are cut into chunks (chunk.Policy.For, by what the slots show).
	chunk.Policy
	TTFABTarget time.Duration // deadline of a new request's first chunk; 0 = 300ms
	// Windows hears each sentence whole and sends its audio in decoder windows, where the
	// synthesizer splits (Splitter): first audio after the predictor and one window instead
	// of a whole chunk; the chunking Policy then does not apply.
	Windows bool
	// Cores is the number of cores the model slots share: with slots of different widths, a
	// slot runs only when its threads fit in the cores left (see the scheduler). 0 = each
	// slot has cores of its own.
	Cores    int
	Observer Observer // optional
}

// Observer sees each chunk the slots run, for metrics. Calls come from slot goroutines.
type Observer interface {
	ChunkDone(slot int, modelTime, queueWait time.Duration, audio time.Duration)
	QueueDepth(n int)
}

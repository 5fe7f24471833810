package codec

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

// Encoder turns samples into one format's bytes, in the order they are spoken. It is not safe
// for concurrent use. Close must be called once the encoder is no longer needed, whether or not
// Finish was: some encoders hold C memory.
type Encoder interface {
	// Write appends to dst the bytes that samples complete. An encoder that codes in frames
	// keeps the remainder for the next call, so the result may be empty.
	Write(dst []byte, samples []float32) ([]byte, error)
	// Finish appends what is still buffered and the end of the stream. Call it once, last.
	Finish(dst []byte) ([]byte, error)
	// Close frees the encoder. It is safe to call more than once.
	Close()
}

// Format is one audio format a route can answer with.
type Format struct {
	Name        string // as requests spell it (api.Format*)
	ContentType string
	// New starts an encoder. total is the number of samples the stream will hold when it is
	// known before the first byte leaves (a complete file), or -1 for a stream, whose header
	// then says "unknown length" where the format has one.
	New func(total int) (Encoder, error)
}

// ErrNoEncoder is a format that is understood but has no encoder in this build.
var ErrNoEncoder = errors.New("no encoder for this format")

var formats = []Format{
	{Name: api.FormatMP3, ContentType: "audio/mpeg", New: newMP3},
	{Name: api.FormatOpus, ContentType: "audio/ogg; codecs=opus", New: newOpus},
	{Name: api.FormatFLAC, ContentType: "audio/flac", New: newFLAC},
	{Name: api.FormatWAV, ContentType: "audio/wav", New: newWAV},
	{Name: api.FormatPCM, ContentType: fmt.Sprintf("audio/pcm;rate=%d;channels=1;encoding=s16le", api.SampleRate), New: newPCM},
}

// Names lists the formats there are encoders for, in the order error messages list them.
func Names() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Name
	}
	return out
}

// Lookup finds a format by its name. AAC is known but refused with ErrNoEncoder: no AAC
// encoder is maintained in Debian's main archive outside FFmpeg's libavcodec, whose
// dependencies would add far more to the image than the server itself (docs/server.md).
func Lookup(name string) (Format, error) {
	for _, f := range formats {
		if f.Name == name {
			return f, nil
		}
	}
	if name == api.FormatAAC {
		return Format{}, fmt.Errorf("%w: %s", ErrNoEncoder, name)
	}
	return Format{}, fmt.Errorf("unknown format %q; supported: %v", name, Names())
}

// Known reports whether name is one of the formats the routes accept.
func Known(name string) bool { return slices.Contains(Names(), name) }

// pcmEncoder writes bare PCM16 LE.
type pcmEncoder struct{}

func newPCM(int) (Encoder, error) { return pcmEncoder{}, nil }

func (pcmEncoder) Write(dst []byte, s []float32) ([]byte, error) {
	return audio.AppendPCM16(dst, s), nil
}
func (pcmEncoder) Finish(dst []byte) ([]byte, error) { return dst, nil }
func (pcmEncoder) Close()                            {}

// wavEncoder writes the 44-byte header before the first samples: with the real sizes when the
// total is known, else with the streaming placeholder 0xFFFFFFFF in both size fields.
type wavEncoder struct {
	total   int
	started bool
}

func newWAV(total int) (Encoder, error) { return &wavEncoder{total: total}, nil }

func (w *wavEncoder) header(dst []byte) []byte {
	if w.started {
		return dst
	}
	w.started = true
	size := uint32(audio.UnknownSize)
	if w.total >= 0 {
		size = uint32(2 * w.total)
	}
	return audio.AppendWAVHeader(dst, audio.Mono24k, size)
}

func (w *wavEncoder) Write(dst []byte, s []float32) ([]byte, error) {
	return audio.AppendPCM16(w.header(dst), s), nil
}

func (w *wavEncoder) Finish(dst []byte) ([]byte, error) { return w.header(dst), nil }
func (w *wavEncoder) Close()                            {}

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
	Name string // as requests spell it (api.Format*)
	// ContentType is the media type at the model's rate; ContentTypeAt gives it at another.
	ContentType string
	// Rates are the sample rates the format can be encoded at; nil = every rate a request
	// may ask for (api.SampleRates). DefaultRate is the rate when a request names none; 0 =
	// the model's.
	Rates       []int
	DefaultRate int
	// New starts an encoder of samples at rate (one of Rates). total is the number of samples
	// the stream will hold when it is known before the first byte leaves (a complete file), or
	// -1 for a stream, whose header then says "unknown length" where the format has one.
	New func(total, rate int) (Encoder, error)
	// typeAt is the media type at a rate, for the formats that name theirs.
	typeAt func(rate int) string
}

// ContentTypeAt is the format's media type for samples at rate.
func (f Format) ContentTypeAt(rate int) string {
	if f.typeAt != nil {
		return f.typeAt(rate)
	}
	return f.ContentType
}

// Rate is the sample rate a request for this format gets: asked (0 = none asked for) or the
// format's default.
func (f Format) Rate(asked int) int {
	switch {
	case asked != 0:
		return asked
	case f.DefaultRate != 0:
		return f.DefaultRate
	}
	return api.SampleRate
}

// ValidRates lists the rates the format can be encoded at.
func (f Format) ValidRates() []int {
	if f.Rates != nil {
		return slices.Clone(f.Rates)
	}
	return api.SampleRates()
}

// ErrNoEncoder is a format that is understood but has no encoder in this build.
var ErrNoEncoder = errors.New("no encoder for this format")

// telephone is the one rate of G.711.
var telephone = []int{8000}

var formats = []Format{
	// MP3 at 8 kHz would be MPEG 2.5, an extension of the standard many decoders lack.
	{Name: api.FormatMP3, ContentType: "audio/mpeg", New: newMP3, Rates: []int{16000, 22050, 24000, 44100, 48000}},
	{Name: api.FormatOpus, ContentType: "audio/ogg; codecs=opus", New: newOpus, Rates: []int{8000, 16000, 24000, 48000}},
	{Name: api.FormatFLAC, ContentType: "audio/flac", New: newFLAC},
	{Name: api.FormatWAV, ContentType: "audio/wav", New: newWAV},
	{Name: api.FormatPCM, ContentType: pcmType(api.SampleRate), New: newPCM, typeAt: pcmType},
	// RFC 4856's names of G.711.
	{Name: api.FormatMulaw, ContentType: "audio/PCMU;rate=8000", New: newG711(audio.AppendMulaw), Rates: telephone, DefaultRate: 8000},
	{Name: api.FormatAlaw, ContentType: "audio/PCMA;rate=8000", New: newG711(audio.AppendAlaw), Rates: telephone, DefaultRate: 8000},
}

func pcmType(rate int) string {
	return fmt.Sprintf("audio/pcm;rate=%d;channels=1;encoding=s16le", rate)
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

func newPCM(_, _ int) (Encoder, error) { return pcmEncoder{}, nil }

func (pcmEncoder) Write(dst []byte, s []float32) ([]byte, error) {
	return audio.AppendPCM16(dst, s), nil
}
func (pcmEncoder) Finish(dst []byte) ([]byte, error) { return dst, nil }
func (pcmEncoder) Close()                            {}

// g711Encoder writes bare G.711 bytes, one a sample.
type g711Encoder struct {
	code func(dst []byte, s []float32) []byte
}

func newG711(code func([]byte, []float32) []byte) func(int, int) (Encoder, error) {
	return func(int, int) (Encoder, error) { return g711Encoder{code}, nil }
}

func (e g711Encoder) Write(dst []byte, s []float32) ([]byte, error) { return e.code(dst, s), nil }
func (g711Encoder) Finish(dst []byte) ([]byte, error)               { return dst, nil }
func (g711Encoder) Close()                                          {}

// wavEncoder writes the 44-byte header before the first samples: with the real sizes when the
// total is known, else with the streaming placeholder 0xFFFFFFFF in both size fields.
type wavEncoder struct {
	total   int
	rate    int
	started bool
}

func newWAV(total, rate int) (Encoder, error) { return &wavEncoder{total: total, rate: rate}, nil }

func (w *wavEncoder) header(dst []byte) []byte {
	if w.started {
		return dst
	}
	w.started = true
	size := uint32(audio.UnknownSize)
	if w.total >= 0 {
		size = uint32(2 * w.total)
	}
	return audio.AppendWAVHeader(dst, audio.Format{SampleRate: w.rate, Channels: 1}, size)
}

func (w *wavEncoder) Write(dst []byte, s []float32) ([]byte, error) {
	return audio.AppendPCM16(w.header(dst), s), nil
}

func (w *wavEncoder) Finish(dst []byte) ([]byte, error) { return w.header(dst), nil }
func (w *wavEncoder) Close()                            {}

package codec

/*
#cgo LDFLAGS: -lopus
#include <opus/opus.h>

// opus_encoder_ctl is variadic, which cgo cannot call: one wrapper per request used here.
static int kk_opus_set(OpusEncoder *e, int request, opus_int32 v) {
	return opus_encoder_ctl(e, request, v);
}
static int kk_opus_lookahead(OpusEncoder *e, opus_int32 *v) {
	return opus_encoder_ctl(e, OPUS_GET_LOOKAHEAD(v));
}
*/
import "C"

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/kokoro-sm/kokoro/audio"
)

// Opus settings. libopus takes the model's 24 kHz directly (and 8, 12, 16 and 48 kHz); packets of 20 ms, the usual frame
// for speech; 32 kbit/s for a voice whose band ends at 12 kHz. Complexity 5 instead of the
// default 10 costs 42 % less CPU for the same size (11.7 against 20.1 CPU ms per second of
// speech, BenchmarkEncoders/opus run alternately) and decodes as close to the input
// (TestEncodersRoundTrip logs the correlation). The Ogg granule positions count at 48 kHz
// whatever the input rate (RFC 7845).
const (
	opusBitrate     = 32000
	opusGranuleRate = 48000
	opusMaxPacket   = 1500
	opusComplexity  = 5
)

var errClosed = errors.New("encoder is closed")

type opusEncoder struct {
	enc     *C.OpusEncoder
	rate    int // the input's
	frame   int // samples in 20 ms
	ogg     oggStream
	preSkip int // at 48 kHz
	headers bool

	pending []int16 // samples short of a whole frame
	frames  int64   // frames encoded so far
	samples int64   // real samples taken so far
	packet  []byte
}

// opusRates are the input rates libopus takes.
var opusRates = []int{8000, 12000, 16000, 24000, 48000}

func newOpus(_, rate int) (Encoder, error) {
	if !slices.Contains(opusRates, rate) {
		return nil, fmt.Errorf("opus: %d Hz is not an Opus rate (%v)", rate, opusRates)
	}
	var cerr C.int
	enc := C.opus_encoder_create(C.opus_int32(rate), 1, C.OPUS_APPLICATION_AUDIO, &cerr)
	if cerr != C.OPUS_OK || enc == nil {
		return nil, fmt.Errorf("opus: opus_encoder_create: %s", C.GoString(C.opus_strerror(cerr)))
	}
	e := &opusEncoder{enc: enc, rate: rate, frame: rate / 50, packet: make([]byte, opusMaxPacket)}
	for _, set := range [][2]C.int{
		{C.OPUS_SET_BITRATE_REQUEST, opusBitrate},
		{C.OPUS_SET_SIGNAL_REQUEST, C.OPUS_SIGNAL_VOICE},
		{C.OPUS_SET_COMPLEXITY_REQUEST, opusComplexity},
	} {
		if rc := C.kk_opus_set(enc, set[0], C.opus_int32(set[1])); rc != C.OPUS_OK {
			e.Close()
			return nil, fmt.Errorf("opus: opus_encoder_ctl(%d): %s", int(set[0]), C.GoString(C.opus_strerror(rc)))
		}
	}
	var look C.opus_int32
	if rc := C.kk_opus_lookahead(enc, &look); rc != C.OPUS_OK {
		e.Close()
		return nil, fmt.Errorf("opus: lookahead: %s", C.GoString(C.opus_strerror(rc)))
	}
	e.preSkip = int(look) * opusGranuleRate / rate
	var serial [4]byte
	_, _ = rand.Read(serial[:])
	e.ogg.serial = binary.LittleEndian.Uint32(serial[:])
	return e, nil
}

// writeHeaders writes the two header pages RFC 7845 requires, each a page of its own.
func (e *opusEncoder) writeHeaders(dst []byte) []byte {
	if e.headers {
		return dst
	}
	e.headers = true
	head := append([]byte("OpusHead"), 1, 1) // version 1, one channel
	head = binary.LittleEndian.AppendUint16(head, uint16(e.preSkip))
	head = binary.LittleEndian.AppendUint32(head, uint32(e.rate)) // the input rate, informative
	head = binary.LittleEndian.AppendUint16(head, 0)              // output gain
	head = append(head, 0)                                        // channel mapping family 0
	dst = e.ogg.add(dst, head, 0)
	dst = e.ogg.flush(dst, false)
	vendor := C.GoString(C.opus_get_version_string())
	tags := append([]byte("OpusTags"), binary.LittleEndian.AppendUint32(nil, uint32(len(vendor)))...)
	tags = append(tags, vendor...)
	tags = binary.LittleEndian.AppendUint32(tags, 0) // no user comments
	dst = e.ogg.add(dst, tags, 0)
	return e.ogg.flush(dst, false)
}

// encodeFrame codes one frame of e.frame samples into a packet on the open page.
func (e *opusEncoder) encodeFrame(dst []byte, frame []int16, granule int64) ([]byte, error) {
	n := C.opus_encode(e.enc, (*C.opus_int16)(unsafe.Pointer(&frame[0])), C.int(e.frame),
		(*C.uchar)(unsafe.Pointer(&e.packet[0])), C.opus_int32(len(e.packet)))
	if n < 0 {
		return dst, fmt.Errorf("opus: opus_encode: %s", C.GoString(C.opus_strerror(C.int(n))))
	}
	e.frames++
	if granule < 0 {
		granule = e.frames * int64(e.frame*opusGranuleRate/e.rate)
	}
	return e.ogg.add(dst, e.packet[:n], granule), nil
}

func (e *opusEncoder) Write(dst []byte, samples []float32) ([]byte, error) {
	if e.enc == nil {
		return dst, errClosed
	}
	dst = e.writeHeaders(dst)
	for _, s := range samples {
		e.pending = append(e.pending, audio.ToInt16(s))
	}
	e.samples += int64(len(samples))
	var err error
	for len(e.pending) >= e.frame {
		if dst, err = e.encodeFrame(dst, e.pending[:e.frame], -1); err != nil {
			return dst, err
		}
		e.pending = e.pending[e.frame:]
	}
	e.pending = append(e.pending[:0:0], e.pending...)
	// Each call's audio leaves at once: a page per call.
	return e.ogg.flush(dst, false), nil
}

// Finish codes the remainder padded with silence, and enough silence after it for the
// encoder's lookahead to come out, then ends the stream with a granule position that trims the
// padding (RFC 7845, section 4.4).
func (e *opusEncoder) Finish(dst []byte) ([]byte, error) {
	if e.enc == nil {
		return dst, errClosed
	}
	dst = e.writeHeaders(dst)
	end := int64(e.preSkip) + e.samples*opusGranuleRate/int64(e.rate)
	frame := make([]int16, e.frame)
	var err error
	for {
		n := copy(frame, e.pending)
		clear(frame[n:])
		e.pending = e.pending[n:]
		last := len(e.pending) == 0 && (e.frames+1)*int64(e.frame*opusGranuleRate/e.rate) >= end
		granule := int64(-1)
		if last {
			granule = end
		}
		if dst, err = e.encodeFrame(dst, frame, granule); err != nil {
			return dst, err
		}
		if last {
			return e.ogg.flush(dst, true), nil
		}
	}
}

func (e *opusEncoder) Close() {
	if e.enc != nil {
		C.opus_encoder_destroy(e.enc)
		e.enc = nil
	}
}

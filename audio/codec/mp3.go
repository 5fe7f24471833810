package codec

/*
#cgo LDFLAGS: -lmp3lame
#include <stdlib.h>
#include <lame/lame.h>

// kk_lame_open configures LAME for the model's audio: mono in and out at the same rate,
// constant bit rate, and no Xing/Info frame (it is only correct once the whole file is known,
// and a streamed file never is).
static lame_global_flags *kk_lame_open(int rate, int kbps, int quality) {
	lame_global_flags *gf = lame_init();
	if (gf == NULL) return NULL;
	lame_set_in_samplerate(gf, rate);
	lame_set_out_samplerate(gf, rate);
	lame_set_num_channels(gf, 1);
	lame_set_mode(gf, MONO);
	lame_set_VBR(gf, vbr_off);
	lame_set_brate(gf, kbps);
	lame_set_quality(gf, quality);
	lame_set_bWriteVbrTag(gf, 0);
	if (lame_init_params(gf) < 0) {
		lame_close(gf);
		return NULL;
	}
	return gf;
}

static int kk_lame_encode(lame_global_flags *gf, const short *pcm, int n, unsigned char *out, int size) {
	return lame_encode_buffer(gf, pcm, pcm, n, out, size);
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/kokoro-sm/kokoro/audio"
)

// MP3 settings: speech at 24 kHz mono is MPEG-2 Layer III, whose players are everywhere. 64 kbit/s
// constant rate keeps the voice clean (the model's band ends at 12 kHz) and lets a player
// estimate the duration of a stream from its size. Quality 3 is LAME's own default for its
// command line; BenchmarkEncoders measures its cost.
const (
	mp3Kbps    = 64
	mp3Quality = 3
)

// lameFlushBytes is what lame_encode_flush may write at most (LAME's documented minimum).
const lameFlushBytes = 7200

type mp3Encoder struct {
	gf  *C.lame_global_flags
	pcm []int16
	out []byte
}

func newMP3(_, rate int) (Encoder, error) {
	gf := C.kk_lame_open(C.int(rate), mp3Kbps, mp3Quality)
	if gf == nil {
		return nil, fmt.Errorf("mp3: LAME refused the settings (%d Hz mono, %d kbit/s)", rate, mp3Kbps)
	}
	return &mp3Encoder{gf: gf}, nil
}

func (e *mp3Encoder) Write(dst []byte, samples []float32) ([]byte, error) {
	if e.gf == nil {
		return dst, errClosed
	}
	if len(samples) == 0 {
		return dst, nil
	}
	e.pcm = e.pcm[:0]
	for _, s := range samples {
		e.pcm = append(e.pcm, audio.ToInt16(s))
	}
	// LAME's bound for one call: 1.25 bytes per sample plus 7200.
	need := len(samples) + len(samples)/4 + lameFlushBytes
	if cap(e.out) < need {
		e.out = make([]byte, need)
	}
	e.out = e.out[:need]
	n := C.kk_lame_encode(e.gf, (*C.short)(unsafe.Pointer(&e.pcm[0])), C.int(len(e.pcm)),
		(*C.uchar)(unsafe.Pointer(&e.out[0])), C.int(need))
	if n < 0 {
		return dst, fmt.Errorf("mp3: lame_encode_buffer failed (%d)", int(n))
	}
	return append(dst, e.out[:n]...), nil
}

func (e *mp3Encoder) Finish(dst []byte) ([]byte, error) {
	if e.gf == nil {
		return dst, errClosed
	}
	var buf [lameFlushBytes]byte
	n := C.lame_encode_flush(e.gf, (*C.uchar)(unsafe.Pointer(&buf[0])), C.int(len(buf)))
	if n < 0 {
		return dst, fmt.Errorf("mp3: lame_encode_flush failed (%d)", int(n))
	}
	return append(dst, buf[:n]...), nil
}

func (e *mp3Encoder) Close() {
	if e.gf != nil {
		C.lame_close(e.gf)
		e.gf = nil
	}
}

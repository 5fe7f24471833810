package codec

import (
	"errors"
	"fmt"
	"io"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"

	"github.com/kokoro-sm/kokoro/audio"
)

// flacBlock is the number of samples in each FLAC frame: 4096 is libFLAC's default, 171 ms at
// 24 kHz, so a streamed chunk holds back less than a fifth of a second until the next one.
const flacBlock = 4096

// flacEncoder writes 16-bit mono FLAC with github.com/mewkiz/flac, whose encoder picks the
// best fixed predictor for each frame. Every FLAC it writes is complete: the file is built in
// a seekable buffer and handed out by Finish, once the encoder has filled in the length, block
// sizes and MD5 of STREAMINFO. The format allows a stream to say "length unknown" (0 samples),
// but libsndfile, and so Python's soundfile, then takes the length as 2^63-1 frames and cannot
// read the file ("array is too big"); a FLAC answer therefore starts when its synthesis ends,
// streamed or not.
type flacEncoder struct {
	enc     *flac.Encoder
	file    *seekBuffer
	pending []int32
	frame   frame.Frame
	rate    uint32
}

// newFLAC starts a FLAC file; total, when known (≥ 0), is written at once and checked by the
// encoder, else the count is filled in at Finish.
func newFLAC(total, rate int) (Encoder, error) {
	info := &meta.StreamInfo{
		BlockSizeMin: flacBlock, BlockSizeMax: flacBlock,
		SampleRate: uint32(rate), NChannels: 1, BitsPerSample: 16,
	}
	if total >= 0 {
		info.NSamples = uint64(total)
	}
	e := &flacEncoder{file: &seekBuffer{}, rate: uint32(rate)}
	enc, err := flac.NewEncoder(e.file, info)
	if err != nil {
		return nil, fmt.Errorf("flac: %w", err)
	}
	e.enc = enc
	return e, nil
}

func (e *flacEncoder) writeFrame(samples []int32) error {
	e.frame = frame.Frame{
		Header: frame.Header{
			HasFixedBlockSize: true, BlockSize: uint16(len(samples)),
			SampleRate: e.rate, Channels: frame.ChannelsMono, BitsPerSample: 16,
		},
		Subframes: []*frame.Subframe{{SubHeader: frame.SubHeader{Pred: frame.PredVerbatim}, Samples: samples, NSamples: len(samples)}},
	}
	if err := e.enc.WriteFrame(&e.frame); err != nil {
		return fmt.Errorf("flac: %w", err)
	}
	return nil
}

func (e *flacEncoder) Write(dst []byte, samples []float32) ([]byte, error) {
	if e.enc == nil {
		return dst, errClosed
	}
	for _, s := range samples {
		e.pending = append(e.pending, int32(audio.ToInt16(s)))
	}
	for len(e.pending) >= flacBlock {
		if err := e.writeFrame(e.pending[:flacBlock]); err != nil {
			return dst, err
		}
		e.pending = e.pending[flacBlock:]
	}
	e.pending = append(e.pending[:0:0], e.pending...)
	return dst, nil // the file is handed out whole by Finish
}

func (e *flacEncoder) Finish(dst []byte) ([]byte, error) {
	if e.enc == nil {
		return dst, errClosed
	}
	if len(e.pending) > 0 {
		if err := e.writeFrame(e.pending); err != nil {
			return dst, err
		}
		e.pending = nil
	}
	err := e.enc.Close() // rewrites STREAMINFO through the seekable buffer
	e.enc = nil
	if err != nil {
		return dst, fmt.Errorf("flac: %w", err)
	}
	return append(dst, e.file.b...), nil
}

func (e *flacEncoder) Close() { e.enc = nil }

// seekBuffer is an in-memory io.WriteSeeker.
type seekBuffer struct {
	b   []byte
	off int
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	if need := s.off + len(p); need > len(s.b) {
		s.b = append(s.b, make([]byte, need-len(s.b))...)
	}
	copy(s.b[s.off:], p)
	s.off += len(p)
	return len(p), nil
}

func (s *seekBuffer) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += int64(s.off)
	case io.SeekEnd:
		offset += int64(len(s.b))
	default:
		return 0, errors.New("seek: bad whence")
	}
	if offset < 0 || offset > int64(len(s.b)) {
		return 0, errors.New("seek: out of range")
	}
	s.off = int(offset)
	return offset, nil
}

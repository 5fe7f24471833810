package codec

/*
#include <opus/opus.h>
*/
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/kokoro-sm/kokoro/api"
)

// OggPage is one page of an Ogg stream as ReadOgg found it.
type OggPage struct {
	Flags   byte // 0x01 continued, 0x02 first, 0x04 last
	Granule int64
	Serial  uint32
	Seq     uint32
	Packets [][]byte // the packets completed on the page
}

// ReadOgg splits an Ogg stream into pages, checking each page's capture pattern, version and
// CRC and that the sequence numbers of one stream follow each other. It is the check the tests
// (and any client in Go) can run on what the server sent.
func ReadOgg(b []byte) ([]OggPage, error) {
	var pages []OggPage
	var partial []byte
	for off := 0; off < len(b); {
		if len(b)-off < 27 || !bytes.Equal(b[off:off+4], []byte("OggS")) || b[off+4] != 0 {
			return pages, fmt.Errorf("ogg: no page at byte %d", off)
		}
		nseg := int(b[off+26])
		hdr := 27 + nseg
		if len(b)-off < hdr {
			return pages, fmt.Errorf("ogg: page at byte %d is cut short", off)
		}
		size := 0
		for _, l := range b[off+27 : off+hdr] {
			size += int(l)
		}
		if len(b)-off < hdr+size {
			return pages, fmt.Errorf("ogg: page at byte %d is cut short", off)
		}
		page := append([]byte(nil), b[off:off+hdr+size]...)
		want := binary.LittleEndian.Uint32(page[22:])
		binary.LittleEndian.PutUint32(page[22:], 0)
		if got := oggCRC(page); got != want {
			return pages, fmt.Errorf("ogg: page at byte %d has CRC %08x, its header says %08x", off, got, want)
		}
		p := OggPage{
			Flags: b[off+5], Granule: int64(binary.LittleEndian.Uint64(b[off+6:])),
			Serial: binary.LittleEndian.Uint32(b[off+14:]), Seq: binary.LittleEndian.Uint32(b[off+18:]),
		}
		if n := len(pages); n > 0 && (pages[n-1].Serial != p.Serial || pages[n-1].Seq+1 != p.Seq) {
			return pages, fmt.Errorf("ogg: page %d of stream %x follows page %d of stream %x", p.Seq, p.Serial, pages[n-1].Seq, pages[n-1].Serial)
		}
		body := b[off+hdr : off+hdr+size]
		for _, l := range b[off+27 : off+hdr] {
			partial = append(partial, body[:l]...)
			body = body[l:]
			if l < 255 {
				p.Packets = append(p.Packets, partial)
				partial = nil
			}
		}
		pages = append(pages, p)
		off += hdr + size
	}
	return pages, nil
}

// DecodeOggOpus decodes a mono Ogg Opus stream to samples at api.SampleRate with libopus,
// dropping the pre-skip at the start and the padding the last granule position trims at the
// end. It checks what RFC 7845 asks of the stream: the OpusHead page first and alone, then
// OpusTags, a last page marked as such, and granule positions that never go back.
func DecodeOggOpus(b []byte) ([]float32, error) {
	pages, err := ReadOgg(b)
	if err != nil {
		return nil, err
	}
	if len(pages) < 3 {
		return nil, fmt.Errorf("opus: %d pages, want the two header pages and audio", len(pages))
	}
	head := pages[0]
	if head.Flags&0x02 == 0 || len(head.Packets) != 1 || len(head.Packets[0]) < 19 || !bytes.HasPrefix(head.Packets[0], []byte("OpusHead")) {
		return nil, fmt.Errorf("opus: the first page is not an OpusHead page of its own")
	}
	h := head.Packets[0]
	if h[8] != 1 || h[9] != 1 {
		return nil, fmt.Errorf("opus: OpusHead version %d with %d channels, want 1 and 1", h[8], h[9])
	}
	preSkip := int(binary.LittleEndian.Uint16(h[10:]))
	if len(pages[1].Packets) != 1 || !bytes.HasPrefix(pages[1].Packets[0], []byte("OpusTags")) {
		return nil, fmt.Errorf("opus: the second page is not an OpusTags page of its own")
	}
	last := pages[len(pages)-1]
	if last.Flags&0x04 == 0 {
		return nil, fmt.Errorf("opus: the stream has no last page (it was cut short)")
	}
	var cerr C.int
	dec := C.opus_decoder_create(C.opus_int32(api.SampleRate), 1, &cerr)
	if cerr != C.OPUS_OK {
		return nil, fmt.Errorf("opus: opus_decoder_create: %s", C.GoString(C.opus_strerror(cerr)))
	}
	defer C.opus_decoder_destroy(dec)
	var pcm []float32
	buf := make([]float32, 5760)
	prev := int64(0)
	for _, p := range pages[2:] {
		if p.Granule < prev {
			return nil, fmt.Errorf("opus: granule position %d after %d", p.Granule, prev)
		}
		prev = p.Granule
		for _, pk := range p.Packets {
			n := C.opus_decode_float(dec, (*C.uchar)(unsafe.Pointer(&pk[0])), C.opus_int32(len(pk)),
				(*C.float)(unsafe.Pointer(&buf[0])), C.int(len(buf)), 0)
			if n < 0 {
				return nil, fmt.Errorf("opus: opus_decode: %s", C.GoString(C.opus_strerror(n)))
			}
			pcm = append(pcm, buf[:n]...)
		}
	}
	scale := opusGranuleRate / api.SampleRate
	end := int(last.Granule) / scale
	if end > len(pcm) || preSkip/scale > end {
		return nil, fmt.Errorf("opus: last granule position %d is past the %d samples decoded", last.Granule, len(pcm)*scale)
	}
	return pcm[preSkip/scale : end], nil
}

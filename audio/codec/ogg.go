package codec

import "encoding/binary"

// oggStream writes the pages of one logical Ogg bitstream (RFC 3533). Packets are collected
// into the open page and a page is written when asked (flush) or when the next packet would not
// fit; no packet ever spans two pages, which an Opus packet (at most 1275 bytes, six lacing
// values) never needs.
type oggStream struct {
	serial uint32
	seq    uint32
	bos    bool // the next page is the first

	lacing  []byte
	body    []byte
	granule int64 // of the last packet completed on the open page
}

// add puts a packet on the open page, writing the page to dst first when the packet would not
// fit in its 255 lacing values.
func (s *oggStream) add(dst, packet []byte, granule int64) []byte {
	segs := len(packet)/255 + 1
	if len(s.lacing)+segs > 255 {
		dst = s.flush(dst, false)
	}
	for n := len(packet); ; n -= 255 {
		if n < 255 {
			s.lacing = append(s.lacing, byte(n))
			break
		}
		s.lacing = append(s.lacing, 255)
	}
	s.body = append(s.body, packet...)
	s.granule = granule
	return dst
}

// flush writes the open page to dst, the last of the stream when eos. A page with no packet is
// written only to end the stream.
func (s *oggStream) flush(dst []byte, eos bool) []byte {
	if len(s.lacing) == 0 && !eos {
		return dst
	}
	start := len(dst)
	var flags byte
	if !s.bos {
		flags |= 0x02
		s.bos = true
	}
	if eos {
		flags |= 0x04
	}
	dst = append(dst, "OggS"...)
	dst = append(dst, 0, flags)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(s.granule))
	dst = binary.LittleEndian.AppendUint32(dst, s.serial)
	dst = binary.LittleEndian.AppendUint32(dst, s.seq)
	dst = binary.LittleEndian.AppendUint32(dst, 0) // CRC, filled in below
	dst = append(dst, byte(len(s.lacing)))
	dst = append(dst, s.lacing...)
	dst = append(dst, s.body...)
	binary.LittleEndian.PutUint32(dst[start+22:], oggCRC(dst[start:]))
	s.seq++
	s.lacing, s.body = s.lacing[:0], s.body[:0]
	return dst
}

// oggCRCTable is the CRC-32 of Ogg: polynomial 0x04c11db7, most significant bit first, no
// reflection, initial value and final XOR zero (unlike hash/crc32's IEEE form).
var oggCRCTable = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

func oggCRC(b []byte) uint32 {
	var crc uint32
	for _, c := range b {
		crc = crc<<8 ^ oggCRCTable[byte(crc>>24)^c]
	}
	return crc
}

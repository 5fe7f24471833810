package postag

import (
	"bytes"
	"errors"
	"math/bits"
)

// featIndex finds a feature's weights from its hash. Tagging looks up about thirty features
// per word in a table of several hundred thousand, many of them misses in the processor's
// caches: a Go map with string keys costs a control-word probe, a key comparison through a
// pointer and a slice header before it reaches the weights. This table keeps each feature as
// a 16-byte slot holding a fingerprint of its hash and its first two weights (most features
// have one or two), in one flat array probed linearly and kept at most half full: a lookup
// touches one line of the table, and a second place only for a feature with three weights
// or more.
//
// A feature's hash is made from its template and its parts' hashes (featHash), so tagging
// hashes each word's parts once instead of each feature's string. Its low bits choose the
// first slot probed, its top 48 bits are the fingerprint compared. The seed is chosen when
// the table is built so that no two of the model's features are confused; a feature the model
// lacks is mistaken for one it has only if its fingerprint equals one of the few probed (about
// 2⁻⁴⁸ each), the same way on every run.
type featIndex struct {
	seed  uint64
	mask  uint64
	slots []slot
	w     []qweight // the weights after each feature's second, back to back

	nfeat, nweight int // how many features and weights the model has
}

// qweight is one tag's weight for one feature, quantized to 16 bits as the model file has it
// (all of a model's weights share one scale, so tagging adds the integers).
type qweight struct {
	tag uint8
	q   int16
}

// slot is one table entry, 16 bytes: the hash's top 48 bits (fp and fp2), the weight count n,
// where the weights after the second start (off), and the first two weights. n == 0 marks an
// empty slot (every feature has at least one weight).
type slot struct {
	fp     uint32
	offN   uint32 // off<<8 | n
	t0, t1 uint8
	fp2    uint16
	q0, q1 int16
}

func (s *slot) n() uint32   { return s.offN & 0xff }
func (s *slot) off() uint32 { return s.offN >> 8 }

// match reports whether s holds the feature whose hash is h.
func (s *slot) match(h uint64) bool {
	return s.fp == uint32(h>>32) && s.fp2 == uint16(h>>16)
}

// maxWeights bounds the flat weight array so that an offset fits in 24 bits.
const maxWeights = 1 << 24

var (
	errIndexFull = errors.New("too many weights for the feature index")
	errDuplicate = errors.New("a feature is listed twice")
)

// reading is one way a stored feature's string reads as a template and parts (see readings).
type reading struct {
	feat int32 // the feature's index
	sep  int32
	t    tmpl
}

// buildIndex indexes the features keys[i] with weights ws[i] (each non-empty, at most 255),
// under every reading of each key (see tmpl). A key no template reads is left out: tagging
// never makes its string.
func buildIndex(keys [][]byte, ws [][]qweight) (*featIndex, error) {
	rest := 0
	for _, x := range ws {
		rest += max(len(x)-2, 0)
	}
	if rest >= maxWeights {
		return nil, errIndexFull
	}
	rs := make([]reading, 0, len(keys)+len(keys)/64)
	for i, k := range keys {
		readings(k, func(t tmpl, sep int) { rs = append(rs, reading{int32(i), int32(sep), t}) })
	}
	size := uint64(16)
	for size < 2*uint64(len(rs)) {
		size <<= 1
	}
	ix := &featIndex{mask: size - 1, w: make([]qweight, 0, rest), nfeat: len(keys)}
	slots := make([]slot, len(ws)) // each feature's slot, placed below
	for i, x := range ws {
		s := slot{offN: uint32(len(ix.w))<<8 | uint32(len(x)), t0: x[0].tag, q0: x[0].q}
		if len(x) > 1 {
			s.t1, s.q1 = x[1].tag, x[1].q
		}
		if len(x) > 2 {
			ix.w = append(ix.w, x[2:]...)
		}
		slots[i] = s
		ix.nweight += len(x)
	}
	owner := make([]int32, size) // which reading fills each slot, to tell a repeat from a clash
	for seed := uint64(0); ; seed++ {
		ix.seed = seed
		ix.slots = make([]slot, size)
		ok := true
		for i, r := range rs {
			a, b := parts(keys[r.feat], r.t, int(r.sep))
			h := ix.readingHash(r.t, a, b)
			j := h & ix.mask
			for ix.slots[j].n() != 0 {
				if ix.slots[j].match(h) {
					o := rs[owner[j]]
					if oa, ob := parts(keys[o.feat], o.t, int(o.sep)); o.t == r.t && bytes.Equal(oa, a) && bytes.Equal(ob, b) {
						return nil, errDuplicate
					}
					ok = false // two features look alike under this seed: try the next
					break
				}
				j = (j + 1) & ix.mask
			}
			if !ok {
				break
			}
			s := slots[r.feat]
			s.fp, s.fp2 = uint32(h>>32), uint16(h>>16)
			ix.slots[j] = s
			owner[j] = int32(i)
		}
		if ok {
			return ix, nil
		}
	}
}

// readingHash is the hash tagging computes for template t with parts a and b.
func (ix *featIndex) readingHash(t tmpl, a, b []byte) uint64 {
	var ha, hb uint64
	if tmpls[t].parts > 0 {
		ha = hashBytes(ix.seed, a)
	}
	if tmpls[t].parts > 1 {
		hb = hashBytes(ix.seed, b)
	}
	return featHash(ix.seed, t, ha, hb)
}

// lookup returns the slot of template t with parts a and b, or false when the model does not
// have that feature.
func (ix *featIndex) lookup(t tmpl, a, b string) (slot, bool) {
	h := ix.readingHash(t, []byte(a), []byte(b))
	return ix.probe(h, h&ix.mask)
}

// probe looks for hash h from slot j on.
func (ix *featIndex) probe(h, j uint64) (slot, bool) {
	for ; ; j = (j + 1) & ix.mask {
		s := ix.slots[j]
		if s.n() == 0 {
			return slot{}, false
		}
		if s.match(h) {
			return s, true
		}
	}
}

// weights returns all of a slot's weights (for tests and statistics).
func (ix *featIndex) weights(s slot) []qweight {
	out := []qweight{{s.t0, s.q0}}
	if s.n() > 1 {
		out = append(out, qweight{s.t1, s.q1})
	}
	if n := s.n(); n > 2 {
		out = append(out, ix.w[s.off():s.off()+n-2]...)
	}
	return out
}

// hashBytes is a 64-bit hash of b under seed, eight bytes a step (multiply-rotate mixing,
// then a final avalanche), fixed so that tagging is the same on every run and machine. Each
// byte of b reaches the hash: for a tail of 4 to 7 bytes the two reads overlap, and for 1 to 3
// bytes the three reads cover all of them.
func hashBytes[T string | []byte](seed uint64, b T) uint64 {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h := seed*0x9e3779b97f4a7c15 ^ uint64(len(b))
	for len(b) >= 8 {
		k := le64(b)
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
		h = bits.RotateLeft64(h, 27)*5 + 0x52dce729
		b = b[8:]
	}
	if len(b) > 0 {
		// The tail in at most three loads instead of a loop over its bytes: two overlapping
		// 4-byte reads, or the first, middle and last byte (the length, mixed in above,
		// tells apart tails whose bytes these cover alike).
		var k uint64
		switch n := len(b); {
		case n >= 4:
			k = uint64(le32(b)) | uint64(le32(b[n-4:]))<<32
		default:
			k = uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16
		}
		k *= c1
		k = bits.RotateLeft64(k, 31)
		k *= c2
		h ^= k
	}
	return avalanche(h)
}

// avalanche is the final mix of both hashes: every input bit reaches every output bit.
func avalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// le64 and le32 read the first 8 or 4 bytes of b, little-endian.
func le64[T string | []byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

func le32[T string | []byte](b T) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// featHash combines template t with the hashes of its parts (0 for a part it does not take)
// into the feature's hash, with the same final avalanche as hashBytes.
func featHash(seed uint64, t tmpl, a, b uint64) uint64 {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h := (seed + uint64(t) + 1) * 0x9e3779b97f4a7c15
	h = bits.RotateLeft64((h^a)*c1, 31)
	h = bits.RotateLeft64((h^b)*c2, 27)
	return avalanche(h)
}

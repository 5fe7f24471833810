package postag

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// weight is one tag's weight for one feature.
type weight struct {
	tag uint8
	w   float32
}

// Model is a trained tagger. It is read-only after Load and safe for concurrent use.
type Model struct {
	tags    []string
	feats   map[string][]weight // a trained model's features, for Save; nil once loaded
	index   *featIndex          // the same features, as tagging looks them up
	tagDict map[string]uint8    // frequent words that always had one tag in training
}

// ErrBadModel reports a model file that cannot be read.
var ErrBadModel = errors.New("bad tagger model")

const magic = "KPT1"

// Tag assigns one tag per word.
func (m *Model) Tag(words []string) []string {
	out := make([]string, len(words))
	c := newContext(words)
	prev, prev2 := startPad, startPad+"2"
	scores := make([]float32, len(m.tags))
	var k keys
	for i, w := range words {
		var tag string
		if t, ok := m.tagDict[w]; ok {
			tag = m.tags[t]
		} else {
			c.keys(&k, i, prev, prev2)
			tag = m.tags[m.best(&k, scores)]
		}
		out[i] = tag
		prev2, prev = prev, tag
	}
	return out
}

func (m *Model) best(k *keys, scores []float32) int {
	clear(scores)
	ix := m.index
	// Three passes, so that the table's cache misses overlap instead of coming one after
	// another: hash every feature, read every feature's first slot, then resolve them.
	k.hs, k.first = k.hs[:0], k.first[:0]
	start := 0
	for _, e := range k.ends {
		k.hs = append(k.hs, hashBytes(ix.seed, k.b[start:e]))
		start = e
	}
	for _, h := range k.hs {
		k.first = append(k.first, ix.slots[h&ix.mask])
	}
	for i, h := range k.hs {
		s := k.first[i]
		if !s.match(h) {
			if s.n() == 0 {
				continue
			}
			var ok bool
			if s, ok = ix.probe(h, (h+1)&ix.mask); !ok {
				continue
			}
		}
		// The same float32 products and sums, in the same order, as the weights had when
		// they were stored as float32(q)*scale, so tags do not depend on the layout.
		scores[s.t0] += float32(s.q0) * ix.scale
		if n := s.n(); n > 1 {
			scores[s.t1] += float32(s.q1) * ix.scale
			if n > 2 {
				for _, w := range ix.w[s.off() : s.off()+n-2] {
					scores[w.tag] += float32(w.q) * ix.scale
				}
			}
		}
	}
	best := 0
	for t, s := range scores {
		// Ties go to the tag listed first, so that results do not depend on map order.
		if s > scores[best] {
			best = t
		}
	}
	return best
}

// Save writes a trained model, gzip-compressed: the tag list, the tag dictionary, then each
// feature with its weights quantized to 16 bits against one scale. A loaded model keeps only
// its features' hashes and cannot be saved again.
func (m *Model) Save(w io.Writer) error {
	if m.feats == nil {
		return errors.New("postag: only a trained model can be saved")
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	var scratch [binary.MaxVarintLen64]byte
	uv := func(v uint64) { n := binary.PutUvarint(scratch[:], v); bw.Write(scratch[:n]) }
	str := func(s string) { uv(uint64(len(s))); bw.WriteString(s) }
	bw.WriteString(magic)
	uv(uint64(len(m.tags)))
	for _, t := range m.tags {
		str(t)
	}
	keys := sortedKeys(m.tagDict)
	uv(uint64(len(keys)))
	for _, k := range keys {
		str(k)
		bw.WriteByte(m.tagDict[k])
	}
	scale := quantScale(m.feats)
	binary.Write(bw, binary.LittleEndian, scale)
	fkeys := sortedKeys(m.feats)
	uv(uint64(len(fkeys)))
	for _, k := range fkeys {
		str(k)
		ws := m.feats[k]
		uv(uint64(len(ws)))
		for _, x := range ws {
			bw.WriteByte(x.tag)
			binary.Write(bw, binary.LittleEndian, quantize(x.w, scale))
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// quantScale is the step of the 16-bit weights Save writes: the largest weight maps to 32767.
func quantScale(feats map[string][]weight) float32 {
	var maxAbs float64
	for _, ws := range feats {
		for _, x := range ws {
			maxAbs = math.Max(maxAbs, math.Abs(float64(x.w)))
		}
	}
	scale := float32(maxAbs / 32767)
	if scale == 0 {
		scale = 1
	}
	return scale
}

func quantize(w, scale float32) int16 { return int16(math.Round(float64(w / scale))) }

// Load reads a model written by Save.
func Load(data []byte) (*Model, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadModel, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadModel, err)
	}
	r := &reader{b: raw}
	if string(r.bytes(len(magic))) != magic {
		return nil, fmt.Errorf("%w: wrong magic", ErrBadModel)
	}
	m := &Model{}
	nt := r.uvarint()
	if nt == 0 || nt > 255 {
		return nil, fmt.Errorf("%w: %d tags", ErrBadModel, nt)
	}
	for range nt {
		m.tags = append(m.tags, r.str())
	}
	nd := r.uvarint()
	m.tagDict = make(map[string]uint8, min(nd, 1<<20))
	for range nd {
		k := r.str()
		t := r.byte()
		if int(t) >= len(m.tags) {
			r.err = errors.New("tag out of range")
		}
		m.tagDict[k] = t
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(r.bytes(4)))
	nf := r.uvarint()
	// The keys stay slices of the decompressed bytes: the index keeps only their hashes.
	keys := make([][]byte, 0, min(nf, 1<<22))
	wss := make([][]qweight, 0, min(nf, 1<<22))
	for range nf {
		if r.err != nil {
			break
		}
		kn := r.uvarint()
		if kn > uint64(len(r.b)) {
			r.err = io.ErrUnexpectedEOF
			break
		}
		k := r.bytes(int(kn))
		n := r.uvarint()
		if n == 0 || n > uint64(len(m.tags)) {
			r.err = fmt.Errorf("%d weights for one feature", n)
			break
		}
		ws := make([]qweight, n)
		for j := range ws {
			t := r.byte()
			if int(t) >= len(m.tags) {
				r.err = errors.New("tag out of range")
			}
			ws[j] = qweight{tag: t, q: int16(binary.LittleEndian.Uint16(r.bytes(2)))}
		}
		keys = append(keys, k)
		wss = append(wss, ws)
	}
	if r.err == nil && r.off != len(r.b) {
		r.err = errors.New("trailing data")
	}
	if r.err == nil {
		m.index, r.err = buildIndex(keys, wss, scale)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadModel, r.err)
	}
	return m, nil
}

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		if r.err == nil {
			r.err = io.ErrUnexpectedEOF
		}
		return make([]byte, max(n, 0))
	}
	out := r.b[r.off : r.off+n]
	r.off += n
	return out
}

func (r *reader) byte() byte { return r.bytes(1)[0] }

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.off += n
	return v
}

func (r *reader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err = io.ErrUnexpectedEOF
		return ""
	}
	return string(r.bytes(int(n)))
}

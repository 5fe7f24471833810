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
	"slices"
	"sync"
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

	tagHash           []uint64 // each tag's hash as a feature part
	padHash, pad2Hash uint64   // the same for the padding before the first word
}

// ErrBadModel reports a model file that cannot be read.
var ErrBadModel = errors.New("bad tagger model")

const magic = "KPT1"

// Tag assigns one tag per word.
//
// Scores are sums of the model's 16-bit weights, added exactly in integers and so in any
// order: the features that look only at the words are scored for the whole sentence first,
// with every table read of the sentence issued together, and then each word adds the few
// features of the tags chosen before it. No feature string is built: each word's parts are
// hashed once and every feature's hash is made from its parts' hashes (see tmpl).
func (m *Model) Tag(words []string) []string {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	return m.tag(words, sc)
}

// tag is Tag with the given working memory.
func (m *Model) tag(words []string, sc *scratch) []string {
	out := make([]string, len(words))
	if len(words) == 0 {
		return out
	}
	ix := m.index
	seed := ix.seed
	sp := &sc.parts
	sp.fill(newContext(words), func(s string) uint64 { return hashBytes(seed, s) })
	nt := len(m.tags)
	sc.hs, sc.owners, sc.rows = sc.hs[:0], sc.owners[:0], sc.rows[:0]
	// rows[i] is word i's row of base scores, or -1-tag for a word the tag dictionary decides.
	nrows := int32(0)
	add := func(t tmpl, a, b uint64) {
		sc.hs = append(sc.hs, featHash(seed, t, a, b))
		sc.owners = append(sc.owners, nrows)
	}
	for i, w := range words {
		if t, ok := m.tagDict[w]; ok {
			sc.rows = append(sc.rows, -1-int32(t))
			continue
		}
		sc.rows = append(sc.rows, nrows)
		wordFeatures(sp, i, add)
		nrows++
	}
	sc.base = slices.Grow(sc.base[:0], int(nrows)*nt)[:int(nrows)*nt]
	clear(sc.base)
	if nrows > 0 { // every such word has features, so owners is not nil
		m.score(sc, sc.base, nt, sc.owners)
	}
	sc.scores = slices.Grow(sc.scores[:0], nt)[:nt]
	addTag := func(t tmpl, a, b uint64) { sc.hs = append(sc.hs, featHash(seed, t, a, b)) }
	prev, prev2 := m.padHash, m.pad2Hash
	for i := range words {
		var tag int
		if r := int(sc.rows[i]); r < 0 {
			tag = -1 - r
		} else {
			scores := sc.scores
			copy(scores, sc.base[r*nt:(r+1)*nt])
			sc.hs = sc.hs[:0]
			tagFeatures(sp, i, prev, prev2, addTag)
			m.score(sc, scores, nt, nil)
			for t, s := range scores {
				// Ties go to the tag listed first, so that results do not depend on order.
				if s > scores[tag] {
					tag = t
				}
			}
		}
		out[i] = m.tags[tag]
		prev2, prev = prev, m.tagHash[tag]
	}
	return out
}

// scratch is the working memory of one Tag call, reused across calls.
type scratch struct {
	parts        sentParts[uint64]
	hs           []uint64 // feature hashes
	first        []slot   // the first slot each probes
	rows, owners []int32
	base, scores []int32
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// score adds the weights of every feature in sc.hs to rows of nt scores in base: feature f's
// row is owners[f], or the first row when owners is nil. The table's cache misses are made to
// overlap instead of coming one after another: every feature's first slot is read, then the
// weights added.
func (m *Model) score(sc *scratch, base []int32, nt int, owners []int32) {
	ix := m.index
	sc.first = sc.first[:0]
	for _, h := range sc.hs {
		sc.first = append(sc.first, ix.slots[h&ix.mask])
	}
	var r []int32
	if owners == nil {
		r = base[:nt]
	}
	for f, h := range sc.hs {
		s := sc.first[f]
		if !s.match(h) {
			if s.n() == 0 {
				continue
			}
			var ok bool
			if s, ok = ix.probe(h, (h+1)&ix.mask); !ok {
				continue
			}
		}
		if owners != nil {
			o := int(owners[f]) * nt
			r = base[o : o+nt]
		}
		r[s.t0] += int32(s.q0)
		if n := s.n(); n > 1 {
			r[s.t1] += int32(s.q1)
			if n > 2 {
				for _, w := range ix.w[s.off() : s.off()+n-2] {
					r[w.tag] += int32(w.q)
				}
			}
		}
	}
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
	// Tagging compares sums of the 16-bit weights, which a positive common scale does not
	// reorder, so only the sign of the scale matters once it is read.
	if scale := math.Float32frombits(binary.LittleEndian.Uint32(r.bytes(4))); r.err == nil && !(scale > 0 && scale <= math.MaxFloat32) {
		r.err = fmt.Errorf("weight scale %v", scale)
	}
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
		m.index, r.err = buildIndex(keys, wss)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadModel, r.err)
	}
	m.hashTags()
	return m, nil
}

// hashTags sets the hashes of the tags as feature parts, under the index's seed.
func (m *Model) hashTags() {
	seed := m.index.seed
	m.tagHash = make([]uint64, len(m.tags))
	for i, t := range m.tags {
		m.tagHash[i] = hashBytes(seed, t)
	}
	m.padHash, m.pad2Hash = hashBytes(seed, startPad), hashBytes(seed, startPad+"2")
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

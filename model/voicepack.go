package model

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Voice pack geometry: one 256-value style vector per utterance length, 1 to the most phoneme
// ids the model takes in one run.
const (
	StyleDim  = 256
	PackRows  = MaxIDs
	PackBytes = PackRows * StyleDim * 4
)

// Pack is one voice: PackRows style vectors.
type Pack []float32

// Row returns the style for an utterance of n phoneme ids (row n−1, clamped to the pack).
func (p Pack) Row(n int) []float32 {
	r := n - 1
	if r < 0 {
		r = 0
	}
	if r >= PackRows {
		r = PackRows - 1
	}
	return p[r*StyleDim : (r+1)*StyleDim]
}

// ErrBadPack reports a voice file that is not a [510,1,256] float32 pack.
var ErrBadPack = errors.New("not a voice pack")

// ParseRawPack reads a raw little-endian float32 [510,1,256] pack (kokoro-js, onnx-community).
func ParseRawPack(b []byte) (Pack, error) {
	if len(b) != PackBytes {
		return nil, fmt.Errorf("%w: %d bytes, want %d (float32 [510,1,256])", ErrBadPack, len(b), PackBytes)
	}
	p := make(Pack, PackRows*StyleDim)
	for i := range p {
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("%w: value %d is %v", ErrBadPack, i, v)
		}
		p[i] = v
	}
	return p, nil
}

// ParsePtPack reads a PyTorch .pt voice (a zip whose tensor bytes are the stored entry
// "<archive>/data/0").
func ParsePtPack(b []byte) (Pack, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("%w: .pt is not a zip archive: %v", ErrBadPack, err)
	}
	for _, f := range zr.File {
		if path.Base(f.Name) == "0" && path.Base(path.Dir(f.Name)) == "data" {
			data, err := readZipEntry(f, PackBytes)
			if err != nil {
				return nil, err
			}
			return ParseRawPack(data)
		}
	}
	return nil, fmt.Errorf("%w: .pt archive has no data/0 entry", ErrBadPack)
}

// ParseNpzPacks reads an .npz archive of voices (kokoro-onnx voices-v1.0.bin): one .npy array
// of float32 [510,1,256] per voice, named by its entry.
func ParseNpzPacks(b []byte) (map[string]Pack, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("%w: .npz is not a zip archive: %v", ErrBadPack, err)
	}
	out := map[string]Pack{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".npy") {
			continue
		}
		data, err := readZipEntry(f, PackBytes+4096)
		if err != nil {
			return nil, err
		}
		raw, err := npyFloat32Data(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		p, err := ParseRawPack(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		out[strings.TrimSuffix(path.Base(f.Name), ".npy")] = p
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: .npz holds no .npy arrays", ErrBadPack)
	}
	return out, nil
}

func readZipEntry(f *zip.File, limit int) ([]byte, error) {
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%w: entry %s is %d bytes, more than a voice", ErrBadPack, f.Name, f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: open %s: %v", ErrBadPack, f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read %s: %v", ErrBadPack, f.Name, err)
	}
	return data, nil
}

var npyShape = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)

// npyFloat32Data checks an .npy header (little-endian float32, C order, 510·1·256 values) and
// returns the array bytes.
func npyFloat32Data(b []byte) ([]byte, error) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return nil, fmt.Errorf("%w: missing .npy magic", ErrBadPack)
	}
	var hlen, off int
	switch b[6] {
	case 1:
		hlen, off = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, fmt.Errorf("%w: truncated .npy header", ErrBadPack)
		}
		hlen, off = int(binary.LittleEndian.Uint32(b[8:12])), 12
	default:
		return nil, fmt.Errorf("%w: .npy version %d", ErrBadPack, b[6])
	}
	if hlen < 0 || off+hlen > len(b) {
		return nil, fmt.Errorf("%w: truncated .npy header", ErrBadPack)
	}
	h := string(b[off : off+hlen])
	if !strings.Contains(h, "'descr': '<f4'") {
		return nil, fmt.Errorf("%w: .npy dtype is not little-endian float32: %s", ErrBadPack, strings.TrimSpace(h))
	}
	if strings.Contains(h, "'fortran_order': True") {
		return nil, fmt.Errorf("%w: .npy in Fortran order", ErrBadPack)
	}
	m := npyShape.FindStringSubmatch(h)
	if m == nil {
		return nil, fmt.Errorf("%w: .npy header has no shape", ErrBadPack)
	}
	n := 1
	for _, d := range strings.Split(m[1], ",") {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		v, err := strconv.Atoi(d)
		if err != nil || v < 0 || v > PackRows*StyleDim {
			return nil, fmt.Errorf("%w: .npy shape (%s)", ErrBadPack, m[1])
		}
		n *= v
		if n > PackRows*StyleDim {
			return nil, fmt.Errorf("%w: .npy shape (%s) is not [510,1,256]", ErrBadPack, m[1])
		}
	}
	if n != PackRows*StyleDim {
		return nil, fmt.Errorf("%w: .npy shape (%s) is not [510,1,256]", ErrBadPack, m[1])
	}
	return b[off+hlen:], nil
}

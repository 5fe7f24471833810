package model

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePack is a pack whose every value is v, so blends are easy to check.
func fakePack(v float32) []byte {
	b := make([]byte, 0, PackBytes)
	for i := 0; i < PackRows*StyleDim; i++ {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v+float32(i/StyleDim)*0.001))
	}
	return b
}

func npy(data []byte) []byte {
	h := "{'descr': '<f4', 'fortran_order': False, 'shape': (510, 1, 256), }"
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	h += "\n"
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h)))
	return append(append(b, h...), data...)
}

func zipOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadVoicesReadsBinPtAndNpz(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("af_one.bin", fakePack(1))
	write("am_two.pt", zipOf(t, map[string][]byte{"am_two/data.pkl": []byte("x"), "am_two/data/0": fakePack(2)}))
	write("voices-v1.0.bin", zipOf(t, map[string][]byte{"bf_three.npy": npy(fakePack(3)), "bm_four.npy": npy(fakePack(4))}))
	write("notes.txt", []byte("ignored"))
	v, err := LoadVoices(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Names(), ","); got != "af_one,am_two,bf_three,bm_four" {
		t.Fatalf("names = %s", got)
	}
	for name, want := range map[string]float32{"af_one": 1, "am_two": 2, "bf_three": 3, "bm_four": 4} {
		s, err := v.Style(name, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s[0] != want {
			t.Errorf("%s row 0 = %v, want %v", name, s[0], want)
		}
	}
}

func TestStyleRowIsLengthMinusOneClamped(t *testing.T) {
	t.Parallel()
	p, err := ParseRawPack(fakePack(0))
	if err != nil {
		t.Fatal(err)
	}
	v := NewVoices(map[string]Pack{"x": p})
	for _, c := range []struct{ n, row int }{{1, 0}, {10, 9}, {510, 509}, {600, 509}, {0, 0}} {
		s, _ := v.Style("x", c.n)
		if want := float32(c.row) * 0.001; math.Abs(float64(s[0]-want)) > 1e-6 {
			t.Errorf("n=%d: row value %v, want row %d", c.n, s[0], c.row)
		}
	}
}

func TestBlendIsWeightedMean(t *testing.T) {
	t.Parallel()
	a, _ := ParseRawPack(fakePack(1))
	b, _ := ParseRawPack(fakePack(4))
	v := NewVoices(map[string]Pack{"af_bella": a, "af_sky": b})
	for spec, want := range map[string]float32{
		"af_bella(2)+af_sky(1)": 2,   // (2·1 + 1·4) / 3
		"af_bella+af_sky":       2.5, // equal weights
		" af_sky ":              4,
	} {
		s, err := v.Style(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if math.Abs(float64(s[0]-want)) > 1e-5 {
			t.Errorf("%s: %v, want %v", spec, s[0], want)
		}
	}
	_, err := v.Style("af_nobody", 1)
	if !errors.Is(err, ErrUnknownVoice) || !strings.Contains(err.Error(), "have: af_bella, af_sky") {
		t.Errorf("unknown voice: %v", err)
	}
	if _, err := v.Style("af_bella(2)+af_nobody", 1); !errors.Is(err, ErrUnknownVoice) {
		t.Errorf("blend with unknown voice: %v", err)
	}
	for _, bad := range []string{"", "af_bella(0)", "af_bella(-1)", "af_bella(x)", "af_bella(2", "a b", "af_bella+", "../etc"} {
		if _, err := v.Style(bad, 1); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParsersRejectBadPacks(t *testing.T) {
	t.Parallel()
	nan := fakePack(0)
	binary.LittleEndian.PutUint32(nan[40:], math.Float32bits(float32(math.NaN())))
	for name, err := range map[string]error{
		"short raw":  second(ParseRawPack(make([]byte, 100))),
		"nan raw":    second(ParseRawPack(nan)),
		"pt not zip": second(ParsePtPack([]byte("nope"))),
		"pt no data": second(ParsePtPack(zipOf(t, map[string][]byte{"x/data.pkl": nil}))),
		"npz empty":  second2(ParseNpzPacks(zipOf(t, map[string][]byte{"a.txt": nil}))),
		"npz f8":     second2(ParseNpzPacks(zipOf(t, map[string][]byte{"a.npy": []byte(strings.Replace(string(npy(fakePack(0))), "<f4", "<f8", 1))}))),
	} {
		if !errors.Is(err, ErrBadPack) {
			t.Errorf("%s: err = %v, want ErrBadPack", name, err)
		}
	}
}

func second(_ Pack, err error) error             { return err }
func second2(_ map[string]Pack, err error) error { return err }

// TestParseBlendRefusesWhatNoClientMeans: weights below MinBlendWeight (denormals included)
// and control characters anywhere are refused, not trimmed away or normalized into a mix.
func TestParseBlendRefusesWhatNoClientMeans(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"af_sky(1e-320)+af_bella(1e-320)", "af_sky(1)+af_bella(0.0001)", "af_heart\n", "\taf_heart", "af_he\x00art", "af_sky+\x1baf_bella"} {
		if _, err := ParseBlend(spec); !errors.Is(err, ErrBadBlend) {
			t.Errorf("%q: err = %v, want ErrBadBlend", spec, err)
		}
	}
	for _, spec := range []string{"af_sky(0.001)+af_bella", " af_heart ", "af_sky(1e6)+af_bella(2)"} {
		if _, err := ParseBlend(spec); err != nil {
			t.Errorf("%q: %v", spec, err)
		}
	}
	v := &Voices{packs: map[string]Pack{"af_heart": make(Pack, PackRows*StyleDim)}, names: []string{"af_heart"}, blends: map[string]Pack{}}
	if _, err := v.Resolve("af_heart\n"); err == nil {
		t.Error(`Resolve("af_heart\n") spoke as af_heart`)
	}
}

func FuzzParseBlend(f *testing.F) {
	for _, s := range []string{"af_bella(2)+af_sky(1)", "af", "a(1e309)", "(", "a()+b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		parts, err := ParseBlend(spec)
		if err != nil {
			return
		}
		for _, p := range parts {
			if !(p.Weight >= MinBlendWeight) || math.IsInf(p.Weight, 0) || !validVoiceName(p.Voice) {
				t.Fatalf("%q parsed to %+v", spec, p)
			}
		}
	})
}

func FuzzNpyHeader(f *testing.F) {
	f.Add(npy(fakePack(0))[:200])
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, err := npyFloat32Data(b)
		if err == nil && len(data) > len(b) {
			t.Fatal("data longer than input")
		}
	})
}

// Voice files come from users' directories: no byte sequence may crash the loader, and what
// it accepts is always a full pack.
func FuzzParseVoiceFiles(f *testing.F) {
	f.Add(zipOf(f, map[string][]byte{"v/data/0": fakePack(1)}))
	f.Add(zipOf(f, map[string][]byte{"bf_x.npy": npy(fakePack(2))}))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if p, err := ParsePtPack(b); err == nil && len(p) != PackRows*StyleDim {
			t.Fatalf(".pt pack of %d values", len(p))
		}
		if m, err := ParseNpzPacks(b); err == nil {
			for n, p := range m {
				if len(p) != PackRows*StyleDim {
					t.Fatalf(".npz voice %s has %d values", n, len(p))
				}
			}
		}
	})
}

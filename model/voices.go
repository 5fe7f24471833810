package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// ErrUnknownVoice reports a voice name that no loaded pack has. tts maps it to a 4xx.
var ErrUnknownVoice = errors.New("unknown voice")

// ErrBadBlend reports a malformed blend spec.
var ErrBadBlend = errors.New("bad voice blend")

// Voices is a set of voice packs by name, and the blends made of them.
type Voices struct {
	packs map[string]Pack
	names []string

	mu     sync.Mutex
	blends map[string]Pack // cache of parsed blends, bounded
}

const maxCachedBlends = 64

// NewVoices wraps packs already in memory.
func NewVoices(packs map[string]Pack) *Voices {
	v := &Voices{packs: packs, blends: map[string]Pack{}}
	for n := range packs {
		v.names = append(v.names, n)
	}
	sort.Strings(v.names)
	return v
}

// LoadVoices reads every .bin, .pt and .npz voice file in dir. A raw .bin of the wrong size is
// tried as an .npz archive, as kokoro-onnx names its archive voices-v1.0.bin.
func LoadVoices(dir string) (*Voices, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("voices directory %s: run `make setup` (or set KOKORO_VOICES): %w", dir, err)
	}
	packs := map[string]Pack{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name, ext := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), filepath.Ext(e.Name())
		if ext != ".bin" && ext != ".pt" && ext != ".npz" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read voice %s: %w", p, err)
		}
		switch {
		case ext == ".pt":
			pk, err := ParsePtPack(b)
			if err != nil {
				return nil, fmt.Errorf("voice %s: %w", p, err)
			}
			packs[name] = pk
		case ext == ".bin" && len(b) == PackBytes:
			pk, err := ParseRawPack(b)
			if err != nil {
				return nil, fmt.Errorf("voice %s: %w", p, err)
			}
			packs[name] = pk
		default:
			all, err := ParseNpzPacks(b)
			if err != nil {
				return nil, fmt.Errorf("voice %s: %w", p, err)
			}
			for n, pk := range all {
				packs[n] = pk
			}
		}
	}
	if len(packs) == 0 {
		return nil, fmt.Errorf("no voice packs (.bin, .pt, .npz) in %s: run `make setup` (or set KOKORO_VOICES)", dir)
	}
	return NewVoices(packs), nil
}

// Names lists the loaded voices, sorted.
func (v *Voices) Names() []string { return append([]string(nil), v.names...) }

// Style returns the style vector for an utterance of n phoneme ids spoken by spec, a voice
// name or a weighted blend such as "af_bella(2)+af_sky(1)" (weights default to 1).
func (v *Voices) Style(spec string, n int) ([]float32, error) {
	p, err := v.Resolve(spec)
	if err != nil {
		return nil, err
	}
	return p.Row(n), nil
}

// Resolve returns the pack for a name or a blend.
func (v *Voices) Resolve(spec string) (Pack, error) {
	if i := strings.IndexFunc(spec, unicode.IsControl); i >= 0 {
		return nil, fmt.Errorf("%w: control character at byte %d", ErrBadBlend, i)
	}
	spec = strings.TrimSpace(spec)
	if p, ok := v.packs[spec]; ok {
		return p, nil
	}
	parts, err := ParseBlend(spec)
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 && parts[0].Weight == 1 && parts[0].Voice == spec {
		return nil, v.unknown(spec)
	}
	v.mu.Lock()
	if p, ok := v.blends[spec]; ok {
		v.mu.Unlock()
		return p, nil
	}
	v.mu.Unlock()
	var total float64
	for _, part := range parts {
		if _, ok := v.packs[part.Voice]; !ok {
			return nil, v.unknown(part.Voice)
		}
		total += part.Weight
	}
	mix := make(Pack, PackRows*StyleDim)
	for _, part := range parts {
		w := float32(part.Weight / total)
		for i, x := range v.packs[part.Voice] {
			mix[i] += w * x
		}
	}
	v.mu.Lock()
	if len(v.blends) >= maxCachedBlends {
		clear(v.blends)
	}
	v.blends[spec] = mix
	v.mu.Unlock()
	return mix, nil
}

func (v *Voices) unknown(name string) error {
	return &UnknownVoiceError{Name: name, Have: v.names}
}

// UnknownVoiceError names the missing voice and lists the valid ones; it matches
// ErrUnknownVoice with errors.Is.
type UnknownVoiceError struct {
	Name string
	Have []string
}

func (e *UnknownVoiceError) Error() string {
	return fmt.Sprintf("voice %q not found; have: %s", e.Name, strings.Join(e.Have, ", "))
}

// Is makes errors.Is(err, ErrUnknownVoice) hold.
func (e *UnknownVoiceError) Is(target error) bool { return target == ErrUnknownVoice }

// BlendPart is one voice of a blend and its weight.
type BlendPart struct {
	Voice  string
	Weight float64
}

// Bounds of a blend weight. Weights are relative, so a thousandth of the loudest part is
// already inaudible in the mix; below MinBlendWeight a weight is a mistake (or an attempt at
// denormal arithmetic), above MaxBlendWeight one.
const (
	MinBlendWeight = 1e-3
	MaxBlendWeight = 1e6
)

// ParseBlend parses "name", "a+b" or "a(2)+b(0.5)". Names are letters, digits, _ and -;
// weights are numbers from MinBlendWeight to MaxBlendWeight. Spaces around terms are allowed,
// control characters nowhere.
func ParseBlend(spec string) ([]BlendPart, error) {
	if spec == "" {
		return nil, fmt.Errorf("%w: empty voice", ErrBadBlend)
	}
	if len(spec) > 512 {
		return nil, fmt.Errorf("%w: spec longer than 512 bytes", ErrBadBlend)
	}
	if i := strings.IndexFunc(spec, unicode.IsControl); i >= 0 {
		return nil, fmt.Errorf("%w: control character at byte %d", ErrBadBlend, i)
	}
	var parts []BlendPart
	for _, term := range strings.Split(spec, "+") {
		term = strings.TrimSpace(term)
		name, weight := term, 1.0
		if i := strings.IndexByte(term, '('); i >= 0 {
			if !strings.HasSuffix(term, ")") {
				return nil, fmt.Errorf("%w: %q: weight must be written name(w)", ErrBadBlend, term)
			}
			w, err := strconv.ParseFloat(term[i+1:len(term)-1], 64)
			if err != nil || !(w >= MinBlendWeight && w <= MaxBlendWeight) {
				return nil, fmt.Errorf("%w: %q: weight must be a number from %g to %g", ErrBadBlend, term, MinBlendWeight, MaxBlendWeight)
			}
			name, weight = strings.TrimSpace(term[:i]), w
		}
		if !validVoiceName(name) {
			return nil, fmt.Errorf("%w: %q is not a voice name (letters, digits, _)", ErrBadBlend, name)
		}
		parts = append(parts, BlendPart{Voice: name, Weight: weight})
	}
	return parts, nil
}

func validVoiceName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

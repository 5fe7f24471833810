package artifact

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Artifact is a Qmax or a TTotal: something Write can store.
type Artifact interface {
	// FileName is the artifact's file name (docs/bench.md).
	FileName() string
	// complete returns a copy with schema version, kind, fingerprint and slug filled in
	// and checks that the fields the file name and the planner depend on are present.
	complete() (Artifact, error)
}

// Write stores a as indented JSON in dir (created if needed) under its file name and
// returns the path. Schema version, kind, fingerprint and slug are filled in when empty; a
// is not modified. The file appears atomically: readers never see a half-written artifact.
func Write(dir string, a Artifact) (string, error) {
	if a == nil {
		return "", errors.New("write artifact: nil artifact")
	}
	c, err := a.complete()
	if err != nil {
		return "", fmt.Errorf("write artifact: %w", err)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", fmt.Errorf("write artifact: encode: %w", err)
	}
	data = append(data, '\n')
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("write artifact: %w", err)
	}
	path := filepath.Join(dir, c.FileName())
	if err := writeAtomic(path, data); err != nil {
		return "", fmt.Errorf("write artifact %s: %w", path, err)
	}
	return path, nil
}

func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func (q *Qmax) complete() (Artifact, error) {
	c := *q
	c.fill(KindQmax)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

func (t *TTotal) complete() (Artifact, error) {
	c := *t
	c.fill(KindTTotal)
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// fill sets the header fields a writer may leave empty.
func (h *Header) fill(kind string) {
	if h.SchemaVersion == 0 {
		h.SchemaVersion = SchemaVersion
	}
	if h.Kind == "" {
		h.Kind = kind
	}
	if h.Fingerprint == "" {
		h.Fingerprint = h.Target.Fingerprint()
	}
	if h.Slug == "" {
		h.Slug = h.Target.Slug()
	}
	if h.Provenance.SourceFormat == "" {
		h.Provenance.SourceFormat = FormatKokoro
	}
}

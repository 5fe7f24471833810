package artifact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// ReadQmax reads a qmax artifact in kokoro's schema or in the reference tool's format.
func ReadQmax(path string) (*Qmax, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read qmax artifact: %w", err)
	}
	q, err := ParseQmax(data)
	if err != nil {
		return nil, fmt.Errorf("read qmax artifact %s: %w", path, err)
	}
	return q, nil
}

// ReadTTotal reads a ttotal artifact in kokoro's schema or in the reference tool's format.
func ReadTTotal(path string) (*TTotal, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read ttotal artifact: %w", err)
	}
	t, err := ParseTTotal(data)
	if err != nil {
		return nil, fmt.Errorf("read ttotal artifact %s: %w", path, err)
	}
	return t, nil
}

// probe holds the fields that tell the formats and kinds apart.
type probe struct {
	SchemaVersion  *int            `json:"schema_version"`
	Kind           string          `json:"kind"`
	Steps          json.RawMessage `json:"steps"`
	QMax           json.RawMessage `json:"q_max"`
	TTotalS        json.RawMessage `json:"t_total_s"`
	Timeline       json.RawMessage `json:"timeline"`
	DeployedConfig json.RawMessage `json:"deployed_config"`
}

func sniff(data []byte) (probe, error) {
	var p probe
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%w: not a JSON object: %w", ErrInvalid, err)
	}
	return p, nil
}

// ParseQmax decodes a qmax artifact from JSON, in either format, and validates it.
func ParseQmax(data []byte) (*Qmax, error) {
	p, err := sniff(data)
	if err != nil {
		return nil, err
	}
	var q *Qmax
	switch {
	case p.SchemaVersion != nil:
		q = new(Qmax)
		if err := decode(data, q); err != nil {
			return nil, err
		}
		if q.Fingerprint == "" {
			q.Fingerprint = q.Target.Fingerprint()
		}
		if q.Slug == "" {
			q.Slug = q.Target.Slug()
		}
	case p.Steps != nil && p.QMax != nil:
		var r refQmax
		if err := decode(data, &r); err != nil {
			return nil, err
		}
		q = r.convert()
	case p.TTotalS != nil || p.Timeline != nil:
		return nil, invalid("this is a ttotal artifact, not a qmax artifact")
	default:
		return nil, invalid("neither a kokoro qmax artifact (no schema_version) nor a reference-tool one (no steps/q_max)")
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	return q, nil
}

// ParseTTotal decodes a ttotal artifact from JSON, in either format, and validates it.
func ParseTTotal(data []byte) (*TTotal, error) {
	p, err := sniff(data)
	if err != nil {
		return nil, err
	}
	var t *TTotal
	switch {
	case p.SchemaVersion != nil:
		t = new(TTotal)
		if err := decode(data, t); err != nil {
			return nil, err
		}
		if t.Fingerprint == "" {
			t.Fingerprint = t.Target.Fingerprint()
		}
		if t.Slug == "" {
			t.Slug = t.Target.Slug()
		}
	case p.TTotalS != nil:
		var r refTTotal
		if err := decode(data, &r); err != nil {
			return nil, err
		}
		t, err = r.convert()
		if err != nil {
			return nil, err
		}
	case p.Steps != nil && p.QMax != nil:
		return nil, invalid("this is a qmax artifact, not a ttotal artifact")
	default:
		return nil, invalid("neither a kokoro ttotal artifact (no schema_version) nor a reference-tool one (no t_total_s)")
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

func decode(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

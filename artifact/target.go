package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"
)

// Target kinds.
const (
	TargetSageMaker = "sagemaker" // a deployed SageMaker endpoint
	TargetLocal     = "local"     // a server reached by URL (local or self-hosted)
)

// Transport names: the wire protocol a qmax artifact measured through (docs/bench.md).
const (
	TransportHTTP            = "http"
	TransportWS              = "ws"
	TransportSageMakerStream = "sagemaker-stream"
	TransportSageMakerBidi   = "sagemaker-bidi"
)

// Header opens every artifact: what it is, where it came from and what it measured.
type Header struct {
	SchemaVersion int        `json:"schema_version"`
	Kind          string     `json:"kind"`
	Provenance    Provenance `json:"provenance"`
	Target        Target     `json:"target"`
	Fingerprint   string     `json:"fingerprint"`
	Slug          string     `json:"slug"`
}

// Provenance records when, by what and how an artifact was produced.
type Provenance struct {
	CreatedAt time.Time `json:"created_at"`
	Tool      string    `json:"tool"`              // "kokoro", or "tts-bench" for imported artifacts
	Version   string    `json:"version,omitempty"` // tool version (ldflags)
	Build     string    `json:"build,omitempty"`   // VCS revision (+dirty) of the build
	GoVersion string    `json:"go_version,omitempty"`
	Host      string    `json:"host,omitempty"`    // machine the bench ran on
	Command   []string  `json:"command,omitempty"` // argv of the bench invocation
	// SourceFormat is "kokoro" for our schema and "tts-bench" for an artifact converted from
	// the reference tool's format.
	SourceFormat string `json:"source_format,omitempty"`
	Origin       string `json:"origin,omitempty"` // "measured" for real measurements
	RunID        string `json:"run_id,omitempty"`
	Note         string `json:"note,omitempty"`
}

// NewProvenance fills a Provenance for a measurement made now by this process: the build's
// VCS revision comes from the binary's build info, the host from the kernel.
func NewProvenance(now time.Time, version string, command []string) Provenance {
	p := Provenance{
		CreatedAt:    now.UTC(),
		Tool:         "kokoro",
		Version:      version,
		Command:      append([]string(nil), command...),
		SourceFormat: FormatKokoro,
		Origin:       "measured",
	}
	if h, err := os.Hostname(); err == nil {
		p.Host = h
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		p.GoVersion = bi.GoVersion
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if rev != "" {
			p.Build = rev + dirty
		}
	}
	return p
}

// Target says what was measured. SageMaker targets are fingerprinted by instance type, image
// digest and container environment; local targets by host, build and model.
type Target struct {
	Kind      string `json:"kind"` // TargetSageMaker or TargetLocal
	Transport string `json:"transport"`
	Model     string `json:"model"` // model name used in file names, e.g. "kokoro-82m"

	// SageMaker.
	Endpoint     string `json:"endpoint,omitempty"`
	Variant      string `json:"variant,omitempty"`
	Region       string `json:"region,omitempty"`
	InstanceType string `json:"instance_type,omitempty"`
	ImageDigest  string `json:"image_digest,omitempty"`
	// ContainerEnv is the server's configuration: the endpoint's container environment, or
	// the settings of a --self server (slots, threads, …). Part of the fingerprint for both.
	ContainerEnv map[string]string `json:"container_env,omitempty"`

	// Local (fingerprint inputs).
	BaseURL string `json:"base_url,omitempty"`
	Host    string `json:"host,omitempty"`  // host serving the model
	Build   string `json:"build,omitempty"` // server build (version or revision)
	// ModelID identifies the model file served (e.g. its SHA-256); falls back to Model.
	ModelID string `json:"model_id,omitempty"`

	// Copies is how many copies of the model the measured instance serves behind one address
	// (SageMaker's inference components; bench qmax --self --copies); 0 is one.
	Copies int `json:"copies,omitempty"`
}

// Fingerprint is a stable hash of the configuration that decides the measurement: two
// artifacts with different fingerprints measured different things and must not be combined.
func (t Target) Fingerprint() string {
	var b strings.Builder
	if t.Kind == TargetLocal {
		fmt.Fprintf(&b, "local\nhost=%s\nbuild=%s\nmodel=%s\n", t.Host, t.Build, t.localModel())
	} else {
		fmt.Fprintf(&b, "sagemaker\ninstance_type=%s\nimage_digest=%s\n", t.InstanceType, digestHex(t.ImageDigest))
	}
	keys := make([]string, 0, len(t.ContainerEnv))
	for k := range t.ContainerEnv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "env %s=%s\n", k, t.ContainerEnv[k])
	}
	if t.Copies > 1 {
		fmt.Fprintf(&b, "copies=%d\n", t.Copies)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Slug is the short configuration name used in artifact file names.
func (t Target) Slug() string {
	s := Slug(t.InstanceType, t.ImageDigest)
	if t.Kind == TargetLocal {
		s = LocalSlug(t.Host, t.Build, t.localModel())
	}
	if t.Copies > 1 {
		s += fmt.Sprintf("-x%d", t.Copies)
	}
	return s
}

func (t Target) localModel() string {
	if t.ModelID != "" {
		return t.ModelID
	}
	return t.Model
}

// Slug names a SageMaker configuration: the instance type without the "ml." prefix and dots,
// a dash, and the first 8 hex digits of the image digest ("ml.g5.xlarge" + "sha256:8b1b96bc…"
// → "g5xlarge-8b1b96bc"). The digest may be bare hex, "sha256:…" or a full image URI with
// "@sha256:…". Without a digest the slug is the instance part alone.
func Slug(instanceType, imageDigest string) string {
	it := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(instanceType)), "ml.")
	it = sanitize(strings.ReplaceAll(it, ".", ""))
	d := digestHex(imageDigest)
	if len(d) > 8 {
		d = d[:8]
	}
	d = sanitize(d)
	switch {
	case it == "" && d == "":
		return "unknown"
	case d == "":
		return it
	case it == "":
		return d
	}
	return it + "-" + d
}

// LocalSlug names a local configuration by fingerprinting host, build and model: "local-"
// and the first 8 hex digits of their SHA-256. Any change of the three changes the slug.
func LocalSlug(host, build, model string) string {
	sum := sha256.Sum256([]byte("local\x00" + host + "\x00" + build + "\x00" + model))
	return "local-" + hex.EncodeToString(sum[:4])
}

// digestHex strips an image reference down to the hex of its digest.
func digestHex(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if i := strings.LastIndex(d, "sha256:"); i >= 0 {
		d = d[i+len("sha256:"):]
	}
	return d
}

// sanitize keeps a file-name component to [a-z0-9.-], mapping anything else to '-'.
func sanitize(s string) string {
	s = strings.ToLower(s)
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			b[i] = '-'
		}
	}
	return strings.Trim(string(b), "-.")
}

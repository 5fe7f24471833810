package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kokoro-sm/kokoro/artifact"
)

// QmaxJob is one `kokoro bench qmax`: run the ladder, keep the raw results, then write the
// artifact, the plot and the table — also when the ladder was interrupted, in which case the
// artifact is marked partial.
type QmaxJob struct {
	Ladder     *Ladder
	Target     artifact.Target // what is measured; Transport is filled from the ladder's
	Provenance artifact.Provenance
	// UnboundedQueue records that the server's admission gate was off (known for --self).
	UnboundedQueue bool
	OutDir         string
	Out            io.Writer // the per-rung table; nil discards
	// Plot draws the report into the PNG beside the artifact (bench/plot.PNG); nil draws none.
	Plot func(*Report) func(io.Writer) error
}

// QmaxOutputs are the files a job wrote.
type QmaxOutputs struct {
	Artifact string
	Raw      string
	Plot     string
}

// Paths returns the file names the job will write: the artifact's name (docs/bench.md), and beside it
// the raw JSONL and the PNG with the same stem.
func (j *QmaxJob) Paths() QmaxOutputs {
	t := j.Target
	t.Transport = j.Ladder.Transport.Name()
	q := artifact.Qmax{Header: artifact.Header{Target: t, Slug: t.Slug()}}
	stem := strings.TrimSuffix(q.FileName(), ".json")
	return QmaxOutputs{
		Artifact: filepath.Join(j.OutDir, stem+".json"),
		Raw:      filepath.Join(j.OutDir, stem+".jsonl"),
		Plot:     filepath.Join(j.OutDir, stem+".png"),
	}
}

// Run executes the job. It returns the report and the files written; the error is ctx's when
// the ladder was interrupted (the partial artifact is still written).
func (j *QmaxJob) Run(ctx context.Context) (*Report, QmaxOutputs, error) {
	paths := j.Paths()
	if err := os.MkdirAll(j.OutDir, 0o755); err != nil {
		return nil, QmaxOutputs{}, fmt.Errorf("create output directory: %w", err)
	}
	f, err := os.Create(paths.Raw)
	if err != nil {
		return nil, QmaxOutputs{}, fmt.Errorf("create raw results: %w", err)
	}
	bw := bufio.NewWriter(f)
	raw := NewJSONLWriter(bw)
	l := *j.Ladder
	prev := l.OnResult
	l.OnResult = func(r Result) error {
		if err := raw.Add(r); err != nil {
			return err
		}
		if prev != nil {
			return prev(r)
		}
		return nil
	}
	rep, runErr := l.Run(ctx)
	if rep == nil {
		f.Close()
		os.Remove(paths.Raw)
		return nil, QmaxOutputs{}, runErr
	}
	flushErr := errors.Join(bw.Flush(), f.Close())
	if flushErr != nil {
		flushErr = fmt.Errorf("write raw results: %w", flushErr)
	}

	q := rep.Artifact(j.Target, j.Provenance, j.UnboundedQueue)
	written, err := artifact.Write(j.OutDir, q)
	if err != nil {
		return rep, QmaxOutputs{Raw: paths.Raw}, errors.Join(runErr, flushErr, err)
	}
	out := QmaxOutputs{Artifact: written, Raw: paths.Raw}
	var plotErr error
	if j.Plot != nil {
		if plotErr = writeFile(paths.Plot, j.Plot(rep)); plotErr == nil {
			out.Plot = paths.Plot
		}
	}
	var tableErr error
	if j.Out != nil {
		tableErr = Table(rep)(j.Out)
	}
	return rep, out, errors.Join(runErr, flushErr, plotErr, tableErr)
}

func writeFile(path string, report func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := report(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

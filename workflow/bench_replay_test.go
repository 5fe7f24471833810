package workflow

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/server/servertest"
)

type benchReplayFile struct {
	Sent    struct{ Sent int }
	Summary struct {
		Requests int
		OK       int
		Shed     int `json:"shed_503"`
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	n := 0
	for sc := bufio.NewScanner(fh); sc.Scan(); n++ {
	}
	return n
}

// bench replay sends every request of the trace and records each: a server with room serves
// them all; one that holds a request for a second behind a queue of one refuses most of ten a
// second, and the summary counts those as shed.
func TestBenchReplayRecordsEveryRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		engine *servertest.Engine
		depth  int
		shed   bool
	}{
		{"room", &servertest.Engine{Slots: 8}, 1000, false},
		{"overloaded", &servertest.Engine{Service: time.Second, Slots: 1}, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url := servertest.Start(t, c.engine, c.depth)
			dir := t.TempDir()
			rp := NewBenchReplay()
			rp.URL, rp.Out = url, dir
			rp.Traffic.Shape, rp.Traffic.From, rp.Traffic.To, rp.Traffic.At, rp.Traffic.Length = "step", 10, 10, 0, 1500*time.Millisecond
			out, err := runJob(func(out, errw io.Writer) error { return rp.Run(context.Background(), out, errw) })
			if err != nil {
				t.Fatalf("bench replay: %v\n%s", err, out)
			}
			var r benchReplayFile
			readJSON(t, filepath.Join(dir, FileBenchReplay), &r)
			s := r.Summary
			if s.Requests < 5 || s.Requests != r.Sent.Sent || s.OK+s.Shed != s.Requests || countLines(t, filepath.Join(dir, FileBenchReplayRequests)) != s.Requests {
				t.Fatalf("sent %d, summary %+v\n%s", r.Sent.Sent, s, out)
			}
			if c.shed != (s.Shed > 0) || s.OK == 0 {
				t.Errorf("served %d, shed %d of %d\n%s", s.OK, s.Shed, s.Requests, out)
			}
			if int(c.engine.Requests()) != s.OK {
				t.Errorf("the engine served %d, the summary says %d", c.engine.Requests(), s.OK)
			}
		})
	}
}

package bench

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

func TestJSONLRoundTrip(t *testing.T) {
	t.Parallel()
	in := []Result{
		{Run: 1, Rung: 4, Worker: 3, Seq: 9, TextChars: 22, Start: 1234567 * time.Nanosecond, End: 2 * time.Second, TTFAB: 80 * time.Millisecond,
			Stall: 3 * time.Millisecond, Stalls: 1, AudioBytes: 48000, Chunks: 3, Outcome: artifact.OutcomeOK},
		{Run: 1, Rung: 4, Start: time.Second, End: time.Second + time.Millisecond, Outcome: artifact.OutcomeSaturated503, Status: 503, Error: "server answered 503 queue_saturated"},
	}
	var buf bytes.Buffer
	w := NewJSONLWriter(&buf)
	for _, r := range in {
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	out, err := ReadResults(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip\n%+v\n%+v", in, out)
	}
}

func TestReadResultsRejectsNonsense(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"rung":0,"outcome":"ok"}`,
		`{"rung":1,"start_ns":5,"end_ns":1,"outcome":"ok"}`,
		`{"rung":1,"outcome":"maybe"}`,
		`{"rung":1,"outcome":"ok","ttfab_ns":-1}`,
		`not json`,
	} {
		if _, err := ReadResults(strings.NewReader(line + "\n")); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
}

func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"run":1,"rung":2,"start_ns":1,"end_ns":2,"outcome":"ok"}` + "\n"))
	f.Add([]byte("\n\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadResults(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.validate() != nil {
				t.Fatalf("returned an invalid result %+v", r)
			}
		}
	})
}

func FuzzLoadTexts(f *testing.F) {
	f.Add("Hello.\n# c\n\nWorld")
	f.Fuzz(func(t *testing.T, s string) {
		texts, err := LoadTexts(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, x := range texts {
			if x == "" || strings.TrimSpace(x) != x || strings.HasPrefix(x, "#") {
				t.Fatalf("bad text %q", x)
			}
		}
	})
}

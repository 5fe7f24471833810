package phonemize

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// sideBySide runs each of two measurements once per round, the order alternating from round to
// round, and logs every round, each side's median with its range, and the median and range of
// the per-round ratio slow/fast: both sides of the comparison come from one run, close in time.
// Each measurement returns the time of one unit of work (a file set, a word).
func sideBySide(b *testing.B, rounds int, unit string, fastName string, fast func() time.Duration, slowName string, slow func() time.Duration) {
	b.Helper()
	var fs, ss, ratio []float64
	for r := range rounds {
		var f, s time.Duration
		if r%2 == 0 {
			f, s = fast(), slow()
		} else {
			s, f = slow(), fast()
		}
		fs, ss = append(fs, f.Seconds()), append(ss, s.Seconds())
		ratio = append(ratio, s.Seconds()/f.Seconds())
		b.Logf("round %d: %s %v, %s %v per %s (×%.1f)", r+1, fastName, f, slowName, s, unit, s.Seconds()/f.Seconds())
	}
	med := func(xs []float64) (m, lo, hi float64) {
		ys := slices.Clone(xs)
		sort.Float64s(ys)
		n := len(ys)
		m = ys[n/2]
		if n%2 == 0 {
			m = (ys[n/2-1] + ys[n/2]) / 2
		}
		return m, ys[0], ys[n-1]
	}
	fm, flo, fhi := med(fs)
	sm, slo, shi := med(ss)
	rm, rlo, rhi := med(ratio)
	b.Logf("per %s, median [min, max] over %d rounds: %s %s [%s, %s]; %s %s [%s, %s]; %s/%s ×%.1f [%.1f, %.1f]",
		unit, rounds, fastName, dur(fm), dur(flo), dur(fhi), slowName, dur(sm), dur(slo), dur(shi), slowName, fastName, rm, rlo, rhi)
	b.Logf("host: %s", loadNote())
	per := strings.ReplaceAll(unit, " ", "") // a metric's unit has no spaces
	b.ReportMetric(fm*1e6, fastName+"-µs/"+per)
	b.ReportMetric(sm*1e6, slowName+"-µs/"+per)
	b.ReportMetric(rm, "ratio")
}

func dur(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(100 * time.Nanosecond).String()
}

func loadNote() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	return "load average " + strings.Join(strings.Fields(string(b))[:3], " ")
}

// BenchmarkLexiconReaders backs lexjson.go's claim: the direct scanner (parseDict) against the
// general encoding/json reader (decodeDict) on the four lexicon files, side by side.
//
//	go test -run '^$' -bench LexiconReaders -benchtime 1x -v ./phonemize/
func BenchmarkLexiconReaders(b *testing.B) {
	a := testenv.Assets(b)
	var files [][]byte
	for _, name := range []string{"us_gold.json", "us_silver.json", "gb_gold.json", "gb_silver.json"} {
		data, err := os.ReadFile(filepath.Join(a.Lexicon, name))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
	}
	for _, data := range files {
		d1, err1 := parseDict(string(data))
		d2, err2 := decodeDict(data)
		if err1 != nil || err2 != nil || len(d1) != len(d2) {
			b.Fatalf("the readers disagree: %d entries (%v) against %d (%v)", len(d1), err1, len(d2), err2)
		}
	}
	read := func(parse func([]byte) error) func() time.Duration {
		return func() time.Duration {
			start := time.Now()
			for _, data := range files {
				if err := parse(data); err != nil {
					b.Fatal(err)
				}
			}
			return time.Since(start)
		}
	}
	for range b.N {
		sideBySide(b, 7, "4 files", "scanner",
			read(func(d []byte) error { _, err := parseDict(string(d)); return err }),
			"encoding/json",
			read(func(d []byte) error { _, err := decodeDict(d); return err }))
	}
}

// BenchmarkEspeakHelper backs espeakproc.go's claim: a word read by the long-lived espeak-ng
// helper (one line through its pipe) against the one-shot fallback, which starts espeak-ng for
// the marker word and for the text, side by side on the corpora's unknown words.
//
//	go test -run '^$' -bench EspeakHelper -benchtime 1x -v ./phonemize/
func BenchmarkEspeakHelper(b *testing.B) {
	bin := testenv.LookPath(b, "espeak-ng")
	const perRound = 20
	words := espeakWordsUS(b, perRound*7)
	e := &espeak{bin: bin, voice: "en-us", proc: &espeakProc{bin: bin, voice: "en-us"}}
	defer e.proc.Close()
	if _, err := e.proc.read("hello"); err != nil { // the helper's start is not what is measured
		b.Fatal(err)
	}
	var next int
	batch := func() []string { // the round's words: both sides read the same ones
		out := make([]string, perRound)
		for i := range out {
			out[i] = words[(next+i)%len(words)]
		}
		return out
	}
	helper := func() time.Duration {
		start := time.Now()
		for _, w := range batch() {
			if _, err := e.proc.read(w); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start) / perRound
	}
	oneShot := func() time.Duration {
		start := time.Now()
		for _, w := range batch() {
			if _, ok := e.runOnce(w); !ok {
				b.Fatalf("one-shot espeak-ng failed on %q", w)
			}
		}
		return time.Since(start) / perRound
	}
	for range b.N {
		round := 0
		sideBySide(b, 7, "word", "helper", func() time.Duration {
			d := helper()
			if round++; round%2 == 0 {
				next += perRound
			}
			return d
		}, "one-shot", func() time.Duration {
			d := oneShot()
			if round++; round%2 == 0 {
				next += perRound
			}
			return d
		})
	}
}

// espeakWordsUS is the American words of testdata/misaki_espeak_words.tsv (the corpora's
// unknown words), at least atLeast of them.
func espeakWordsUS(b *testing.B, atLeast int) []string {
	data, err := os.ReadFile(filepath.Join("testdata", "misaki_espeak_words.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) >= 2 && f[0] == "us" && strings.TrimSpace(f[1]) != "" && !strings.HasPrefix(line, "#") {
			words = append(words, f[1])
		}
	}
	if len(words) < atLeast {
		b.Fatalf("%d words", len(words))
	}
	return words
}

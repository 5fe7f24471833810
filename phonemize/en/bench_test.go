package en

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// BenchmarkCorpus phonemizes the reference corpus (whole sentences, and their first 25
// characters as typical short requests) and the wild development corpus (the sentences
// scripts/measure/phonemize_speed.py times against misaki), with espeak-ng for unknown words (its cache emptied
// or kept) and with the built-in fallback, and reports µs per character and per request. The
// comparison with misaki is measured side by side by scripts/measure/phonemize_speed.py
// (testdata/speed_vs_misaki.json).
func BenchmarkCorpus(b *testing.B) {
	rows := loadCorpus(b, "misaki_corpus.tsv")
	wild := loadCorpus(b, "misaki_wild_dev.tsv")
	short := make([]corpusRow, len(rows))
	for i, r := range rows {
		rs := []rune(r.text)
		short[i] = corpusRow{lang: r.lang, text: string(rs[:min(25, len(rs))])}
	}
	for _, fb := range []struct {
		name, espeak string
		cache        bool
	}{{"espeak-nocache", "", false}, {"espeak-cached", "", true}, {"builtin", "off", false}} {
		p, in, err := newG2PFor(b, fb.espeak)
		if err != nil {
			b.Fatal(err)
		}
		if fb.espeak == "" && in.Bin == "" {
			continue
		}
		if p.usEspeak != nil && !fb.cache {
			p.usEspeak.cache, p.gbEspeak.cache = nil, nil
		}
		for _, set := range []struct {
			name string
			rows []corpusRow
		}{{"sentences", rows}, {"short25", short}, {"wild", wild}} {
			chars := 0
			for _, r := range set.rows {
				chars += len([]rune(r.text))
			}
			b.Run(fb.name+"/"+set.name, func(b *testing.B) {
				b.ReportAllocs()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					for _, r := range set.rows {
						if _, err := p.Phonemize(r.text, r.lang); err != nil {
							b.Fatal(err)
						}
					}
				}
				us := float64(time.Since(start).Microseconds()) / float64(b.N)
				perReq := us / float64(len(set.rows))
				b.ReportMetric(us/float64(chars), "µs/char")
				b.ReportMetric(perReq, "µs/request")
			})
		}
	}
}

// BenchmarkLoad measures New: reading and indexing both dialects' gold and silver lexicons,
// and the heap they keep.
func BenchmarkLoad(b *testing.B) {
	paths := testenv.Assets(b)
	var before, after runtime.MemStats
	var keep *G2P
	for i := 0; i < b.N; i++ {
		keep = nil
		runtime.GC()
		runtime.ReadMemStats(&before)
		p, err := New(Config{LexiconDir: paths.Lexicon})
		if err != nil {
			b.Fatal(err)
		}
		keep = p
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-heap")
	if rss, ok := residentMiB(); ok {
		b.ReportMetric(rss, "MiB-rss-process")
	}
	runtime.KeepAlive(keep)
}

// residentMiB reads the process's resident set size (Linux), which here is mostly the
// lexicons plus the test binary.
func residentMiB() (float64, bool) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			return kb / 1024, err == nil
		}
	}
	return 0, false
}

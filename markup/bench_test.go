package markup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse reads the corpus, the hostile corpus one document at a time (how long a
// request waits for its 400), and documents of the largest size accepted.
func BenchmarkParse(b *testing.B) {
	_, cases := readCorpus(&testing.T{})
	b.Run("corpus", func(b *testing.B) {
		for b.Loop() {
			for _, c := range cases {
				if d, err := Parse(c.doc); err == nil {
					d.Segments()
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(cases)), "µs/doc")
	})
	files, _ := filepath.Glob("testdata/hostile/*.ssml")
	docs := map[string]string{
		"1MiB-words":     "<speak>" + strings.Repeat("a ", MaxBytes/2-8) + "</speak>",
		"1MiB-sentences": "<speak>" + strings.Repeat("<s>x</s>", MaxBytes/8-4) + "</speak>",
		"1MiB-breaks":    "<speak>" + strings.Repeat(`<break time="1ms"/>`, MaxBytes/20) + "</speak>",
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs[strings.TrimSuffix(filepath.Base(f), ".ssml")] = string(data)
	}
	for name, doc := range docs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if d, err := Parse(doc); err == nil {
					d.Segments()
				}
			}
		})
	}
}

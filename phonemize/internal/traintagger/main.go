// Command traintagger trains the phonemizer's part-of-speech model from text tagged by the
// reference tagger and reports its agreement with the reference on tagged text it was not
// trained on. The committed model was made with (misaki's environment: see
// scripts/reference/gen_phoneme_corpus.py; gen_wild_corpus.py needs a Python with rdata 1.1.0):
//
//	python3 scripts/corpus/gen_wild_corpus.py --train /tmp/train.txt
//	.venv-misaki/bin/python scripts/reference/gen_tagger_data.py /tmp/train.txt > /tmp/tagged.tsv
//	go run ./phonemize/internal/traintagger -in /tmp/tagged.tsv -epochs 6 -min-weight 2 \
//	    -eval phonemize/testdata/wild_dev_tags.tsv,phonemize/testdata/wild_heldout_tags.tsv \
//	    -out phonemize/postag.model.gz
//
// (-min-weight 2 keeps the features under 2^19, so the tagger's table is 16 MiB; 1.5 kept
// 787k features, a 32 MiB table, for no better readings of the development corpora.)
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize/internal/postag"
)

func main() {
	in := flag.String("in", "", "training data: TEXT<TAB>TOKEN<TAB>TAG... per line")
	eval := flag.String("eval", "", "comma-separated tagged files to report agreement on")
	out := flag.String("out", "", "where to write the model (gzip)")
	epochs := flag.Int("epochs", 8, "training passes")
	minW := flag.Float64("min-weight", 0.5, "drop averaged weights smaller than this")
	flag.Parse()
	train, err := read(*in)
	if err != nil {
		log.Fatal(err)
	}
	m := postag.Train(train, postag.TrainConfig{Epochs: *epochs, MinWeight: *minW})
	tags, feats, weights, dict := m.Stats()
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		log.Fatal(err)
	}
	// Evaluate the model as it will be loaded (quantized), not as trained.
	m, err = postag.Load(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("trained on %d sentences: %d tags, %d features, %d weights, %d dictionary words, %d bytes\n",
		len(train), tags, feats, weights, dict, buf.Len())
	for _, f := range strings.Split(*eval, ",") {
		if f == "" {
			continue
		}
		sents, err := read(f)
		if err != nil {
			log.Fatal(err)
		}
		ok, all := 0, 0
		for _, s := range sents {
			got := m.Tag(s.Words)
			for i := range got {
				all++
				if got[i] == s.Tags[i] {
					ok++
				}
			}
		}
		fmt.Printf("%s: %d/%d tags agree (%.2f%%)\n", f, ok, all, 100*float64(ok)/float64(max(all, 1)))
	}
	if *out != "" {
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func read(path string) ([]postag.Sentence, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []postag.Sentence
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		var s postag.Sentence
		for i := 1; i+1 < len(parts); i += 2 {
			// spaCy keeps runs of spaces as tokens; the phonemizer's tokenizer never makes them.
			if strings.TrimSpace(parts[i]) == "" {
				continue
			}
			s.Words = append(s.Words, parts[i])
			s.Tags = append(s.Tags, parts[i+1])
		}
		if len(s.Words) > 0 {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

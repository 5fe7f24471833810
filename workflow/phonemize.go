package workflow

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Phonemize is `kokoro phonemize`: a text's phonemes and model chunks, or a file's phonemes
// line by line.
type Phonemize struct {
	Text          []string // the words of the text; empty with Batch
	Batch         string   // a file of one utterance per line, "-" for standard input
	Lang, Voice   string   // the language, or the voice whose prefix picks it
	Espeak        string
	Timing        bool // with Batch: each line's phonemizing time to stderr
	FirstChunkIDs int  // id budget of the first chunk; 0 = default
	MaxIDs        int  // id budget of later chunks; 0 = the model's
}

// Run writes the phonemes to out: the text's, then each chunk's text, phonemes and ids; or
// one line per line of the batch.
func (f Phonemize) Run(in io.Reader, out, stderr io.Writer) error {
	if (f.Batch == "") == (len(f.Text) == 0) {
		return errors.New("give either TEXT or --batch FILE (- for standard input)")
	}
	lang, err := phonemize.ResolveLang(f.Lang, f.Voice)
	if err != nil {
		return err
	}
	p, err := phonemize.New(phonemize.Config{LexiconDir: assets.Resolve(os.Getenv).Lexicon, Espeak: f.Espeak})
	if err != nil {
		return err
	}
	defer p.Close() // stops the espeak-ng helpers it may have started
	if f.Batch != "" {
		if f.Batch != "-" {
			file, err := os.Open(f.Batch)
			if err != nil {
				return fmt.Errorf("batch input: %w", err)
			}
			defer file.Close()
			in = file
		}
		var times io.Writer
		if f.Timing {
			times = stderr
		}
		return PhonemizeLines(p, in, out, times, lang)
	}
	text := strings.Join(f.Text, " ")
	ps, err := p.Phonemize(text, lang)
	if err != nil {
		return err
	}
	chunks, err := chunk.Chunks(p, text, chunk.Options{Lang: lang, Policy: chunk.Policy{FirstChunkMaxIDs: f.FirstChunkIDs, MaxChunkIDs: f.MaxIDs}})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, ps)
	for i, c := range chunks {
		fmt.Fprintf(out, "chunk %d (%d ids): %s\n  phonemes: %s\n  ids: %v\n", i, len(c.IDs), c.Text, c.Phonemes, c.IDs)
	}
	return nil
}

// PhonemizeLines writes one phoneme line per input line; a blank line stays blank, so output
// line n always belongs to input line n. With times set, each line's phonemizing time (not
// reading or writing) goes there in nanoseconds, one line each, for side-by-side speed runs.
func PhonemizeLines(p *phonemize.Phonemizer, in io.Reader, out, times io.Writer, lang string) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	w := bufio.NewWriter(out)
	var tw *bufio.Writer
	if times != nil {
		tw = bufio.NewWriter(times)
		defer tw.Flush()
	}
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			w.WriteString("\n")
			continue
		}
		start := time.Now()
		ps, err := p.Phonemize(line, lang)
		if tw != nil {
			fmt.Fprintln(tw, time.Since(start).Nanoseconds())
		}
		if err != nil {
			w.Flush()
			return fmt.Errorf("line %d: %w", n, err)
		}
		w.WriteString(ps)
		w.WriteString("\n")
	}
	if err := sc.Err(); err != nil {
		w.Flush()
		return fmt.Errorf("batch input: %w", err)
	}
	return w.Flush()
}

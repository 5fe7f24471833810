package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

func newPhonemizeCmd() *cobra.Command {
	var lang, voice, espeak, batch string
	var firstMax, maxIDs int
	var timing bool
	cmd := &cobra.Command{
		Use:   "phonemize TEXT... | phonemize --batch FILE",
		Short: "Print the phonemes, vocabulary ids and chunk boundaries for a text, or phonemes line by line",
		Long: "With TEXT, prints its phonemes and how it is cut into model chunks. With --batch FILE\n" +
			"(or - for standard input), reads one utterance per line and prints one phoneme line per\n" +
			"input line (an empty line for an empty one), loading the lexicons once.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if (batch == "") == (len(args) == 0) {
				return errors.New("give either TEXT or --batch FILE (- for standard input)")
			}
			lang, err := phonemize.ResolveLang(lang, voice)
			if err != nil {
				return err
			}
			p, err := phonemize.New(phonemize.Config{LexiconDir: assets.Resolve(os.Getenv).Lexicon, Espeak: espeak})
			if err != nil {
				return err
			}
			defer p.Close() // stops the espeak-ng helpers it may have started
			out := cmd.OutOrStdout()
			if batch != "" {
				in := cmd.InOrStdin()
				if batch != "-" {
					f, err := os.Open(batch)
					if err != nil {
						return fmt.Errorf("batch input: %w", err)
					}
					defer f.Close()
					in = f
				}
				var times io.Writer
				if timing {
					times = cmd.ErrOrStderr()
				}
				return phonemizeLines(p, in, out, times, lang)
			}
			text := strings.Join(args, " ")
			ps, err := p.Phonemize(text, lang)
			if err != nil {
				return err
			}
			chunks, err := chunk.Chunks(p, text, chunk.Options{Lang: lang, Policy: chunk.Policy{FirstChunkMaxIDs: firstMax, MaxChunkIDs: maxIDs}})
			if err != nil {
				return err
			}
			fmt.Fprintln(out, ps)
			for i, c := range chunks {
				fmt.Fprintf(out, "chunk %d (%d ids): %s\n  phonemes: %s\n  ids: %v\n", i, len(c.IDs), c.Text, c.Phonemes, c.IDs)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "", "language: "+strings.Join(phonemize.LangCodes(), ", ")+" (default: from --voice, else en-us)")
	cmd.Flags().StringVar(&voice, "voice", "", "voice name whose prefix picks the language (a… en-us, b… en-gb, e… es, f… fr-fr, h… hi, i… it, p… pt-br)")
	cmd.Flags().StringVar(&espeak, "espeak", "", `espeak-ng binary for unknown words; "off" uses the built-in fallback`)
	cmd.Flags().StringVar(&batch, "batch", "", "read one utterance per line from this file (- for standard input)")
	cmd.Flags().BoolVar(&timing, "timing", false, "with --batch, write each line's phonemizing time in nanoseconds to standard error")
	cmd.Flags().IntVar(&firstMax, "first-chunk-max-ids", 0, "id budget of the first chunk (0 = default)")
	cmd.Flags().IntVar(&maxIDs, "max-ids", 0, fmt.Sprintf("id budget of later chunks (0 = %d)", model.MaxIDs))
	return cmd
}

// phonemizeLines writes one phoneme line per input line; a blank line stays blank, so output
// line n always belongs to input line n. With times set, each line's phonemizing time (not
// reading or writing) goes there in nanoseconds, one line each, for side-by-side speed runs.
func phonemizeLines(p *phonemize.Phonemizer, in io.Reader, out, times io.Writer, lang string) error {
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

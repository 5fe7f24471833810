package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newPhonemizeCmd() *cobra.Command {
	var f workflow.Phonemize
	cmd := &cobra.Command{
		Use:   "phonemize TEXT... | phonemize --batch FILE",
		Short: "Print the phonemes, vocabulary ids and chunk boundaries for a text, or phonemes line by line",
		Long: "With TEXT, prints its phonemes and how it is cut into model chunks. With --batch FILE\n" +
			"(or - for standard input), reads one utterance per line and prints one phoneme line per\n" +
			"input line (an empty line for an empty one), loading the lexicons once.",
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Text = args
			return f.Run(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Lang, "lang", "", "language: "+strings.Join(phonemize.LangCodes(), ", ")+" (default: from --voice, else en-us)")
	fl.StringVar(&f.Voice, "voice", "", "voice name whose prefix picks the language (a… en-us, b… en-gb, e… es, f… fr-fr, h… hi, i… it, p… pt-br)")
	fl.StringVar(&f.Espeak, "espeak", "", `espeak-ng binary for unknown words; "off" uses the built-in fallback`)
	fl.StringVar(&f.Batch, "batch", "", "read one utterance per line from this file (- for standard input)")
	fl.BoolVar(&f.Timing, "timing", false, "with --batch, write each line's phonemizing time in nanoseconds to standard error")
	fl.IntVar(&f.FirstChunkIDs, "first-chunk-max-ids", 0, "id budget of the first chunk (0 = default)")
	fl.IntVar(&f.MaxIDs, "max-ids", 0, fmt.Sprintf("id budget of later chunks (0 = %d)", model.MaxIDs))
	return cmd
}

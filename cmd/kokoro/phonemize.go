package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/phonemize"
)

func newPhonemizeCmd() *cobra.Command {
	var lang, voice, espeak string
	var firstMax, maxIDs int
	cmd := &cobra.Command{
		Use:   "phonemize TEXT...",
		Short: "Print the phonemes, vocabulary ids and chunk boundaries for a text",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if lang == "" && voice != "" {
				lang = phonemize.LangForVoice(voice)
			}
			p, err := phonemize.New(phonemize.Config{LexiconDir: assets.Resolve(os.Getenv).Lexicon, Espeak: espeak})
			if err != nil {
				return err
			}
			defer p.Close() // stops the espeak-ng helpers it may have started
			text := strings.Join(args, " ")
			ps, err := p.Phonemize(text, lang)
			if err != nil {
				return err
			}
			chunks, err := p.Chunks(text, phonemize.Options{Lang: lang, FirstChunkMaxIDs: firstMax, MaxIDs: maxIDs})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintln(out, ps)
			for i, c := range chunks {
				fmt.Fprintf(out, "chunk %d (%d ids): %s\n  phonemes: %s\n  ids: %v\n", i, len(c.IDs), c.Text, c.Phonemes, c.IDs)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "", "en-us or en-gb (default: from --voice, else en-us)")
	cmd.Flags().StringVar(&voice, "voice", "", "voice name whose prefix picks the dialect (a… en-us, b… en-gb)")
	cmd.Flags().StringVar(&espeak, "espeak", "", `espeak-ng binary for unknown words; "off" uses the built-in fallback`)
	cmd.Flags().IntVar(&firstMax, "first-chunk-max-ids", 0, "id budget of the first chunk (0 = default)")
	cmd.Flags().IntVar(&maxIDs, "max-ids", 0, fmt.Sprintf("id budget of later chunks (0 = %d)", phonemize.MaxIDs))
	return cmd
}

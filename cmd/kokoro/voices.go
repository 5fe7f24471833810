package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
)

func newVoicesCmd() *cobra.Command {
	dir := assets.Resolve(os.Getenv).Voices
	cmd := &cobra.Command{
		Use:   "voices",
		Short: "List the installed voices (blend them as af_bella(2)+af_sky(1))",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := model.LoadVoices(dir)
			if err != nil {
				return err
			}
			byLang := map[string][]string{}
			var order []string
			for _, n := range v.Names() {
				k := voiceLanguage(n)
				if _, ok := byLang[k]; !ok {
					order = append(order, k)
				}
				byLang[k] = append(byLang[k], n)
			}
			for _, k := range order {
				fmt.Fprintf(cmd.OutOrStdout(), "%-22s %s\n", k+":", strings.Join(byLang[k], " "))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "voices-dir", dir, "voice packs directory (env KOKORO_VOICES)")
	return cmd
}

// voiceLanguage reads the language from a Kokoro voice name's first letter.
func voiceLanguage(name string) string {
	if name == "" {
		return "other"
	}
	switch name[0] {
	case 'a':
		return "American English"
	case 'b':
		return "British English"
	case 'e':
		return "Spanish"
	case 'f':
		return "French"
	case 'h':
		return "Hindi"
	case 'i':
		return "Italian"
	case 'j':
		return "Japanese"
	case 'p':
		return "Brazilian Portuguese"
	case 'z':
		return "Mandarin Chinese"
	}
	return "other"
}

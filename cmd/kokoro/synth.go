package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newSynthCmd() *cobra.Command {
	f := workflow.NewSynth()
	cmd := &cobra.Command{
		Use:   "synth (--text TEXT | --file FILE) [-o out.wav]",
		Short: "Speak text into a WAV file with the real model",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.InOrStdin(), cmd.ErrOrStderr())
		},
	}
	workflow.BindEngine(cmd.Flags(), &f.Engine)
	fl := cmd.Flags()
	fl.StringVar(&f.Text, "text", "", "text to speak")
	fl.StringVar(&f.File, "file", "", "file with the text to speak (- for stdin)")
	fl.StringVar(&f.Voice, "voice", f.Voice, "voice name or blend, e.g. af_bella(2)+af_sky(1)")
	fl.Float64Var(&f.Speed, "speed", f.Speed, fmt.Sprintf("speaking rate, %.1f–%.1f", api.MinSpeed, api.MaxSpeed))
	fl.StringVar(&f.Lang, "lang", "", "language: "+strings.Join(phonemize.LangCodes(), ", ")+" (default: from the voice)")
	fl.StringVarP(&f.Out, "output", "o", f.Out, "output WAV file (- for stdout)")
	fl.StringVar(&f.Captions, "captions", "", "also write the text's captions, timed to the audio, to this file: SubRip for .srt, WebVTT for .vtt")
	fl.BoolVarP(&f.Verbose, "verbose", "v", false, "print each chunk's phonemes and timing")
	return cmd
}

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/captions"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

func newSynthCmd() *cobra.Command {
	var (
		ec      tts.LoadConfig
		text    string
		file    string
		voice   string
		speed   float64
		lang    string
		out     string
		capts   string
		verbose bool
	)
	cmd := &cobra.Command{
		Use:   "synth (--text TEXT | --file FILE) [-o out.wav]",
		Short: "Speak text into a WAV file with the real model",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (text == "") == (file == "") {
				return fmt.Errorf("%w: give exactly one of --text or --file", errUsage)
			}
			if file != "" {
				var b []byte
				var err error
				if file == "-" {
					b, err = io.ReadAll(cmd.InOrStdin())
				} else {
					b, err = os.ReadFile(file)
				}
				if err != nil {
					return err
				}
				text = string(b)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			// Check the voice before paying for the model load.
			vs, err := model.LoadVoices(ec.Assets.Voices)
			if err != nil {
				return err
			}
			if _, err := vs.Resolve(voice); err != nil {
				return err
			}
			if ec.Logger == nil {
				ec.Logger = slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			}
			if ec.Slots == 0 && len(ec.SlotThreads) == 0 {
				ec.Slots = 1 // one utterance: the adaptive shape's wide session is all it uses
			}
			eng, err := tts.Load(ctx, ec, nil)
			if err != nil {
				return err
			}
			defer eng.Close()
			req := tts.Request{Text: text, Voice: voice, Lang: lang}
			if speed != 0 { // 0 has always meant the normal rate here
				req.Speed = &speed
			}
			format, err := captionFormat(capts)
			if err != nil {
				return err
			}
			return synthesize(ctx, eng, req, out, captionsOut{path: capts, format: format}, verbose, cmd.ErrOrStderr())
		},
	}
	addEngineFlags(cmd, &ec)
	f := cmd.Flags()
	f.StringVar(&text, "text", "", "text to speak")
	f.StringVar(&file, "file", "", "file with the text to speak (- for stdin)")
	f.StringVar(&voice, "voice", api.DefaultVoice, "voice name or blend, e.g. af_bella(2)+af_sky(1)")
	f.Float64Var(&speed, "speed", 1, fmt.Sprintf("speaking rate, %.1f–%.1f", api.MinSpeed, api.MaxSpeed))
	f.StringVar(&lang, "lang", "", "language: "+strings.Join(phonemize.LangCodes(), ", ")+" (default: from the voice)")
	f.StringVarP(&out, "output", "o", "out.wav", "output WAV file (- for stdout)")
	f.StringVar(&capts, "captions", "", "also write the text's captions, timed to the audio, to this file: SubRip for .srt, WebVTT for .vtt")
	f.BoolVarP(&verbose, "verbose", "v", false, "print each chunk's phonemes and timing")
	return cmd
}

// captionsOut is where synth writes captions: none when path is "".
type captionsOut struct{ path, format string }

// captionFormat is the caption format a file name asks for by its extension.
func captionFormat(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case path == "":
		return "", nil
	case ext == ".srt":
		return captions.FormatSRT, nil
	case ext == ".vtt":
		return captions.FormatWebVTT, nil
	}
	return "", fmt.Errorf("%w: --captions %s: name a .srt or .vtt file", errUsage, path)
}

func synthesize(ctx context.Context, eng *tts.Engine, req tts.Request, out string, capt captionsOut, verbose bool, log io.Writer) error {
	var pcm []float32
	var words []api.Word
	st, err := eng.Stream(ctx, req, func(c tts.Chunk) error {
		if verbose {
			fmt.Fprintf(log, "chunk %d: %.2fs audio in %.0f ms: %s\n  %s\n", c.Index, c.Duration().Seconds(),
				float64(c.ModelTime.Microseconds())/1000, strings.TrimSpace(c.Text), c.Phonemes)
		}
		for _, w := range c.Words {
			s, e := len(pcm)+w.Start, len(pcm)+w.End
			words = append(words, api.Word{Word: w.Text, Index: len(words), Start: s, End: e, StartMS: api.SamplesMS(s), EndMS: api.SamplesMS(e)})
		}
		pcm = append(pcm, c.PCM...)
		return nil
	})
	if err != nil {
		return err
	}
	if capt.path != "" {
		text, err := captions.Write(capt.format, captions.Cues(words))
		if err != nil {
			return err
		}
		if err := os.WriteFile(capt.path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	wav := audio.EncodeWAV(audio.Mono24k, pcm)
	if out == "-" {
		_, err = os.Stdout.Write(wav)
	} else {
		err = os.WriteFile(out, wav, 0o644)
	}
	if err != nil {
		return err
	}
	rtf := st.ModelTime.Seconds() / st.AudioDuration.Seconds()
	fmt.Fprintf(log, "wrote %s: %.2f s of audio, %d chunks, model %.2f s (RTF %.3f, %.1fx real time), first chunk %.0f ms\n",
		out, st.AudioDuration.Seconds(), st.Chunks, st.ModelTime.Seconds(), rtf, 1/rtf, float64(st.TTFA.Microseconds())/1000)
	return nil
}

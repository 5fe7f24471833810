package workflow

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/captions"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// Synth is `kokoro synth`: one text (Text, or File; "-" reads in) spoken with the real model
// into a WAV file (Out; "-" is standard output), with captions when Captions names a .srt or
// .vtt file.
type Synth struct {
	Engine                  tts.LoadConfig
	Text, File, Voice, Lang string
	Speed                   float64
	Out, Captions           string
	Verbose                 bool
}

// NewSynth returns a Synth with the command's defaults: the default voice at the normal rate
// into out.wav.
func NewSynth() Synth { return Synth{Voice: api.DefaultVoice, Speed: 1, Out: "out.wav"} }

// Run speaks the text; log gets the chunks (Verbose) and the summary line.
func (f Synth) Run(ctx context.Context, in io.Reader, log io.Writer) error {
	if (f.Text == "") == (f.File == "") {
		return fmt.Errorf("%w: give exactly one of --text or --file", ErrUsage)
	}
	if f.File != "" {
		var b []byte
		var err error
		if f.File == "-" {
			b, err = io.ReadAll(in)
		} else {
			b, err = os.ReadFile(f.File)
		}
		if err != nil {
			return err
		}
		f.Text = string(b)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	// Check the voice before paying for the model load.
	vs, err := model.LoadVoices(f.Engine.Assets.Voices)
	if err != nil {
		return err
	}
	if _, err := vs.Resolve(f.Voice); err != nil {
		return err
	}
	if f.Engine.Logger == nil {
		f.Engine.Logger = slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if f.Engine.Slots == 0 && len(f.Engine.SlotThreads) == 0 {
		f.Engine.Slots = 1 // one utterance: the adaptive shape's wide session is all it uses
	}
	eng, err := tts.Load(ctx, f.Engine, nil)
	if err != nil {
		return err
	}
	defer eng.Close()
	req := tts.Request{Text: f.Text, Voice: f.Voice, Lang: f.Lang}
	if f.Speed != 0 { // 0 has always meant the normal rate here
		req.Speed = &f.Speed
	}
	format, err := captionFormat(f.Captions)
	if err != nil {
		return err
	}
	return synthesize(ctx, eng, req, f.Out, captionsOut{path: f.Captions, format: format}, f.Verbose, log)
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
	return "", fmt.Errorf("%w: --captions %s: name a .srt or .vtt file", ErrUsage, path)
}

func synthesize(ctx context.Context, eng *tts.Engine, req tts.Request, out string, capt captionsOut, verbose bool, log io.Writer) error {
	r, err := eng.Check(req)
	if err != nil {
		return err
	}
	var pcm []float32
	var words []api.Word
	st, err := eng.Stream(ctx, r, func(c tts.Chunk) error {
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

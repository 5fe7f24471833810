package listen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/kokoro-sm/kokoro/audio"
)

// RecognizerRate is the sample rate the recognizer's acoustic model was trained on.
const RecognizerRate = 16000

// ModelDir is where Debian's pocketsphinx-en-us installs the US English models.
const ModelDir = "/usr/share/pocketsphinx/model/en-us"

// ErrNoRecognizer reports that pocketsphinx or its English model is not installed.
var ErrNoRecognizer = errors.New("offline recognizer not installed")

// Recognizer transcribes English speech offline with CMU pocketsphinx: an American English
// acoustic model, the CMU pronouncing dictionary and a general trigram language model. It is a
// fixed, deterministic listener, not a good one, so its scores are for comparison only.
type Recognizer struct {
	Bin  string // pocketsphinx_continuous
	HMM  string // acoustic model directory
	LM   string // language model
	Dict string // pronouncing dictionary
}

// Pocketsphinx finds the recognizer installed by the Debian packages pocketsphinx and
// pocketsphinx-en-us, or says how to install it.
func Pocketsphinx() (*Recognizer, error) {
	bin, err := exec.LookPath("pocketsphinx_continuous")
	if err != nil {
		return nil, fmt.Errorf("%w: pocketsphinx_continuous: %w (apt-get install pocketsphinx pocketsphinx-en-us, or make setup as root)", ErrNoRecognizer, err)
	}
	r := &Recognizer{
		Bin:  bin,
		HMM:  filepath.Join(ModelDir, "en-us"),
		LM:   filepath.Join(ModelDir, "en-us.lm.bin"),
		Dict: filepath.Join(ModelDir, "cmudict-en-us.dict"),
	}
	for _, p := range []string{r.HMM, r.LM, r.Dict} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%w: %w (apt-get install pocketsphinx-en-us)", ErrNoRecognizer, err)
		}
	}
	return r, nil
}

// Transcribe returns what the recognizer heard in mono pcm at rate Hz, lower-case words
// separated by single spaces. It hears only the audible speech (AudibleSpan), framed in half a
// second of silence. The recognizer segments at its own silence detector and prints
// one line per segment; the lines are joined.
func (r *Recognizer) Transcribe(ctx context.Context, pcm []float32, rate int) (string, error) {
	f, err := os.CreateTemp("", "kokoro-listen-*.wav")
	if err != nil {
		return "", fmt.Errorf("transcribe: %w", err)
	}
	defer os.Remove(f.Name())
	// The clip is heard as its audible speech in a fixed frame of silence (heard), so that the
	// score is about the words, not about where the clip was cut.
	wav := audio.EncodeWAV(audio.Format{SampleRate: RecognizerRate, Channels: 1}, Resample(heard(pcm, rate), rate, RecognizerRate))
	if _, err := f.Write(wav); err != nil {
		f.Close()
		return "", fmt.Errorf("transcribe: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("transcribe: %w", err)
	}
	cmd := exec.CommandContext(ctx, r.Bin, "-infile", f.Name(), "-hmm", r.HMM, "-lm", r.LM, "-dict", r.Dict, "-logfn", os.DevNull)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("pocketsphinx: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.Join(strings.Fields(strings.ToLower(stdout.String())), " "), nil
}

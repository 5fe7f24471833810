package listen

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/audio"
)

// Segment is one word the aligner placed, in seconds from the start of the clip.
type Segment struct {
	Word       string
	Start, End float64
}

// alignPad is the digital silence put before and after a clip for the aligner: the recognizer
// estimates its noise floor from the first frames, and speech that starts at once loses its
// start (as Transcribe's frame does, heard).
const alignPad = 0.5 // seconds

// ErrNotAligned reports a clip the aligner could not fit its words to.
var ErrNotAligned = errors.New("the aligner could not place the words")

// Align places words in pcm by forced alignment: the recognizer may hear only these words, in
// this order, with silence or breath between any two (a JSGF grammar of the one sentence, with
// pocketsphinx's fillers), and it reports where each word lies, to its 10 ms frame. The clip is
// aligned as it is, with alignPad of silence on both sides, so the times are the clip's own.
// Words are pronouncing-dictionary entries (lower case; Dictionary lists them); one the
// dictionary does not have fails the alignment.
func (r *Recognizer) Align(ctx context.Context, pcm []float32, rate int, words []string) ([]Segment, error) {
	if len(words) == 0 {
		return nil, nil
	}
	for _, w := range words {
		if w == "" || strings.ContainsAny(w, " \t\n;=|*+<>()[]{}/\"") {
			return nil, fmt.Errorf("align: %q is not a dictionary word", w)
		}
	}
	dir, err := os.MkdirTemp("", "kokoro-align-*")
	if err != nil {
		return nil, fmt.Errorf("align: %w", err)
	}
	defer os.RemoveAll(dir)
	pad := make([]float32, int(alignPad*RecognizerRate))
	clip := append(append(append([]float32(nil), pad...), Resample(pcm, rate, RecognizerRate)...), pad...)
	wav := filepath.Join(dir, "clip.wav")
	gram := filepath.Join(dir, "words.jsgf")
	if err := os.WriteFile(wav, audio.EncodeWAV(audio.Format{SampleRate: RecognizerRate, Channels: 1}, clip), 0o600); err != nil {
		return nil, fmt.Errorf("align: %w", err)
	}
	g := "#JSGF V1.0;\ngrammar words;\npublic <words> = " + strings.Join(words, " ") + ";\n"
	if err := os.WriteFile(gram, []byte(g), 0o600); err != nil {
		return nil, fmt.Errorf("align: %w", err)
	}
	// -remove_silence no: the times count from the file's first sample, not from where the
	// recognizer's voice detector found speech.
	cmd := exec.CommandContext(ctx, r.Bin, "-infile", wav, "-hmm", r.HMM, "-dict", r.Dict, "-jsgf", gram,
		"-time", "yes", "-remove_silence", "no", "-logfn", os.DevNull)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("pocketsphinx: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	segs := parseSegments(stdout.Bytes(), alignPad)
	if len(segs) != len(words) {
		return nil, fmt.Errorf("%w: %d of %d words placed", ErrNotAligned, len(segs), len(words))
	}
	for i, s := range segs {
		if s.Word != words[i] {
			return nil, fmt.Errorf("%w: word %d is %q, want %q", ErrNotAligned, i, s.Word, words[i])
		}
	}
	return segs, nil
}

// parseSegments reads pocketsphinx's -time yes lines ("word start end confidence") into the
// words it placed, without the silences, fillers and utterance marks, alternative
// pronunciations ("and(2)") read as their word, times less offset.
func parseSegments(out []byte, offset float64) []Segment {
	var segs []Segment
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 {
			continue
		}
		start, err1 := strconv.ParseFloat(f[1], 64)
		end, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		w := f[0]
		if strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "+") {
			continue // <s>, </s>, <sil>, [NOISE], ++BREATH++
		}
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		segs = append(segs, Segment{Word: w, Start: start - offset, End: end - offset})
	}
	return segs
}

// Dictionary lists the words the recognizer's pronouncing dictionary has, lower case.
func (r *Recognizer) Dictionary() (map[string]bool, error) {
	f, err := os.Open(r.Dict)
	if err != nil {
		return nil, fmt.Errorf("dictionary: %w", err)
	}
	defer f.Close()
	words := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w, _, _ := strings.Cut(sc.Text(), " ")
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		if w != "" {
			words[w] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dictionary: %w", err)
	}
	return words, nil
}

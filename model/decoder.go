package model

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"

	ort "github.com/yalue/onnxruntime_go"
)

// Features is what the predictor makes of one run's ids: the decoder's inputs, one column per
// frame of FrameSamples samples, and how long each padded id lasts.
type Features struct {
	Frames   int
	Channels int
	Aligned  []float32 // the text features expanded to frames: Channels × Frames, row-major
	F0       []float32 // the pitch curve, two values a frame
	Energy   []float32 // the energy curve, two values a frame
	Style    []float32
	// Spans are the samples each padded id makes (a pad, the ids, a pad), summing to
	// Frames × FrameSamples.
	Spans []int
}

// ErrNoSplit reports a model whose predictor and decoder could not be told apart: it runs
// whole (Synthesize), never in decoder windows.
var ErrNoSplit = errors.New("model is not split into predictor and decoder")

// Splits reports whether the model runs as a predictor and a decoder, so that Decode can make
// any window of a run's frames.
func (m *Model) Splits() bool { return m.split != nil }

// Predict runs the predictor on ids (without pads) spoken with style at speed.
func (m *Model) Predict(ctx context.Context, slot int, ids []int64, style []float32, speed float32) (*Features, error) {
	if m.split == nil {
		return nil, ErrNoSplit
	}
	ins, free, err := m.inputs(ctx, slot, ids, style, speed)
	if err != nil {
		return nil, err
	}
	defer free()
	outs := make([]ort.Value, 4)
	if err := m.exec(ctx, m.split.pred[slot], ins, outs); err != nil {
		return nil, err
	}
	for _, o := range outs {
		defer o.Destroy()
	}
	aligned, ok1 := outs[0].(*ort.Tensor[float32])
	f0, ok2 := outs[1].(*ort.Tensor[float32])
	energy, ok3 := outs[2].(*ort.Tensor[float32])
	dur, ok4 := outs[3].(*ort.Tensor[int64])
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, fmt.Errorf("%w: predictor outputs %T %T %T %T", ErrContract, outs[0], outs[1], outs[2], outs[3])
	}
	shape := aligned.GetShape()
	if len(shape) != 3 || shape[0] != 1 {
		return nil, fmt.Errorf("%w: text features of shape %v", ErrContract, shape)
	}
	f := &Features{Channels: int(shape[1]), Frames: int(shape[2]), Style: append([]float32(nil), style...),
		Aligned: append([]float32(nil), aligned.GetData()...), F0: append([]float32(nil), f0.GetData()...),
		Energy: append([]float32(nil), energy.GetData()...)}
	if len(f.F0) != 2*f.Frames || len(f.Energy) != 2*f.Frames {
		return nil, fmt.Errorf("%w: curves of %d and %d values for %d frames", ErrContract, len(f.F0), len(f.Energy), f.Frames)
	}
	frames := dur.GetData()
	if len(frames) != len(ids)+2 {
		return nil, fmt.Errorf("%w: %d durations for %d tokens", ErrNoAlignment, len(frames), len(ids)+2)
	}
	total := 0
	for i, n := range frames {
		if n < 0 || n > int64(f.Frames) {
			return nil, fmt.Errorf("%w: token %d lasts %d frames", ErrNoAlignment, i, n)
		}
		f.Spans = append(f.Spans, int(n)*FrameSamples)
		total += int(n)
	}
	if total != f.Frames {
		return nil, fmt.Errorf("%w: durations make %d frames, the features have %d", ErrNoAlignment, total, f.Frames)
	}
	return f, nil
}

// Window is a span of a run's frames to decode, [From, To), with the frames the decoder also
// hears before and after it (cut from its audio).
type Window struct {
	From, To      int
	Before, After int
}

// Decode makes the audio of window w of f: (w.To−w.From)·FrameSamples samples. The decoder
// hears up to w.Before and w.After frames beyond the window, and the sine source starts at the
// phase the frames before it leave it at, so windows of one run join into continuous speech.
// The window {0, f.Frames, 0, 0} is the whole run's audio.
func (m *Model) Decode(ctx context.Context, slot int, f *Features, w Window) ([]float32, error) {
	if m.split == nil {
		return nil, ErrNoSplit
	}
	if err := m.checkSlot(ctx, slot); err != nil {
		return nil, err
	}
	from, to := w.From, w.To
	if from < 0 || to > f.Frames || from >= to || w.Before < 0 || w.After < 0 {
		return nil, fmt.Errorf("window [%d,%d) of %d frames", from, to, f.Frames)
	}
	a, b := max(0, from-w.Before), min(f.Frames, to+w.After)
	n := b - a
	aligned := make([]float32, f.Channels*n)
	for c := range f.Channels {
		copy(aligned[c*n:(c+1)*n], f.Aligned[c*f.Frames+a:c*f.Frames+b])
	}
	var vals []ort.Value
	defer func() {
		for _, v := range vals {
			v.Destroy()
		}
	}()
	add := func(shape ort.Shape, data []float32) error {
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return fmt.Errorf("decoder input: %w", err)
		}
		vals = append(vals, t)
		return nil
	}
	h := len(m.split.harmonics)
	if err := errors.Join(
		add(ort.NewShape(1, int64(f.Channels), int64(n)), aligned),
		add(ort.NewShape(1, int64(2*n)), append([]float32(nil), f.F0[2*a:2*b]...)),
		add(ort.NewShape(1, int64(2*n)), append([]float32(nil), f.Energy[2*a:2*b]...)),
		add(ort.NewShape(1, StyleDim), append([]float32(nil), f.Style...)),
		add(ort.NewShape(1, 1, int64(h)), phaseOffset(f.F0[:2*a], m.split.harmonics)),
	); err != nil {
		return nil, err
	}
	outs := make([]ort.Value, 1)
	if err := m.exec(ctx, m.split.dec[slot], vals, outs); err != nil {
		return nil, err
	}
	defer outs[0].Destroy()
	audio, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("%w: decoder output is %T", ErrContract, outs[0])
	}
	pcm := audio.GetData()
	lo, hi := (from-a)*FrameSamples, (to-a)*FrameSamples
	if len(pcm) != n*FrameSamples {
		return nil, fmt.Errorf("%w: decoder made %d samples for %d frames", ErrContract, len(pcm), n)
	}
	return append([]float32(nil), pcm[lo:hi]...), nil
}

// phaseOffset is where the sine source's running phase stands, in turns of each harmonic,
// after the half-frames of f0 before a window: the source adds, for every half-frame, the
// fraction of a turn its frequency makes in one sample. Whole turns are dropped (the source
// scales the phase to samples by a whole number, so they change no sample).
func phaseOffset(f0 []float32, harmonics []float32) []float32 {
	out := make([]float32, len(harmonics))
	for k, mult := range harmonics {
		var sum float64
		for _, v := range f0 {
			x := float64(float32(v*mult) / float32(sampleRate))
			sum += x - math.Floor(x)
		}
		out[k] = float32(sum - math.Floor(sum))
	}
	return out
}

// sampleRate is the model's output rate (api.SampleRate; model does not import api).
const sampleRate = 24000

// sessionNames are the inputs a session is fed and the outputs it fetches, in order.
type sessionNames struct{ in, out []string }

// splitSessions are the predictor and decoder sessions of every slot.
type splitSessions struct {
	*split
	pred, dec []*ort.DynamicAdvancedSession
}

func (s *splitSessions) close() error {
	var errs []error
	for _, x := range append(s.pred, s.dec...) {
		if x != nil {
			errs = append(errs, x.Destroy())
		}
	}
	s.pred, s.dec = nil, nil
	return errors.Join(errs...)
}

// splitModel opens every slot as a predictor and a decoder session over the model's graph cut
// in two (splitGraph), and keeps them only if the two in a row make the whole model's audio on
// a probe; the whole-model sessions are then closed. data is the model as the sessions were
// made from it (nil: the file).
func (m *Model) splitModel(ctx context.Context, cfg Config, data []byte, threads []int, log *slog.Logger) error {
	b := data
	if b == nil {
		var err error
		if b, err = os.ReadFile(cfg.Path); err != nil {
			return err
		}
	}
	io := m.info.IO
	sp, err := splitGraph(b, io.Audio, io.Style, io.Duration)
	if err != nil {
		return err
	}
	ss := &splitSessions{split: sp}
	predNames := sessionNames{io.inputNames(), []string{sp.aligned, sp.f0, sp.energy, io.Duration}}
	decNames := sessionNames{[]string{sp.aligned, sp.f0, sp.energy, io.Style, PhaseInput}, []string{io.Audio}}
	for _, n := range threads {
		if err := ctx.Err(); err != nil {
			return errors.Join(err, ss.close())
		}
		shared := len(threads) > 1 && n != cfg.Lone
		p, _, err := newSession(cfg, sp.predictor, predNames, m.info.Provider, n, shared, log)
		if err != nil {
			return errors.Join(err, ss.close())
		}
		ss.pred = append(ss.pred, p)
		d, _, err := newSession(cfg, sp.decoder, decNames, m.info.Provider, n, shared, log)
		if err != nil {
			return errors.Join(err, ss.close())
		}
		ss.dec = append(ss.dec, d)
	}
	// The probe: an ordinary sentence's worth of ids.
	probe := make([]int64, 48)
	for i := range probe {
		probe[i] = int64(43 + (i*7)%26)
	}
	style := make([]float32, StyleDim)
	for i := range style {
		style[i] = float32(math.Sin(float64(i))) / 4
	}
	whole, frames, err := m.run(ctx, 0, probe, style, 1)
	if err != nil {
		return errors.Join(err, ss.close())
	}
	m.split = ss
	parts, partFrames, err := m.run(ctx, 0, probe, style, 1)
	if err == nil {
		err = sameAudio(whole, parts, frames, partFrames)
	}
	if err != nil {
		m.split = nil
		return errors.Join(fmt.Errorf("predictor and decoder do not remake the model's audio: %w", err), ss.close())
	}
	for _, s := range m.sessions {
		_ = s.Destroy()
	}
	m.sessions = nil
	return nil
}

// sameAudio reports how a run of the split model differs from the whole model's, beyond what
// a GPU's reordered sums leave (1e-4 of full scale).
func sameAudio(whole, parts []float32, frames, partFrames []int64) error {
	if len(whole) != len(parts) {
		return fmt.Errorf("%d samples against %d", len(parts), len(whole))
	}
	if frames != nil && !slices.Equal(frames, partFrames) {
		return fmt.Errorf("durations %v against %v", partFrames, frames)
	}
	for i := range whole {
		if d := math.Abs(float64(whole[i] - parts[i])); d > 1e-4 {
			return fmt.Errorf("sample %d differs by %.2g", i, d)
		}
	}
	return nil
}

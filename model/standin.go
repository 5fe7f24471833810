package model

import (
	"fmt"
	"math"
	"os"

	"github.com/kokoro-sm/kokoro/api"
)

// StandInOptions picks which of the public exports' I/O variants the stand-in imitates.
type StandInOptions struct {
	TokensName   string // "tokens" (default) or "input_ids"
	OutputName   string // "audio" (default) or "waveform"
	SpeedInt32   bool   // speed as int32 instead of float32
	WithDuration bool   // add a "duration" output (one frame per token)
	// HiddenDuration computes the same frames inside the graph without an output, as a Round,
	// a Clip and a Cast, the way Kokoro's own exports keep theirs (Open adds the output).
	HiddenDuration bool
	SamplesPerTok  int // audio samples per input token; default 600 (one frame)
}

// StandInModel returns the bytes of a tiny ONNX graph with Kokoro's I/O contract: tokens
// int64 [1,N], style float32 [1,256], speed [1] → audio float32 [N·SamplesPerTok]. The audio is
// a tone whose amplitude follows each token id and the style's mean, so outputs differ by input
// and the length grows with the token count, as the real model's does.
func StandInModel(o StandInOptions) []byte {
	if o.TokensName == "" {
		o.TokensName = "tokens"
	}
	if o.OutputName == "" {
		o.OutputName = "audio"
	}
	if o.SamplesPerTok <= 0 {
		o.SamplesPerTok = 600
	}
	k := o.SamplesPerTok
	tone := make([]float32, k)
	for i := range tone {
		// ~400 Hz at 24 kHz, scaled so the largest id (177) stays well inside [-1, 1].
		tone[i] = float32(0.004 * math.Sin(2*math.Pi*400*float64(i)/api.SampleRate))
	}
	speedIn := "speed"
	nodes := []node{}
	if o.SpeedInt32 {
		nodes = append(nodes, node{op: "Cast", inputs: []string{"speed"}, outputs: []string{"speed_f"}, attrs: []attr{{name: "to", typ: attrInt, i: onnxFloat}}})
		speedIn = "speed_f"
	}
	nodes = append(nodes,
		node{op: "Cast", inputs: []string{o.TokensName}, outputs: []string{"tok_f"}, attrs: []attr{{name: "to", typ: attrInt, i: onnxFloat}}},
		node{op: "Reshape", inputs: []string{"tok_f", "col_shape"}, outputs: []string{"tok_col"}},
		node{op: "Mul", inputs: []string{"tok_col", "tone"}, outputs: []string{"frames"}},
		node{op: "ReduceMean", inputs: []string{"style"}, outputs: []string{"style_mean"}, attrs: []attr{{name: "axes", typ: attrInts, ints: []int64{0, 1}}, {name: "keepdims", typ: attrInt, i: 1}}},
		node{op: "Add", inputs: []string{"style_mean", "one"}, outputs: []string{"gain"}},
		node{op: "Mul", inputs: []string{"frames", "gain"}, outputs: []string{"voiced"}},
		node{op: "Div", inputs: []string{"voiced", speedIn}, outputs: []string{"paced"}},
		node{op: "Reshape", inputs: []string{"paced", "flat_shape"}, outputs: []string{o.OutputName}},
	)
	outputs := []valueInfo{{name: o.OutputName, elemType: onnxFloat, dims: []int64{-1}, dimNames: []string{"audio_length"}}}
	if o.WithDuration {
		nodes = append(nodes,
			node{op: "Greater", inputs: []string{o.TokensName, "minus_one"}, outputs: []string{"tok_any"}},
			node{op: "Cast", inputs: []string{"tok_any"}, outputs: []string{"duration"}, attrs: []attr{{name: "to", typ: attrInt, i: onnxInt64}}},
		)
		outputs = append(outputs, valueInfo{name: "duration", elemType: onnxInt64, dims: []int64{1, -1}, dimNames: []string{"", "sequence_length"}})
	}
	var hidden []tensor
	if o.HiddenDuration {
		nodes = append(nodes,
			node{op: "Mul", inputs: []string{"tok_f", "zero"}, outputs: []string{"dur_zero"}},
			node{op: "Add", inputs: []string{"dur_zero", "one"}, outputs: []string{"dur_raw"}},
			node{op: "Round", inputs: []string{"dur_raw"}, outputs: []string{"dur_round"}},
			node{op: "Clip", inputs: []string{"dur_round", "one_scalar"}, outputs: []string{"dur_clip"}},
			node{op: "Cast", inputs: []string{"dur_clip"}, outputs: []string{"dur_frames"}, attrs: []attr{{name: "to", typ: attrInt, i: onnxInt64}}},
		)
		hidden = []tensor{{name: "zero", dims: []int64{1}, floats: []float32{0}}, {name: "one_scalar", floats: []float32{1}}}
	}
	speedType := onnxFloat
	if o.SpeedInt32 {
		speedType = onnxInt32
	}
	g := graph{
		name:  "kokoro_standin",
		nodes: nodes,
		initializers: []tensor{
			{name: "col_shape", dims: []int64{2}, ints: []int64{-1, 1}},
			{name: "flat_shape", dims: []int64{1}, ints: []int64{-1}},
			{name: "tone", dims: []int64{1, int64(k)}, floats: tone},
			{name: "one", dims: []int64{1}, floats: []float32{1}},
			{name: "minus_one", dims: []int64{1}, ints: []int64{-1}},
		},
		inputs: []valueInfo{
			{name: o.TokensName, elemType: onnxInt64, dims: []int64{1, -1}, dimNames: []string{"", "sequence_length"}},
			{name: "style", elemType: onnxFloat, dims: []int64{1, 256}},
			{name: "speed", elemType: speedType, dims: []int64{1}},
		},
		outputs: outputs,
	}
	if !o.WithDuration {
		g.initializers = g.initializers[:4]
	}
	g.initializers = append(g.initializers, hidden...)
	return g.encodeModel(13)
}

// WriteStandIn writes the stand-in model to path.
func WriteStandIn(path string, o StandInOptions) error {
	if err := os.WriteFile(path, StandInModel(o), 0o644); err != nil {
		return fmt.Errorf("write stand-in model: %w", err)
	}
	return nil
}

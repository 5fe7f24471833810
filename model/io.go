package model

import (
	"errors"
	"fmt"
	"strings"

	ort "github.com/yalue/onnxruntime_go"
)

// MaxIDs is the most phoneme ids one run of the model takes between its two pads: the input
// limit every chunk is cut to, and the number of style rows in a voice pack (PackRows).
const MaxIDs = 510

// IO is the model's input/output contract as read from the file.
type IO struct {
	Tokens     string // "input_ids" or "tokens" (int64 [1,N])
	Style      string // float32 [1,256]
	Speed      string
	SpeedInt32 bool   // some exports take speed as int32
	Audio      string // "waveform" or "audio" (float32)
	Duration   string // optional frames-per-token output; "" when absent
}

// ErrContract reports a model whose inputs or outputs are not Kokoro's.
var ErrContract = errors.New("model does not have Kokoro's inputs and outputs")

// detectIO maps the names and dtypes ONNX Runtime reports onto Kokoro's contract.
func detectIO(inputs, outputs []ort.InputOutputInfo) (IO, error) {
	var io IO
	for _, in := range inputs {
		switch in.Name {
		case "input_ids", "tokens":
			if in.DataType != ort.TensorElementDataTypeInt64 {
				return io, fmt.Errorf("%w: input %q is %v, want int64", ErrContract, in.Name, in.DataType)
			}
			io.Tokens = in.Name
		case "style", "ref_s":
			if in.DataType != ort.TensorElementDataTypeFloat {
				return io, fmt.Errorf("%w: input %q is %v, want float32", ErrContract, in.Name, in.DataType)
			}
			io.Style = in.Name
		case "speed":
			switch in.DataType {
			case ort.TensorElementDataTypeFloat:
			case ort.TensorElementDataTypeInt32:
				io.SpeedInt32 = true
			default:
				return io, fmt.Errorf("%w: input speed is %v, want float32 or int32", ErrContract, in.DataType)
			}
			io.Speed = in.Name
		default:
			return io, fmt.Errorf("%w: unexpected input %q", ErrContract, in.Name)
		}
	}
	for _, out := range outputs {
		switch out.Name {
		case "waveform", "audio":
			if out.DataType != ort.TensorElementDataTypeFloat {
				return io, fmt.Errorf("%w: output %q is %v, want float32", ErrContract, out.Name, out.DataType)
			}
			io.Audio = out.Name
		case "duration", "pred_dur":
			io.Duration = out.Name
		}
	}
	var missing []string
	for name, v := range map[string]string{"tokens|input_ids": io.Tokens, "style": io.Style, "speed": io.Speed, "audio|waveform": io.Audio} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return io, fmt.Errorf("%w: missing %s", ErrContract, strings.Join(missing, ", "))
	}
	return io, nil
}

func (io IO) inputNames() []string { return []string{io.Tokens, io.Style, io.Speed} }

// outputNames is what a run fetches: the audio, and the durations when the model has them.
func (io IO) outputNames() []string {
	if io.Duration == "" {
		return []string{io.Audio}
	}
	return []string{io.Audio, io.Duration}
}

func (io IO) String() string {
	speed := "float32"
	if io.SpeedInt32 {
		speed = "int32"
	}
	s := fmt.Sprintf("%s:int64[1,N] %s:float32[1,256] %s:%s[1] -> %s:float32", io.Tokens, io.Style, io.Speed, speed, io.Audio)
	if io.Duration != "" {
		s += " + " + io.Duration
	}
	return s
}

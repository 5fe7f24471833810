package model

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestCUDAOptions(t *testing.T) {
	t.Parallel()
	o := cudaOptions(1)
	for k, want := range map[string]string{"device_id": "1", "cudnn_conv_algo_search": "DEFAULT", "arena_extend_strategy": "kSameAsRequested"} {
		if o[k] != want {
			t.Errorf("%s = %q, want %q", k, o[k], want)
		}
	}
}

// A quantized export is told apart from a float one by the operators it uses, so a CUDA
// user can be warned that its integer operators bounce between host and device.
func TestIntegerOps(t *testing.T) {
	t.Parallel()
	standin := filepath.Join(t.TempDir(), "standin.onnx")
	if err := WriteStandIn(standin, StandInOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(standin)
	if err != nil {
		t.Fatal(err)
	}
	if ops := integerOps(b); len(ops) != 0 {
		t.Errorf("stand-in model: %v, want none", ops)
	}
	if ops := integerOps([]byte("\x0aConvInteger\x12\x0dMatMulInteger")); !slices.Equal(ops, []string{"ConvInteger", "MatMulInteger"}) {
		t.Errorf("quantized ops %v", ops)
	}
	if ops := integerOps(nil); ops != nil {
		t.Errorf("unread file: %v", ops)
	}
}

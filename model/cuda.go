package model

import (
	"bytes"
	"strconv"

	ort "github.com/yalue/onnxruntime_go"
)

// On CUDA every slot is a session of its own on the same device, and ONNX Runtime gives each
// session's CUDA execution provider its own compute stream: slots run side by side on the
// device without waiting for each other. A chunk's inputs (a few hundred bytes of ids, the
// style row, the speed) go to the device and its audio comes back to be streamed; nothing is
// carried from one chunk to the next, so there is no other copy between host and device, as
// long as every operator of the graph runs on the device (integerOps tells when not).

// cudaOptions are the CUDA execution provider's options for one slot on device.
func cudaOptions(device int) map[string]string {
	return map[string]string{
		"device_id": strconv.Itoa(device),
		// EXHAUSTIVE autotuning runs on every new input length, which a TTS model sees
		// constantly.
		"cudnn_conv_algo_search": "DEFAULT",
		// Each slot's arena grows by what a chunk needs rather than to the next power of two,
		// so that several slots fit beside each other on one device.
		"arena_extend_strategy": "kSameAsRequested",
		// Copies run on the stream the slot computes on, in order with its kernels (ONNX
		// Runtime's recommended setting; separate copy streams race).
		"do_copy_in_default_stream": "1",
	}
}

func appendCUDA(opts *ort.SessionOptions, o map[string]string) error {
	cuda, err := ort.NewCUDAProviderOptions()
	if err != nil {
		return err
	}
	defer cuda.Destroy()
	if err := cuda.Update(o); err != nil {
		return err
	}
	return opts.AppendExecutionProviderCUDA(cuda)
}

// quantizedOps are the operators of the int8 exports that the CUDA execution provider has no
// kernel for: ONNX Runtime places them on the CPU, with a copy each way around each of them.
var quantizedOps = []string{"ConvInteger", "MatMulInteger", "DynamicQuantizeLinear"}

// integerOps lists the quantizedOps the model file uses, by their names in the graph; nil for
// an empty file.
func integerOps(file []byte) []string {
	var found []string
	for _, op := range quantizedOps {
		if bytes.Contains(file, []byte(op)) {
			found = append(found, op)
		}
	}
	return found
}

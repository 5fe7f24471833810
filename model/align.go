package model

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Kokoro's exports compute how many frames each token lasts (the duration predictor's output,
// rounded, clipped to at least one frame and cast to int64) and expand the text features by it,
// but most of them return only the audio. Opening such a model, kokoro adds that tensor to the
// graph's outputs, so each run also says where every token's audio lies: the engine can then
// run a chunk with the words around it and keep only its own words' audio.

// FrameSamples is how many samples of audio one duration frame makes: 24 kHz at 40 frames a
// second. Open checks it on the model: a run's frames times FrameSamples must be its samples.
const FrameSamples = 600

// ErrNoAlignment reports a model whose runs cannot say where each token's audio lies.
var ErrNoAlignment = errors.New("model has no per-token durations")

// pbField calls fn for each field of the protobuf message b: its number, and its varint value
// or its bytes (for length-delimited fields). Fixed-width fields are skipped.
func pbField(b []byte, fn func(field int, v uint64, data []byte)) error {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return errors.New("protobuf: bad key")
		}
		b = b[n:]
		field, wire := int(key>>3), key&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return errors.New("protobuf: bad varint")
			}
			b = b[n:]
			fn(field, v, nil)
		case 1:
			if len(b) < 8 {
				return errors.New("protobuf: short fixed64")
			}
			b = b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return errors.New("protobuf: bad length")
			}
			fn(field, 0, b[n:n+int(l)])
			b = b[n+int(l):]
		case 5:
			if len(b) < 4 {
				return errors.New("protobuf: short fixed32")
			}
			b = b[4:]
		default:
			return fmt.Errorf("protobuf: wire type %d", wire)
		}
	}
	return nil
}

// graphNode is what durationTensor needs of an ONNX NodeProto.
type graphNode struct {
	op      string
	inputs  []string
	outputs []string
}

// graphNodes reads the nodes of the main graph of an ONNX model.
func graphNodes(model []byte) ([]graphNode, error) {
	g, err := modelGraph(model)
	if err != nil {
		return nil, err
	}
	nodes := make([]graphNode, len(g.nodes))
	for i, n := range g.nodes {
		nodes[i] = graphNode{op: n.op, inputs: n.inputs, outputs: n.outputs}
	}
	return nodes, nil
}

// durationTensor finds the per-token frame counts in a Kokoro graph: the output of the Cast
// that takes a Clip of a Round (the predicted durations, divided by speed, rounded and kept at
// one frame or more). It reports false unless exactly one such chain exists.
func durationTensor(model []byte) (string, bool) {
	nodes, err := graphNodes(model)
	if err != nil {
		return "", false
	}
	made := map[string]string{} // output name → op of the node that makes it
	for _, n := range nodes {
		for _, o := range n.outputs {
			made[o] = n.op
		}
	}
	rounded := map[string]bool{} // outputs of a Clip of a Round
	for _, n := range nodes {
		if n.op == "Clip" && len(n.inputs) > 0 && made[n.inputs[0]] == "Round" && len(n.outputs) == 1 {
			rounded[n.outputs[0]] = true
		}
	}
	var found []string
	for _, n := range nodes {
		if n.op == "Cast" && len(n.inputs) == 1 && rounded[n.inputs[0]] && len(n.outputs) == 1 {
			found = append(found, n.outputs[0])
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// withOutput returns model with one more graph output, name, of int64 elements. A protobuf
// parser merges a message field that occurs twice, and appends to its repeated fields, so a
// second ModelProto.graph holding only the new GraphProto.output extends the graph in place.
func withOutput(model []byte, name string) []byte {
	out := valueInfo{name: name, elemType: onnxInt64}.encode()
	var g pb
	g = g.bytes(12, out)
	extra := pb(nil).bytes(7, g)
	return append(model[:len(model):len(model)], extra...)
}

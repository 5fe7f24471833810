package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Kokoro is two networks of very different cost in one graph: a predictor (text encoder,
// durations, F0 and energy curves, the text features expanded to frames) and a decoder (the
// vocoder), which takes most of the time and is linear in frames. Splitting the graph lets the
// predictor see a whole sentence while the decoder runs in windows whose audio can be sent
// before the rest is made.
//
// The boundary is found by the graph's structure:
//   - the sine source's phase: the CumSum whose result feeds a Sin;
//   - the F0 curve: walking up from that CumSum through single-input operators to the
//     Unsqueeze that lifts the curve [1,2T] into the decoder;
//   - the energy curve: the tensor made the same way as the F0 curve (same operator, same
//     shape input), lifted by its own Unsqueeze;
//   - the text features: a MatMul output that the decoder consumes and that depends on the
//     durations (the alignment) but not through the F0 curve.
//
// The decoder graph takes those three tensors, the style, and a phase offset added to the sine
// source's running phase, so that a window decoded alone continues the phase of the audio
// before it. splitGraph checks that the decoder needs nothing else from the predictor.

// PhaseInput is the decoder graph's input that offsets the sine source's running phase (in
// turns, before the source's scale to samples): [1,1,H] for H harmonics.
const PhaseInput = "kokoro_phase_offset"

// split is a model cut into its predictor and decoder graphs.
type split struct {
	predictor, decoder []byte
	// aligned, f0, energy are the boundary tensors: the predictor's outputs (after the
	// durations) and the decoder's inputs (before the style and the phase).
	aligned, f0, energy string
	// harmonics are the multiples of F0 the sine source makes, in order.
	harmonics []float32
}

// rawNode is one NodeProto kept as bytes, with what the split reads of it.
type rawNode struct {
	raw             []byte
	op              string
	inputs, outputs []string
}

// graphParts is a GraphProto taken apart: its nodes, its initializers by name, and every other
// field as bytes.
type graphParts struct {
	nodes    []rawNode
	inits    map[string][]byte // TensorProto by name
	initDims map[string][]int64
	inputs   map[string][]byte // ValueInfoProto by name
	values   map[string][]byte // value_info by name
	other    []pbRaw           // name, doc string, …: copied as they are
}

// pbRaw is one protobuf field as it was read.
type pbRaw struct {
	field int
	v     uint64
	data  []byte
	isLen bool
}

func (f pbRaw) append(b pb) pb {
	if f.isLen {
		return b.bytes(f.field, f.data)
	}
	return b.varint(f.field, f.v)
}

// pbFields reads every varint and length-delimited field of b (the formats ONNX's messages use
// at the levels the split touches); a fixed-width field is an error.
func pbFields(b []byte) ([]pbRaw, error) {
	var out []pbRaw
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("protobuf: bad key")
		}
		b = b[n:]
		field, wire := int(key>>3), key&7
		switch wire {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errors.New("protobuf: bad varint")
			}
			b = b[n:]
			out = append(out, pbRaw{field: field, v: v})
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return nil, errors.New("protobuf: bad length")
			}
			out = append(out, pbRaw{field: field, data: b[n : n+int(l)], isLen: true})
			b = b[n+int(l):]
		default:
			return nil, fmt.Errorf("protobuf: wire type %d where the split expects none", wire)
		}
	}
	return out, nil
}

// firstString is the first length-delimited field number f of message b, as a string.
func firstString(b []byte, f int) string {
	s := ""
	_ = pbField(b, func(field int, _ uint64, data []byte) {
		if field == f && s == "" && data != nil {
			s = string(data)
		}
	})
	return s
}

func parseGraph(g []byte) (*graphParts, error) {
	fields, err := pbFields(g)
	if err != nil {
		return nil, err
	}
	p := &graphParts{inits: map[string][]byte{}, initDims: map[string][]int64{}, inputs: map[string][]byte{}, values: map[string][]byte{}}
	for _, f := range fields {
		switch f.field {
		case 1: // node
			n := rawNode{raw: f.data}
			if err := pbField(f.data, func(field int, _ uint64, s []byte) {
				switch field {
				case 1:
					n.inputs = append(n.inputs, string(s))
				case 2:
					n.outputs = append(n.outputs, string(s))
				case 4:
					n.op = string(s)
				}
			}); err != nil {
				return nil, err
			}
			p.nodes = append(p.nodes, n)
		case 5: // initializer
			name := firstString(f.data, 8)
			p.inits[name] = f.data
			var dims []int64
			_ = pbField(f.data, func(field int, v uint64, data []byte) {
				if field == 1 && data == nil {
					dims = append(dims, int64(v))
				}
			})
			p.initDims[name] = dims
		case 11:
			p.inputs[firstString(f.data, 1)] = f.data
		case 12: // outputs: the split declares its own
		case 13:
			p.values[firstString(f.data, 1)] = f.data
		default:
			p.other = append(p.other, f)
		}
	}
	return p, nil
}

// modelGraph reads the main graph of an ONNX model (ModelProto.graph = 7). A graph field that
// occurs more than once is one graph, merged (withOutput relies on it); the bodies of a
// message's parts, concatenated, are that merge.
func modelGraph(model []byte) (*graphParts, error) {
	fields, err := pbFields(model)
	if err != nil {
		return nil, err
	}
	var body []byte
	for _, f := range fields {
		if f.field == 7 {
			body = append(body, f.data...)
		}
	}
	if body == nil {
		return nil, errors.New("no graph")
	}
	return parseGraph(body)
}

// graphIndex answers the split's questions about a graph's wiring.
type graphIndex struct {
	g         *graphParts
	producer  map[string]int   // tensor → node index
	consumers map[string][]int // tensor → node indices
}

func newGraphIndex(g *graphParts) *graphIndex {
	x := &graphIndex{g: g, producer: map[string]int{}, consumers: map[string][]int{}}
	for i, n := range g.nodes {
		for _, o := range n.outputs {
			x.producer[o] = i
		}
		for _, in := range n.inputs {
			x.consumers[in] = append(x.consumers[in], i)
		}
	}
	return x
}

// ancestors is the set of nodes needed to compute outs when the tensors in cut are given.
func (x *graphIndex) ancestors(outs []string, cut map[string]bool) map[int]bool {
	need := map[int]bool{}
	stack := slices.Clone(outs)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if cut[t] {
			continue
		}
		i, ok := x.producer[t]
		if !ok || need[i] {
			continue
		}
		need[i] = true
		stack = append(stack, x.g.nodes[i].inputs...)
	}
	return need
}

// leaves are the tensors the nodes read that none of them makes and that are no initializer.
func (x *graphIndex) leaves(nodes map[int]bool) map[string]bool {
	made := map[string]bool{}
	for i := range nodes {
		for _, o := range x.g.nodes[i].outputs {
			made[o] = true
		}
	}
	out := map[string]bool{}
	for i := range nodes {
		for _, in := range x.g.nodes[i].inputs {
			if in != "" && !made[in] && x.g.inits[in] == nil {
				out[in] = true
			}
		}
	}
	return out
}

// reaches reports whether node i's output leads to a node of op within hops steps.
func (x *graphIndex) reaches(i int, op string, hops int) bool {
	if hops == 0 {
		return false
	}
	for _, o := range x.g.nodes[i].outputs {
		for _, c := range x.consumers[o] {
			if x.g.nodes[c].op == op || x.reaches(c, op, hops-1) {
				return true
			}
		}
	}
	return false
}

// splitGraph cuts a Kokoro model into predictor and decoder; audio is the model's audio output,
// style its style input, durations its per-token frames tensor.
func splitGraph(model []byte, audio, style, durations string) (*split, error) {
	fields, err := pbFields(model)
	if err != nil {
		return nil, err
	}
	g, err := modelGraph(model)
	if err != nil {
		return nil, err
	}
	x := newGraphIndex(g)

	// The sine source: a CumSum that leads to a Sin within a few operators.
	phase := -1
	for i, n := range g.nodes {
		if n.op == "CumSum" && x.reaches(i, "Sin", 8) {
			if phase >= 0 {
				return nil, errors.New("more than one sine source")
			}
			phase = i
		}
	}
	if phase < 0 {
		return nil, errors.New("no sine source (a CumSum feeding a Sin)")
	}
	// Up from its phase to the Unsqueeze that lifts the F0 curve, noting the harmonics: the
	// initializer of shape [1,H,1] multiplied in on the way.
	var harmonics []float32
	t := g.nodes[phase].inputs[0]
	f0 := ""
	for steps := 0; steps < 32 && f0 == ""; steps++ {
		i, ok := x.producer[t]
		if !ok {
			break
		}
		n := g.nodes[i]
		var data []string
		for _, in := range n.inputs {
			if in == "" {
				continue
			}
			if d := g.initDims[in]; g.inits[in] != nil {
				if len(d) == 3 && d[0] == 1 && d[2] == 1 && n.op == "Mul" {
					harmonics = floatData(g.inits[in])
				}
				continue
			}
			if _, made := x.producer[in]; made && x.g.nodes[x.producer[in]].op == "Constant" {
				continue
			}
			data = append(data, in)
		}
		if n.op == "Unsqueeze" && len(data) == 1 {
			f0 = data[0]
			break
		}
		if n.op == "Sub" && len(data) == 2 { // x − floor(x): follow x
			data = data[:1]
		}
		if len(data) != 1 {
			return nil, fmt.Errorf("the sine source's F0 path forks at %s", n.op)
		}
		t = data[0]
	}
	if f0 == "" {
		return nil, errors.New("no F0 curve above the sine source")
	}
	if len(harmonics) == 0 {
		return nil, errors.New("no harmonic multiples in the sine source")
	}
	// The energy curve: made like the F0 curve (same operator, same other inputs), lifted by
	// an Unsqueeze of its own.
	fp, ok := x.producer[f0]
	if !ok {
		return nil, errors.New("the F0 curve is an input of the model")
	}
	energy := ""
	for i, n := range g.nodes {
		if i == fp || n.op != g.nodes[fp].op || len(n.inputs) != len(g.nodes[fp].inputs) || len(n.outputs) != 1 {
			continue
		}
		if !slices.Equal(n.inputs[1:], g.nodes[fp].inputs[1:]) {
			continue
		}
		for _, c := range x.consumers[n.outputs[0]] {
			if g.nodes[c].op == "Unsqueeze" {
				if energy != "" {
					return nil, errors.New("more than one curve made like the F0 curve")
				}
				energy = n.outputs[0]
			}
		}
	}
	if energy == "" {
		return nil, errors.New("no energy curve beside the F0 curve")
	}
	// The text features: the MatMul outputs that depend on the durations, that the audio needs
	// when the curves are given, and whose own inputs do not need the curves' path.
	curves := map[string]bool{f0: true, energy: true, style: true}
	withDur := x.descendants(durations)
	dec0 := x.ancestors([]string{audio}, curves)
	var aligned string
	for i := range dec0 {
		n := g.nodes[i]
		if n.op != "MatMul" || !withDur[i] {
			continue
		}
		// Everything above it is the predictor's: none of it is a decoder node that reads a curve.
		up := x.ancestors(n.inputs, nil)
		reads := false
		for j := range up {
			for _, in := range g.nodes[j].inputs {
				if in == f0 || in == energy {
					reads = true
				}
			}
		}
		if reads {
			continue
		}
		if aligned != "" && aligned != n.outputs[0] {
			// The outermost one: a MatMul that feeds another candidate is the predictor's.
			if x.ancestors([]string{n.outputs[0]}, nil)[x.producer[aligned]] {
				continue
			}
			if !x.ancestors([]string{aligned}, nil)[i] {
				return nil, errors.New("more than one text-feature alignment")
			}
		}
		aligned = n.outputs[0]
	}
	if aligned == "" {
		return nil, errors.New("no aligned text features")
	}
	cut := map[string]bool{f0: true, energy: true, aligned: true}
	dec := x.ancestors([]string{audio}, cut)
	for l := range x.leaves(dec) {
		if !cut[l] && l != style {
			return nil, fmt.Errorf("the decoder needs %q beyond the boundary", l)
		}
	}
	pred := x.ancestors([]string{aligned, f0, energy, durations}, nil)

	s := &split{aligned: aligned, f0: f0, energy: energy, harmonics: harmonics}
	phaseOut := g.nodes[phase].outputs[0]
	shifted := phaseOut + "_kokoro_shifted"
	add := rawNode{op: "Add", inputs: []string{phaseOut, PhaseInput}, outputs: []string{shifted}}
	add.raw = node{op: "Add", inputs: add.inputs, outputs: add.outputs}.encode("kokoro_phase_add")

	var decNodes []rawNode
	for i, n := range g.nodes {
		if !dec[i] {
			continue
		}
		if slices.Contains(n.inputs, phaseOut) {
			n = renameInput(n, phaseOut, shifted)
		}
		decNodes = append(decNodes, n)
		if i == phase {
			decNodes = append(decNodes, add)
		}
	}
	var predNodes []rawNode
	for i, n := range g.nodes {
		if pred[i] {
			predNodes = append(predNodes, n)
		}
	}
	floatIn := func(name string) []byte { return valueInfo{name: name, elemType: onnxFloat}.encode() }
	styleIn := g.inputs[style]
	if styleIn == nil {
		return nil, fmt.Errorf("no input %q", style)
	}
	s.decoder = g.encode(fields, decNodes, [][]byte{floatIn(aligned), floatIn(f0), floatIn(energy), styleIn, floatIn(PhaseInput)},
		[][]byte{floatIn(audio)})
	var predIns [][]byte
	for l := range x.leaves(pred) {
		in := g.inputs[l]
		if in == nil {
			return nil, fmt.Errorf("the predictor needs %q, which is no input", l)
		}
		predIns = append(predIns, in)
	}
	slices.SortFunc(predIns, func(a, b []byte) int { return slices.Compare(a, b) })
	s.predictor = g.encode(fields, predNodes, predIns, [][]byte{floatIn(aligned), floatIn(f0), floatIn(energy),
		valueInfo{name: durations, elemType: onnxInt64}.encode()})
	return s, nil
}

// descendants is the set of nodes that read t, directly or through others.
func (x *graphIndex) descendants(t string) map[int]bool {
	out := map[int]bool{}
	stack := []string{t}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range x.consumers[t] {
			if !out[c] {
				out[c] = true
				stack = append(stack, x.g.nodes[c].outputs...)
			}
		}
	}
	return out
}

// renameInput re-encodes n with input from renamed to to.
func renameInput(n rawNode, from, to string) rawNode {
	fields, err := pbFields(n.raw)
	if err != nil {
		return n
	}
	var b pb
	for _, f := range fields {
		if f.field == 1 && string(f.data) == from {
			f.data = []byte(to)
		}
		b = f.append(b)
	}
	out := rawNode{raw: b, op: n.op, outputs: n.outputs}
	for _, in := range n.inputs {
		if in == from {
			in = to
		}
		out.inputs = append(out.inputs, in)
	}
	return out
}

// encode writes a model like the one whose fields are model, with a graph of nodes, the
// initializers they read, and the given inputs and outputs (encoded ValueInfoProtos).
func (g *graphParts) encode(model []pbRaw, nodes []rawNode, inputs, outputs [][]byte) []byte {
	used := map[string]bool{}
	for _, n := range nodes {
		for _, in := range n.inputs {
			used[in] = true
		}
	}
	var gb pb
	for _, n := range nodes {
		gb = gb.bytes(1, n.raw)
	}
	for _, f := range g.other {
		gb = f.append(gb)
	}
	names := make([]string, 0, len(g.inits))
	for name := range g.inits {
		if used[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		gb = gb.bytes(5, g.inits[name])
	}
	for _, in := range inputs {
		gb = gb.bytes(11, in)
	}
	for _, out := range outputs {
		gb = gb.bytes(12, out)
	}
	var m pb
	wrote := false
	for _, f := range model {
		if f.field == 7 {
			if !wrote {
				m = m.bytes(7, gb)
			}
			wrote = true
			continue
		}
		m = f.append(m)
	}
	return m
}

// floatData reads a float TensorProto's values (raw_data, or float_data).
func floatData(t []byte) []float32 {
	var out []float32
	_ = pbField(t, func(field int, _ uint64, data []byte) {
		switch {
		case field == 9 && data != nil: // raw_data
			for i := 0; i+4 <= len(data); i += 4 {
				out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(data[i:])))
			}
		case field == 4 && data != nil: // packed float_data
			for i := 0; i+4 <= len(data); i += 4 {
				out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(data[i:])))
			}
		}
	})
	return out
}

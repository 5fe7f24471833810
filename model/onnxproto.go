package model

import (
	"encoding/binary"
	"math"
)

// A minimal protobuf writer for the handful of ONNX messages the stand-in graph needs. Field
// numbers follow onnx.proto; only what the stand-in uses is implemented.

type pb []byte

func (b pb) varint(field int, v uint64) pb {
	b = binary.AppendUvarint(b, uint64(field<<3)) // wire type 0 (varint) in the low bits
	return binary.AppendUvarint(b, v)
}

func (b pb) bytes(field int, v []byte) pb {
	b = binary.AppendUvarint(b, uint64(field<<3|2))
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func (b pb) str(field int, s string) pb { return b.bytes(field, []byte(s)) }

func (b pb) f32(field int, v float32) pb {
	b = binary.AppendUvarint(b, uint64(field<<3|5))
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
}

// ONNX element types.
const (
	onnxFloat = 1
	onnxInt32 = 6
	onnxInt64 = 7
	onnxBool  = 9
)

// ONNX attribute types.
const (
	attrFloat = 1
	attrInt   = 2
	attrInts  = 7
)

type attr struct {
	name string
	typ  int
	i    int64
	f    float32
	ints []int64
}

func (a attr) encode() pb {
	var b pb
	b = b.str(1, a.name)
	switch a.typ {
	case attrFloat:
		b = b.f32(2, a.f)
	case attrInt:
		b = b.varint(3, uint64(a.i))
	case attrInts:
		for _, v := range a.ints {
			b = b.varint(8, uint64(v))
		}
	}
	return b.varint(20, uint64(a.typ))
}

type node struct {
	op      string
	inputs  []string
	outputs []string
	attrs   []attr
}

func (n node) encode(name string) pb {
	var b pb
	for _, in := range n.inputs {
		b = b.str(1, in)
	}
	for _, out := range n.outputs {
		b = b.str(2, out)
	}
	b = b.str(3, name)
	b = b.str(4, n.op)
	for _, a := range n.attrs {
		b = b.bytes(5, a.encode())
	}
	return b
}

type tensor struct {
	name   string
	dims   []int64
	floats []float32
	ints   []int64
}

func (t tensor) encode() pb {
	var b pb
	for _, d := range t.dims {
		b = b.varint(1, uint64(d))
	}
	var raw []byte
	if t.floats != nil {
		b = b.varint(2, onnxFloat)
		for _, f := range t.floats {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
		}
	} else {
		b = b.varint(2, onnxInt64)
		for _, v := range t.ints {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
		}
	}
	b = b.str(8, t.name)
	return b.bytes(9, raw)
}

// valueInfo declares a graph input or output; a dim of -1 is symbolic, named by dimNames.
type valueInfo struct {
	name     string
	elemType int
	dims     []int64
	dimNames []string
}

func (v valueInfo) encode() pb {
	var shape pb
	for i, d := range v.dims {
		var dim pb
		if d < 0 {
			dim = dim.str(2, v.dimNames[i])
		} else {
			dim = dim.varint(1, uint64(d))
		}
		shape = shape.bytes(1, dim)
	}
	var tt pb
	tt = tt.varint(1, uint64(v.elemType))
	if v.dims != nil { // no dims: the shape is left unstated, as ONNX allows
		tt = tt.bytes(2, shape)
	}
	var typ pb
	typ = typ.bytes(1, tt)
	var b pb
	b = b.str(1, v.name)
	return b.bytes(2, typ)
}

type graph struct {
	name         string
	nodes        []node
	initializers []tensor
	inputs       []valueInfo
	outputs      []valueInfo
}

func (g graph) encodeModel(opset int) []byte {
	var gb pb
	for i, n := range g.nodes {
		gb = gb.bytes(1, n.encode(n.op+"_"+itoa(i)))
	}
	gb = gb.str(2, g.name)
	for _, t := range g.initializers {
		gb = gb.bytes(5, t.encode())
	}
	for _, v := range g.inputs {
		gb = gb.bytes(11, v.encode())
	}
	for _, v := range g.outputs {
		gb = gb.bytes(12, v.encode())
	}
	var op pb
	op = op.str(1, "")
	op = op.varint(2, uint64(opset))
	var m pb
	m = m.varint(1, 8) // IR version 8
	m = m.str(2, "kokoro-standin")
	m = m.bytes(7, gb)
	m = m.bytes(8, op)
	return m
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

package smruntime

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream/eventstreamapi"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestResponseStreamRoundTrip: what the service side writes, the client side reads back,
// part by part, with the error events as typed exceptions.
func TestResponseStreamRoundTrip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ew := NewEventWriter(&buf, nil)
	parts := []Part{
		{Bytes: []byte(`{"type":"synthesis_start"}`), DataType: DataTypeUTF8, CompletionState: CompletePart},
		{Bytes: []byte{1, 2, 3, 4}, DataType: DataTypeBinary},
		{Bytes: []byte("wav bytes")},
	}
	for _, p := range parts {
		if err := ew.Part(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := ew.Exception(StreamException{Type: ExceptionModelStreamError, ErrorCode: StreamErrorBroken, Message: "gone"}); err != nil {
		t.Fatal(err)
	}
	rr := NewResponseReader(&buf)
	for i, want := range parts {
		got, err := rr.Next()
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if !bytes.Equal(got.Bytes, want.Bytes) || got.DataType != want.DataType || got.CompletionState != want.CompletionState {
			t.Errorf("part %d: %+v; want %+v", i, got, want)
		}
	}
	_, err := rr.Next()
	var se *StreamException
	if !errors.As(err, &se) || se.Type != ExceptionModelStreamError || se.ErrorCode != StreamErrorBroken || se.Message != "gone" {
		t.Errorf("exception event: %v", err)
	}
	if _, err := rr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last event: %v; want io.EOF", err)
	}
}

// TestResponseStreamCutShort: a stream that stops inside a message is not a clean end.
func TestResponseStreamCutShort(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := NewEventWriter(&buf, nil).Part(Part{Bytes: make([]byte, 100)}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3, 12, 60, buf.Len() - 2} {
		_, err := NewResponseReader(bytes.NewReader(buf.Bytes()[:n])).Next()
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut after %d of %d bytes: %v; want io.ErrUnexpectedEOF", n, buf.Len(), err)
		}
	}
}

// TestSignedRequestStream: each event travels in a frame with :date and a :chunk-signature
// that chains from the request's signature, and the stream ends with an empty signed frame.
// The chain is checked against v4.StreamSigner fed the same inputs independently.
func TestSignedRequestStream(t *testing.T) {
	t.Parallel()
	creds := aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET"}
	seed := bytes.Repeat([]byte{7}, 32)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	signer := streamSigner{v4.NewStreamSigner(creds, "sagemaker", "us-east-1", seed)}
	enc := eventstream.NewEncoder()
	var ev bytes.Buffer
	if err := enc.Encode(&ev, partMessage(Part{Bytes: []byte("hi"), DataType: DataTypeUTF8, CompletionState: CompletePart})); err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	for _, event := range [][]byte{ev.Bytes(), nil} {
		f, err := SignedFrame(enc, signer, event, at)
		if err != nil {
			t.Fatal(err)
		}
		stream.Write(f)
	}

	check := v4.NewStreamSigner(creds, "sagemaker", "us-east-1", seed)
	dec := eventstream.NewDecoder()
	for i, payload := range [][]byte{ev.Bytes(), {}} {
		m, err := dec.Decode(bytes.NewReader(stream.Bytes()), nil)
		if err != nil {
			t.Fatal(err)
		}
		stream.Next(frameLen(t, m))
		var hb bytes.Buffer
		var h eventstream.Headers
		h.Set(eventstreamapi.DateHeader, eventstream.TimestampValue(at))
		_ = eventstream.EncodeHeaders(&hb, h)
		want, _ := check.GetSignature(context.Background(), hb.Bytes(), payload, at)
		got, ok := m.Headers.Get(eventstreamapi.ChunkSignatureHeader).(eventstream.BytesValue)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("frame %d: signature %x; want %x", i, got, want)
		}
	}

	// The service side reads the part, then the end.
	var again bytes.Buffer
	signer = streamSigner{v4.NewStreamSigner(creds, "sagemaker", "us-east-1", seed)}
	for _, event := range [][]byte{ev.Bytes(), nil} {
		f, _ := SignedFrame(enc, signer, event, at)
		again.Write(f)
	}
	rr := NewRequestReader(&again)
	p, err := rr.Next()
	if err != nil || string(p.Bytes) != "hi" || !p.Text() || !p.Complete() {
		t.Fatalf("part %+v, %v", p, err)
	}
	if _, err := rr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the end frame: %v; want io.EOF", err)
	}
}

func frameLen(t *testing.T, m eventstream.Message) int {
	t.Helper()
	var b bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

// TestRequestStreamRejectsUnsignedFrames: a frame without its signing headers, or a stream
// that stops without the end frame, is an error the service side can report.
func TestRequestStreamRejectsUnsignedFrames(t *testing.T) {
	t.Parallel()
	var unsigned bytes.Buffer
	if err := NewEventWriter(&unsigned, nil).Part(Part{Bytes: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewRequestReader(&unsigned).Next(); err == nil || !strings.Contains(err.Error(), ":chunk-signature") {
		t.Errorf("unsigned frame: %v", err)
	}
	if _, err := NewRequestReader(bytes.NewReader(nil)).Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("no end frame: %v", err)
	}
}

// FuzzResponseStream: whatever bytes arrive, the response reader returns parts or errors and
// never panics or loops; a part it accepts has a valid DataType and CompletionState.
func FuzzResponseStream(f *testing.F) {
	var seed bytes.Buffer
	ew := NewEventWriter(&seed, nil)
	_ = ew.Part(Part{Bytes: []byte("abc"), DataType: DataTypeUTF8, CompletionState: PartialPart})
	_ = ew.Exception(StreamException{Type: ExceptionInternalStreamFailure, Message: "x"})
	f.Add(seed.Bytes())
	f.Add(seed.Bytes()[:20])
	f.Add([]byte{0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		rr := NewResponseReader(bytes.NewReader(data))
		for range len(data) + 1 {
			p, err := rr.Next()
			if err != nil {
				return
			}
			if p.DataType != "" && p.DataType != DataTypeUTF8 && p.DataType != DataTypeBinary {
				t.Fatalf("accepted DataType %q", p.DataType)
			}
			if p.CompletionState != "" && p.CompletionState != PartialPart && p.CompletionState != CompletePart {
				t.Fatalf("accepted CompletionState %q", p.CompletionState)
			}
		}
		t.Fatal("reader did not end")
	})
}

// FuzzRequestStream: the service side's reader of signed frames survives any input.
func FuzzRequestStream(f *testing.F) {
	enc := eventstream.NewEncoder()
	signer := streamSigner{v4.NewStreamSigner(aws.Credentials{AccessKeyID: "A", SecretAccessKey: "S"}, "sagemaker", "us-east-1", []byte{1})}
	var ev bytes.Buffer
	_ = enc.Encode(&ev, partMessage(Part{Bytes: []byte("hi"), DataType: DataTypeBinary}))
	var seed bytes.Buffer
	for _, e := range [][]byte{ev.Bytes(), nil} {
		fr, _ := SignedFrame(enc, signer, e, time.Unix(0, 0))
		seed.Write(fr)
	}
	f.Add(seed.Bytes())
	f.Add(ev.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rr := NewRequestReader(bytes.NewReader(data))
		for range len(data) + 1 {
			if _, err := rr.Next(); err != nil {
				return
			}
		}
		t.Fatal("reader did not end")
	})
}

package smruntime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream/eventstreamapi"
)

// The SageMaker runtime's streams carry their payload as AWS event-stream messages
// (application/vnd.amazon.eventstream: a prelude, typed headers, the payload and CRCs, as the
// "Amazon Event Stream Specification" of the Smithy documentation describes). Framing is the
// SDK's (aws/protocol/eventstream); what the headers and payloads mean comes from the service
// models: "runtime.sagemaker-2017-05-13" (ResponseStream of InvokeEndpointWithResponseStream) and
// "sagemaker-runtime-http2-2025-10-01" (RequestStreamEvent and ResponseStreamEvent of
// InvokeEndpointWithBidirectionalStream), both restJson1, whose event binding is Smithy's: an
// event's union member is the :event-type header, @eventHeader members are headers of the same
// name, the @eventPayload blob is the message payload.

// EventStreamContentType is the media type of an event-stream body.
const EventStreamContentType = "application/vnd.amazon.eventstream"

// Values of a PayloadPart's DataType and CompletionState headers (sagemaker-runtime-http2
// model: patterns ^(UTF8)$|^(BINARY)$ and ^(PARTIAL)$|^(COMPLETE)$).
const (
	DataTypeUTF8     = "UTF8"
	DataTypeBinary   = "BINARY"
	PartialPart      = "PARTIAL"
	CompletePart     = "COMPLETE"
	eventPayloadPart = "PayloadPart"
)

// Event names of the response streams' error members.
const (
	ExceptionModelStreamError      = "ModelStreamError"
	ExceptionInternalStreamFailure = "InternalStreamFailure"
)

// ModelStreamError codes (API reference, ResponseStream: "ModelInvocationTimeExceeded" and
// "StreamBroken").
const (
	StreamErrorTimeout = "ModelInvocationTimeExceeded"
	StreamErrorBroken  = "StreamBroken"
)

// Part is one PayloadPart event. DataType and CompletionState are empty when the event carried
// no such header; the bidirectional API then reads them as BINARY and COMPLETE.
type Part struct {
	Bytes           []byte
	DataType        string
	CompletionState string
}

// Text reports whether the part carries UTF-8 text (DataType UTF8).
func (p Part) Text() bool { return p.DataType == DataTypeUTF8 }

// Complete reports whether the part ends a message (CompletionState absent or COMPLETE).
func (p Part) Complete() bool { return p.CompletionState != PartialPart }

// StreamException is an error event inside a response stream: a modeled exception
// (ModelStreamError, InternalStreamFailure) or a protocol error message.
type StreamException struct {
	Type      string // :exception-type, or :error-code of an error message
	Message   string
	ErrorCode string // ModelStreamError's ErrorCode member
}

func (e *StreamException) Error() string {
	msg := e.Type
	if e.ErrorCode != "" {
		msg += " (" + e.ErrorCode + ")"
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// partMessage builds the event-stream message of a PayloadPart.
func partMessage(p Part) eventstream.Message {
	var m eventstream.Message
	m.Headers.Set(eventstreamapi.MessageTypeHeader, eventstream.StringValue(eventstreamapi.EventMessageType))
	m.Headers.Set(eventstreamapi.EventTypeHeader, eventstream.StringValue(eventPayloadPart))
	m.Headers.Set(eventstreamapi.ContentTypeHeader, eventstream.StringValue("application/octet-stream"))
	if p.DataType != "" {
		m.Headers.Set("DataType", eventstream.StringValue(p.DataType))
	}
	if p.CompletionState != "" {
		m.Headers.Set("CompletionState", eventstream.StringValue(p.CompletionState))
	}
	m.Payload = p.Bytes
	return m
}

// exceptionMessage builds the event-stream message of a modeled stream exception: its members
// as a JSON payload, as restJson1 serializes an error structure.
func exceptionMessage(e StreamException) eventstream.Message {
	var m eventstream.Message
	m.Headers.Set(eventstreamapi.MessageTypeHeader, eventstream.StringValue(eventstreamapi.ExceptionMessageType))
	m.Headers.Set(eventstreamapi.ExceptionTypeHeader, eventstream.StringValue(e.Type))
	m.Headers.Set(eventstreamapi.ContentTypeHeader, eventstream.StringValue("application/json"))
	body := map[string]string{"Message": e.Message}
	if e.ErrorCode != "" {
		body["ErrorCode"] = e.ErrorCode
	}
	m.Payload, _ = json.Marshal(body) // a map of strings always marshals
	return m
}

// maxEventPayload bounds one event's payload. The SDK's decoder allows 16 MiB; audio parts are a
// few kilobytes, so anything near the bound is a broken or hostile stream.
const maxEventPayload = 16 << 20

// readEvent decodes the next message of a response stream: a PayloadPart, or a
// *StreamException for an error event. io.EOF means the stream ended cleanly between messages;
// a stream cut inside a message is io.ErrUnexpectedEOF.
func readEvent(dec *eventstream.Decoder, r io.Reader) (Part, error) {
	m, err := decodeMessage(dec, r)
	if err != nil {
		return Part{}, err
	}
	return parseEvent(m)
}

// decodeMessage decodes one message. The SDK's decoder reports io.EOF also when a message is
// cut after its payload (it copies the payload without a length check and meets the end at
// the CRC); counting what it read tells a clean end from a cut one.
func decodeMessage(dec *eventstream.Decoder, r io.Reader) (eventstream.Message, error) {
	cr := &countingReader{r: r}
	m, err := dec.Decode(cr, nil)
	switch {
	case err == nil:
		return m, nil
	case errors.Is(err, io.EOF) && cr.n == 0:
		return m, io.EOF
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return m, fmt.Errorf("decode event: stream cut after %d bytes of a message: %w", cr.n, io.ErrUnexpectedEOF)
	}
	return m, fmt.Errorf("decode event: %w", err)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// parseEvent interprets one decoded message of a response stream.
func parseEvent(m eventstream.Message) (Part, error) {
	if len(m.Payload) > maxEventPayload {
		return Part{}, fmt.Errorf("event payload of %d bytes over the %d limit", len(m.Payload), maxEventPayload)
	}
	switch mt := headerString(m.Headers, eventstreamapi.MessageTypeHeader); mt {
	case eventstreamapi.EventMessageType:
		if et := headerString(m.Headers, eventstreamapi.EventTypeHeader); et != eventPayloadPart {
			return Part{}, fmt.Errorf("unknown event type %q", et)
		}
		p := Part{
			Bytes:           m.Payload,
			DataType:        headerString(m.Headers, "DataType"),
			CompletionState: headerString(m.Headers, "CompletionState"),
		}
		if p.DataType != "" && p.DataType != DataTypeUTF8 && p.DataType != DataTypeBinary {
			return Part{}, fmt.Errorf("payload part with DataType %q; want UTF8 or BINARY", p.DataType)
		}
		if p.CompletionState != "" && p.CompletionState != PartialPart && p.CompletionState != CompletePart {
			return Part{}, fmt.Errorf("payload part with CompletionState %q; want PARTIAL or COMPLETE", p.CompletionState)
		}
		return p, nil
	case eventstreamapi.ExceptionMessageType:
		e := &StreamException{Type: headerString(m.Headers, eventstreamapi.ExceptionTypeHeader)}
		var body struct{ Message, ErrorCode string }
		if json.Unmarshal(m.Payload, &body) == nil {
			e.Message, e.ErrorCode = body.Message, body.ErrorCode
		} else {
			e.Message = string(m.Payload)
		}
		if e.Type == "" {
			e.Type = "UnknownException"
		}
		return Part{}, e
	case eventstreamapi.ErrorMessageType:
		return Part{}, &StreamException{
			Type:    headerString(m.Headers, eventstreamapi.ErrorCodeHeader),
			Message: headerString(m.Headers, eventstreamapi.ErrorMessageHeader),
		}
	case "":
		return Part{}, errors.New("event without :message-type")
	default:
		return Part{}, fmt.Errorf("unknown :message-type %q", mt)
	}
}

func headerString(h eventstream.Headers, name string) string {
	v := h.Get(name)
	if v == nil {
		return ""
	}
	if s, ok := v.(eventstream.StringValue); ok {
		return string(s)
	}
	return v.String()
}

// Signed request streams. A client event stream is signed frame by frame (SigV4 "event
// stream" signing, as the SDK's transcribestreaming and bedrock-runtime bidirectional
// operations do it): each event message, encoded, becomes the payload of an outer message
// whose headers are :date and :chunk-signature, the signature chaining from the request's own
// (v4.StreamSigner). An empty signed message ends the stream.

// frameSigner is v4.StreamSigner's method, an interface so tests can see what it was given.
type frameSigner interface {
	GetSignature(headers, payload []byte, at time.Time) ([]byte, error)
}

// SignedFrame wraps an encoded event in its signed envelope; nil event is the end-of-stream
// frame.
func SignedFrame(enc *eventstream.Encoder, s frameSigner, event []byte, at time.Time) ([]byte, error) {
	var outer eventstream.Message
	outer.Headers.Set(eventstreamapi.DateHeader, eventstream.TimestampValue(at))
	var hb bytes.Buffer
	if err := eventstream.EncodeHeaders(&hb, outer.Headers); err != nil {
		return nil, fmt.Errorf("encode frame headers: %w", err)
	}
	if event == nil {
		event = []byte{}
	}
	sig, err := s.GetSignature(hb.Bytes(), event, at)
	if err != nil {
		return nil, fmt.Errorf("sign frame: %w", err)
	}
	outer.Headers.Set(eventstreamapi.ChunkSignatureHeader, eventstream.BytesValue(sig))
	outer.Payload = event
	var out bytes.Buffer
	if err := enc.Encode(&out, outer); err != nil {
		return nil, fmt.Errorf("encode frame: %w", err)
	}
	return out.Bytes(), nil
}

// openFrame checks a signed envelope (both signing headers present; the signature itself is
// not verified: only AWS holds the secret) and returns the event inside, decoded. end reports
// the empty end-of-stream frame.
func openFrame(m eventstream.Message) (event eventstream.Message, end bool, err error) {
	if m.Headers.Get(eventstreamapi.ChunkSignatureHeader) == nil {
		return event, false, errors.New("request frame without :chunk-signature")
	}
	if m.Headers.Get(eventstreamapi.DateHeader) == nil {
		return event, false, errors.New("request frame without :date")
	}
	if len(m.Payload) == 0 {
		return event, true, nil
	}
	event, err = eventstream.NewDecoder().Decode(bytes.NewReader(m.Payload), nil)
	if err != nil {
		return event, false, fmt.Errorf("decode event inside frame: %w", err)
	}
	return event, false, nil
}

// requestPart interprets an event of a request stream (RequestStreamEvent: PayloadPart only).
func requestPart(m eventstream.Message) (Part, error) {
	if mt := headerString(m.Headers, eventstreamapi.MessageTypeHeader); mt != eventstreamapi.EventMessageType {
		return Part{}, fmt.Errorf("request event with :message-type %q; want event", mt)
	}
	return parseEvent(m)
}

// EventWriter writes a response stream (the service side of a stream, which `kokoro emulate`
// plays): each event is encoded and flushed at once, so a part reaches the client as soon as
// it exists.
type EventWriter struct {
	w     io.Writer
	flush func() error
	enc   *eventstream.Encoder
}

// NewEventWriter writes events to w, calling flush (nil: none) after each.
func NewEventWriter(w io.Writer, flush func() error) *EventWriter {
	return &EventWriter{w: w, flush: flush, enc: eventstream.NewEncoder()}
}

// Part writes a PayloadPart event.
func (ew *EventWriter) Part(p Part) error { return ew.write(partMessage(p)) }

// Exception writes a modeled exception event (ModelStreamError, InternalStreamFailure).
func (ew *EventWriter) Exception(e StreamException) error { return ew.write(exceptionMessage(e)) }

func (ew *EventWriter) write(m eventstream.Message) error {
	if err := ew.enc.Encode(ew.w, m); err != nil {
		return err
	}
	if ew.flush != nil {
		return ew.flush()
	}
	return nil
}

// RequestReader reads a signed request stream (the service side of the bidirectional
// stream's input): frames whose :chunk-signature and :date must be present, the PayloadPart
// events inside them, and the empty frame that ends the stream.
type RequestReader struct {
	r   io.Reader
	dec *eventstream.Decoder
}

// NewRequestReader reads frames from r.
func NewRequestReader(r io.Reader) *RequestReader {
	return &RequestReader{r: r, dec: eventstream.NewDecoder()}
}

// Next returns the next part. It returns io.EOF after the end-of-stream frame, and
// io.ErrUnexpectedEOF (wrapped) when the stream stops without one.
func (rr *RequestReader) Next() (Part, error) {
	m, err := decodeMessage(rr.dec, rr.r)
	if errors.Is(err, io.EOF) {
		return Part{}, fmt.Errorf("request stream ended without its end frame: %w", io.ErrUnexpectedEOF)
	}
	if err != nil {
		return Part{}, err
	}
	ev, end, err := openFrame(m)
	if err != nil {
		return Part{}, err
	}
	if end {
		return Part{}, io.EOF
	}
	return requestPart(ev)
}

// ResponseReader reads a response stream: PayloadParts, and error events as
// *StreamException.
type ResponseReader struct {
	r   io.Reader
	dec *eventstream.Decoder
}

// NewResponseReader reads events from r.
func NewResponseReader(r io.Reader) *ResponseReader {
	return &ResponseReader{r: r, dec: eventstream.NewDecoder()}
}

// Next returns the next part; io.EOF when the stream ended between events.
func (rr *ResponseReader) Next() (Part, error) { return readEvent(rr.dec, rr.r) }

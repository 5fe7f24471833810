package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Result is one request as the ladder saw it. Times are offsets on the monotonic clock from the
// start of its rung's hold, so the raw file and the ladder configuration recompute the same
// statistics no matter what the wall clock did. Durations encode as integer nanoseconds.
type Result struct {
	Run        int              `json:"run"`         // 1-based run index
	Rung       int              `json:"rung"`        // concurrency N of the rung
	Worker     int              `json:"worker"`      // 0-based worker index within the rung
	Seq        uint64           `json:"seq"`         // dispatch order within the whole ladder
	TextChars  int              `json:"text_chars"`  // length of the text in characters
	Start      time.Duration    `json:"start_ns"`    // dispatch
	End        time.Duration    `json:"end_ns"`      // completion, refusal or failure
	TTFAB      time.Duration    `json:"ttfab_ns"`    // dispatch → first non-empty audio byte; 0 if none arrived
	TTFAS      time.Duration    `json:"ttfas_ns"`    // dispatch → first audible sample heard (Playback.FirstSound); 0 if none
	Stall      time.Duration    `json:"stall_ns"`    // playback stall time after the first byte
	Stalls     int              `json:"stalls"`      // number of separate stalls
	AudioBytes int64            `json:"audio_bytes"` // PCM16 bytes received
	Chunks     int              `json:"chunks"`      // non-empty audio pieces received
	Outcome    artifact.Outcome `json:"outcome"`
	Status     int              `json:"status,omitempty"` // server status for refusals and failures
	Error      string           `json:"error,omitempty"`
}

// Latency is the full latency: dispatch to the end of the response.
func (r Result) Latency() time.Duration { return r.End - r.Start }

// AudioSeconds is the playing time of the audio received.
func (r Result) AudioSeconds() float64 { return float64(r.AudioBytes) / bytesPerSecond }

// settle records how a request ended, from its error (cancelled: the run itself was cancelled)
// and the audio it received: the outcome, the server's status and the playback's times and
// sizes. A completed response without audio is a transport error, not a success a listener
// would accept.
func (r *Result) settle(err error, cancelled bool, pb *Playback) {
	r.Outcome = Classify(err, cancelled)
	if err != nil {
		r.Error = err.Error()
		var se *ServerError
		if errors.As(err, &se) {
			r.Status = se.Status
		}
	}
	if r.Outcome == artifact.OutcomeOK && !pb.Started() {
		r.Outcome = artifact.OutcomeTransportError
		r.Error = "response carried no audio"
	}
	if pb.Started() {
		r.TTFAB = pb.First() - r.Start
		if sound, ok := pb.FirstSound(); ok {
			r.TTFAS = sound - r.Start
		}
		r.Stall, r.Stalls = pb.Stall(), pb.Stalls()
		r.AudioBytes, r.Chunks = pb.Bytes(), pb.Chunks()
	}
}

// JSONLWriter writes results one JSON object per line. It is not safe for concurrent use; the
// ladder calls it from one goroutine.
type JSONLWriter struct {
	enc *json.Encoder
}

// NewJSONLWriter returns a writer that appends results to w.
func NewJSONLWriter(w io.Writer) *JSONLWriter { return &JSONLWriter{enc: json.NewEncoder(w)} }

// Add writes one result.
func (j *JSONLWriter) Add(r Result) error {
	if err := j.enc.Encode(r); err != nil {
		return fmt.Errorf("write raw result: %w", err)
	}
	return nil
}

// ReadResults reads a JSONL file written by JSONLWriter.
func ReadResults(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var res Result
		if err := json.Unmarshal(b, &res); err != nil {
			return nil, fmt.Errorf("raw results line %d: %w", line, err)
		}
		if err := res.validate(); err != nil {
			return nil, fmt.Errorf("raw results line %d: %w", line, err)
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read raw results: %w", err)
	}
	return out, nil
}

func (r Result) validate() error {
	switch {
	case r.Rung < 1:
		return fmt.Errorf("rung %d is not a concurrency", r.Rung)
	case r.End < r.Start:
		return errors.New("result ends before it starts")
	case r.TTFAB < 0 || r.TTFAS < 0 || r.Stall < 0 || r.AudioBytes < 0:
		return errors.New("negative duration or size")
	}
	if !r.Outcome.Known() {
		return fmt.Errorf("unknown outcome %q", r.Outcome)
	}
	return nil
}

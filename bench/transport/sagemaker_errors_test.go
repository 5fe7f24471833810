package transport

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// fault is a SageMaker client error as package sagemaker reports it.
type fault struct {
	code            string
	status, cstatus int
	cbody           string
}

func (f *fault) Error() string { return "sagemaker " + f.code }
func (f *fault) SageMakerFault() (string, int, int, string) {
	return f.code, f.status, f.cstatus, f.cbody
}

// TestSageMakerErrorOutcomes is the table of docs/bench.md: every error SageMaker documents
// for the runtime APIs lands in one outcome.
func TestSageMakerErrorOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want artifact.Outcome
	}{
		{&fault{code: "ModelError", status: 424, cstatus: 503, cbody: `{"error":"queue_saturated","queue_depth":4,"max_queue_depth":4}`}, artifact.OutcomeSaturated503},
		{&fault{code: "ModelError", status: 424, cstatus: 408, cbody: `{"error":"request_stale"}`}, artifact.OutcomeStale408},
		{&fault{code: "ModelError", status: 424, cstatus: 400, cbody: `{"error":"unknown_voice"}`}, artifact.OutcomeClientError},
		{&fault{code: "ModelError", status: 424, cstatus: 500, cbody: "boom"}, artifact.OutcomeServer5xx},
		{&fault{code: "ModelError", status: 424, cstatus: 0, cbody: "timed out"}, artifact.OutcomeServer5xx},
		{&fault{code: "ThrottlingException", status: 400}, artifact.OutcomeThrottled429},
		{&fault{code: "ServiceUnavailable", status: 503}, artifact.OutcomeSaturated503},
		{&fault{code: "ServiceUnavailableError", status: 503}, artifact.OutcomeSaturated503},
		{&fault{code: "ModelStreamError"}, artifact.OutcomeServer5xx},
		{&fault{code: "InternalStreamFailure"}, artifact.OutcomeServer5xx},
		{&fault{code: "InternalFailure", status: 500}, artifact.OutcomeServer5xx},
		{&fault{code: "InternalDependencyException", status: 424}, artifact.OutcomeServer5xx},
		{&fault{code: "ValidationError", status: 400}, artifact.OutcomeClientError},
		{&fault{code: "InputValidationError", status: 400}, artifact.OutcomeClientError},
		{&fault{code: "AccessDeniedException", status: 403}, artifact.OutcomeClientError},
		{&fault{code: "SomethingNew", status: 502}, artifact.OutcomeServer5xx},
		{fmt.Errorf("wrapped: %w", &fault{code: "ThrottlingException", status: 400}), artifact.OutcomeThrottled429},
		{errors.New("read tcp: connection reset by peer"), artifact.OutcomeTransportError},
	}
	for _, tc := range tests {
		if got := bench.Classify(sageMakerError(tc.err), false); got != tc.want {
			t.Errorf("%v → %s; want %s", tc.err, got, tc.want)
		}
	}
}

// TestPreflightVerdicts: the preflight stops on what no rung survives and lets a busy
// endpoint's refusals through.
func TestPreflightVerdicts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err   error
		fatal bool
	}{
		{nil, false},
		{&fault{code: "ValidationError", status: 400}, true},
		{&fault{code: "AccessDeniedException", status: 403}, true},
		{&fault{code: "ModelError", status: 424, cstatus: 400, cbody: `{"error":"unknown_voice"}`}, true},
		{&fault{code: "ModelError", status: 424, cstatus: 503, cbody: `{"error":"queue_saturated"}`}, false},
		{&fault{code: "ThrottlingException", status: 400}, false},
		{&fault{code: "ModelStreamError"}, false},
		{errors.New("dial tcp: connection refused"), true},
	}
	for _, tc := range tests {
		tr := &SageMakerStream{invoke: func(context.Context, []byte, func([]byte)) error { return tc.err }}
		if tc.err == nil {
			tr.invoke = func(_ context.Context, _ []byte, on func([]byte)) error {
				on(append(make([]byte, 0, 50), []byte("RIFF\xff\xff\xff\xffWAVEfmt ")...))
				on(make([]byte, 40))
				return nil
			}
		}
		err := Preflight(context.Background(), tr)
		if (err != nil) != tc.fatal {
			t.Errorf("%v: preflight %v; fatal=%v", tc.err, err, tc.fatal)
		}
	}
}

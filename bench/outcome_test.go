package bench

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/kokoro-sm/kokoro/artifact"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err         error
		interrupted bool
		want        artifact.Outcome
	}{
		{nil, false, artifact.OutcomeOK},
		{&ServerError{Status: http.StatusServiceUnavailable, Code: "queue_saturated"}, false, artifact.OutcomeSaturated503},
		{&ServerError{Status: http.StatusRequestTimeout}, false, artifact.OutcomeStale408},
		{&ServerError{Status: http.StatusTooManyRequests}, false, artifact.OutcomeThrottled429},
		{&ServerError{Status: http.StatusBadGateway}, false, artifact.OutcomeServer5xx},
		{&ServerError{Status: http.StatusBadRequest}, false, artifact.OutcomeClientError},
		{&ServerError{Status: http.StatusServiceUnavailable}, true, artifact.OutcomeSaturated503},
		{errors.New("connection reset"), false, artifact.OutcomeTransportError},
		{errors.New("connection reset"), true, artifact.OutcomeCancelled},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v_%v", tc.err, tc.interrupted), func(t *testing.T) {
			if got := Classify(tc.err, tc.interrupted); got != tc.want {
				t.Errorf("Classify(%v, %v) = %s; want %s", tc.err, tc.interrupted, got, tc.want)
			}
		})
	}
}

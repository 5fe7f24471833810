package emulate

import (
	"fmt"
	"net/http"
)

// Faults are failures the emulator injects so that a client's handling of them can be seen
// without waiting for the real service to produce them. Rates are fractions in [0, 1]: 1
// injects the fault into every call it applies to. The rest of SageMaker's failures come from
// real causes: a container that answers 503 (its admission gate), a container that dies
// mid-request (ModelStreamError StreamBroken), one that is too slow (InvocationTimeout).
type Faults struct {
	// Throttle is the fraction of invocations and session openings refused with
	// ThrottlingException before they reach a container.
	Throttle float64
	// StreamFailure is the fraction of response streams and bidirectional sessions that end
	// with an InternalStreamFailure event after their first payload part.
	StreamFailure float64
	// Rand draws the fault decisions; nil uses math/rand/v2.
	Rand func() float64
}

func (f Faults) validate() error {
	for name, r := range map[string]float64{"throttle": f.Throttle, "stream failure": f.StreamFailure} {
		if r < 0 || r > 1 {
			return fmt.Errorf("emulator: %s rate %v outside [0, 1]", name, r)
		}
	}
	return nil
}

func (e *Emulator) draw(rate float64) bool { return rate > 0 && e.rnd() < rate }

// throttled answers ThrottlingException when the throttle fault fires. The status is 400, as
// AWS JSON services send it; clients recognise the error by its code.
func (e *Emulator) throttled(w http.ResponseWriter) bool {
	if !e.draw(e.cfg.Faults.Throttle) {
		return false
	}
	writeError(w, http.StatusBadRequest, "ThrottlingException", "Rate exceeded")
	return true
}

const msgInternalStreamFailure = "The stream processing failed because of an unknown error, exception or failure. Try your request again."

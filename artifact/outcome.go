package artifact

// Outcome is how one request of a benchmark ended. The bench records one per request in its
// raw results and counts them per rung in Rung.OutcomeCounts; this is the one definition both
// use. Imported artifacts may carry outcomes of their own (the reference tool's "model_error"),
// which OutcomeCounts keeps as recorded.
type Outcome string

// Outcomes of a request. The first six are the classes the reference tool also records.
// OutcomeClientError marks a 4xx the bench caused itself (bad text, unknown voice), kept apart
// so that a misconfigured run is obvious instead of hiding among transport errors;
// OutcomeCancelled marks requests cut short by the user interrupting the ladder, which are left
// out of every statistic.
const (
	OutcomeOK             Outcome = "ok"
	OutcomeSaturated503   Outcome = "saturated_503"
	OutcomeStale408       Outcome = "stale_408"
	OutcomeThrottled429   Outcome = "throttled_429"
	OutcomeServer5xx      Outcome = "server_5xx"
	OutcomeTransportError Outcome = "transport_error"
	OutcomeClientError    Outcome = "client_4xx"
	OutcomeCancelled      Outcome = "cancelled"
)

// outcomeOrder is every outcome kokoro records, in report order.
var outcomeOrder = [...]Outcome{OutcomeOK, OutcomeSaturated503, OutcomeStale408, OutcomeThrottled429,
	OutcomeServer5xx, OutcomeTransportError, OutcomeClientError, OutcomeCancelled}

// Known reports whether o is one of the outcomes kokoro records.
func (o Outcome) Known() bool {
	for _, k := range outcomeOrder {
		if o == k {
			return true
		}
	}
	return false
}

// Rejection reports whether the server refused the request without doing its work (503 or
// 429), which is what the saturation check of a rung counts.
func (o Outcome) Rejection() bool { return o == OutcomeSaturated503 || o == OutcomeThrottled429 }

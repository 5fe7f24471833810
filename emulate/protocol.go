package emulate

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// What the emulator checks of a request's Signature Version 4 ("Authenticating Requests
// (AWS Signature Version 4)", Amazon S3 API Reference, which the runtime API reference points
// to): the Authorization header's form, a credential scope for this region and the service
// "sagemaker", the signed host and x-amz-date headers, and a request time within 15 minutes.
// The signature itself cannot be checked without the caller's secret, which only AWS holds.
const (
	signingService   = "sagemaker"
	streamingPayload = "STREAMING-AWS4-HMAC-SHA256-EVENTS"
	maxClockSkew     = 15 * time.Minute
)

func (e *Emulator) checkAuth(w http.ResponseWriter, r *http.Request, streaming bool) bool {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		writeError(w, http.StatusForbidden, "MissingAuthenticationTokenException", "Missing Authentication Token")
		return false
	}
	algo, rest, _ := strings.Cut(auth, " ")
	if algo != "AWS4-HMAC-SHA256" {
		writeError(w, http.StatusForbidden, "IncompleteSignatureException", "Authorization header requires the AWS4-HMAC-SHA256 algorithm")
		return false
	}
	fields := map[string]string{}
	for _, f := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
		if ok {
			fields[k] = v
		}
	}
	cred, signed, sig := fields["Credential"], fields["SignedHeaders"], fields["Signature"]
	if cred == "" || signed == "" || len(sig) != 64 {
		writeError(w, http.StatusForbidden, "IncompleteSignatureException", "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature'")
		return false
	}
	scope := strings.Split(cred, "/") // AKID/date/region/service/aws4_request
	if len(scope) != 5 || scope[4] != "aws4_request" {
		writeError(w, http.StatusForbidden, "IncompleteSignatureException", "malformed credential scope "+cred)
		return false
	}
	if scope[2] != e.cfg.Region {
		writeError(w, http.StatusForbidden, "InvalidSignatureException", fmt.Sprintf("Credential should be scoped to a valid region (this endpoint is in %s, the request was signed for %s).", e.cfg.Region, scope[2]))
		return false
	}
	if scope[3] != signingService {
		writeError(w, http.StatusForbidden, "InvalidSignatureException", fmt.Sprintf("Credential should be scoped to correct service: '%s'.", signingService))
		return false
	}
	headers := strings.Split(signed, ";")
	if !contains(headers, "host") || !contains(headers, "x-amz-date") {
		writeError(w, http.StatusForbidden, "IncompleteSignatureException", "SignedHeaders must include host and x-amz-date")
		return false
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		writeError(w, http.StatusForbidden, "IncompleteSignatureException", "missing or malformed X-Amz-Date")
		return false
	}
	if d := time.Since(at); d > maxClockSkew || d < -maxClockSkew {
		writeError(w, http.StatusForbidden, "InvalidSignatureException", "Signature expired: the request time is more than 15 minutes from the server's")
		return false
	}
	if streaming && r.Header.Get("X-Amz-Content-Sha256") != streamingPayload {
		writeError(w, http.StatusForbidden, "InvalidSignatureException", "an event stream request is signed with the payload hash "+streamingPayload)
		return false
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeError answers with a restJson1 error: the code in X-Amzn-ErrorType, the members as
// a JSON body.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeErrorBody(w, status, code, map[string]any{"Message": message})
}

func writeErrorBody(w http.ResponseWriter, status int, code string, body map[string]any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set(headerErrorType, code)
	h.Set(headerRequestID, requestID())
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeModelError answers a container's failure as SageMaker does: 424 ModelError carrying
// the container's status and body. status 0 means the container gave no answer in time.
func (e *Emulator) writeModelError(w http.ResponseWriter, status int, body string) {
	kind, code := "client", "CLIENT_ERROR_FROM_MODEL"
	if status == 0 || status >= 500 {
		kind, code = "server", "SERVER_ERROR_FROM_MODEL"
	}
	msg := fmt.Sprintf("Received %s error (%d) from primary with message \"%s\". See %s in account %s for more information.",
		kind, status, body, e.logGroup(), emulatedAccount)
	writeErrorBody(w, http.StatusFailedDependency, "ModelError", map[string]any{
		"ErrorCode":          code,
		"Message":            msg,
		"OriginalStatusCode": status,
		"OriginalMessage":    body,
		"LogStreamArn":       fmt.Sprintf("arn:aws:logs:%s:%s:log-group:%s", e.cfg.Region, emulatedAccount, e.logGroup()),
	})
}

func (e *Emulator) logGroup() string { return "/aws/sagemaker/Endpoints/" + e.cfg.EndpointName }

// Messages SageMaker gives when the container does not finish in time (as reported by users
// of the real service; the API reference gives only the error codes).
const (
	msgInvokeTimeout = "Your invocation timed out while waiting for a response from container primary. Review the latency metrics for each container in Amazon CloudWatch, resolve the issue, and try again."
	msgStreamTimeout = "Your model primary did not complete sending the inference response in the allotted time."
	msgStreamBroken  = "The connection between SageMaker and the model primary was closed before the response completed."
)

func requestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

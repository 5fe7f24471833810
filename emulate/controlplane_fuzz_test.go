package emulate

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzControlPlaneRequest feeds arbitrary bodies to every operation the control plane serves,
// over an upstream that refuses everything: it never panics, never answers 5xx, and answers a
// body that is not a JSON object with a 4xx.
func FuzzControlPlaneRequest(f *testing.F) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"__type":"ValidationException","message":"no"}`)
	}))
	f.Cleanup(upstream.Close)
	cp, err := NewControlPlane(upstream.URL, ControlPlaneOptions{})
	if err != nil {
		f.Fatal(err)
	}
	ops := served()
	for i, seed := range []string{
		`{}`, `null`, `[]`, `{"EndpointConfigName":"c","ExecutionRoleArn":"arn:aws:iam::123456789012:role/r","ProductionVariants":[{"VariantName":"V","InstanceType":"ml.g5.xlarge","InitialInstanceCount":1}]}`,
		`{"InferenceComponentName":"ic","EndpointName":"e","Specification":{"ModelName":"m","ComputeResourceRequirements":{"MinMemoryRequiredInMb":1e99}},"RuntimeConfig":{"CopyCount":-1}}`,
		`{"ServiceNamespace":"sagemaker","ResourceId":"inference-component/ic","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","MinCapacity":"1"}`,
		`{"NextToken":"offset-99999999999999999999","MaxResults":1}`, "\x00\xff{", `{"EndpointName":"` + string(bytes.Repeat([]byte("a"), 100)) + `"}`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		target := ops[int(op)%len(ops)]
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Amz-Target", target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.1")
		rec := httptest.NewRecorder()
		cp.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", target, body, rec.Code, rec.Body)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) != nil || obj == nil {
			if rec.Code < 400 {
				t.Fatalf("%s %q is not a JSON object but was answered %d", target, body, rec.Code)
			}
		}
	})
}

package transport_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

const (
	emuEndpoint = "kokoro-bench"
	emuRegion   = "us-east-1"
)

// emulator serves `kokoro emulate` on loopback in front of the containers at urls until the
// test ends, and returns its URL.
func emulator(t testing.TB, cfg emulate.Config, urls ...string) string {
	t.Helper()
	cfg.EndpointName, cfg.Region = emuEndpoint, emuRegion
	cfg.Variants = []emulate.Variant{{Name: "AllTraffic", Instances: urls}}
	return emulatetest.Start(t, cfg)
}

// sageMakerOptions wires the runtime clients of package sagemaker to the emulator at url,
// as `kokoro bench qmax --aws-endpoint-url` does.
func sageMakerOptions(t testing.TB, url, endpoint string, maxConns int) transport.Options {
	t.Helper()
	cfg := aws.Config{Region: emuRegion, Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "not-checked"}, nil
	})}
	o := smruntime.Options{Endpoint: smruntime.Endpoint{Name: endpoint, Variant: "AllTraffic"}, EndpointURL: url, MaxConns: maxConns}
	sc, err := smruntime.NewStreamClient(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := smruntime.NewBidiClient(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bc.CloseIdleConnections)
	return transport.Options{MaxConns: maxConns, SageMaker: &transport.SageMaker{
		InvokeStream: sc.InvokeStream,
		OpenBidi: func(ctx context.Context) (transport.BidiSession, error) {
			s, err := bc.Open(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
	}}
}

// optionsFor builds the options of the named transport against a server at url: directly
// for http and ws, through an emulator in front of it for the SageMaker transports.
func optionsFor(t testing.TB, name, url string, maxConns int) transport.Options {
	t.Helper()
	if !strings.HasPrefix(name, "sagemaker-") {
		return transport.Options{BaseURL: url, MaxConns: maxConns}
	}
	return sageMakerOptions(t, emulator(t, emulate.Config{}, url), emuEndpoint, maxConns)
}

// dyingContainer is a container that dies in the middle of every request: it sends the WAV
// header and one piece of audio (HTTP), or synthesis_start and one binary frame (WebSocket),
// then cuts the connection.
func dyingContainer(t testing.TB) string {
	t.Helper()
	var sessions sync.WaitGroup
	mux := http.NewServeMux()
	mux.HandleFunc("POST /invocations", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		_, _ = w.Write(wavHeaderBytes())
		_, _ = w.Write(make([]byte, 4800))
		_ = http.NewResponseController(w).Flush()
		panic(http.ErrAbortHandler)
	})
	mux.HandleFunc("GET /invocations-bidirectional-stream", func(w http.ResponseWriter, r *http.Request) {
		c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		sessions.Add(1)
		defer sessions.Done()
		defer c.Close()
		_, data, err := c.ReadMessage()
		if err != nil {
			return
		}
		var m api.WSClientMessage
		_ = json.Unmarshal(data, &m)
		_ = c.WriteJSON(api.WSServerMessage{Type: api.WSTypeSynthesisStart, RequestID: m.RequestID})
		_ = c.WriteMessage(websocket.BinaryMessage, make([]byte, 4800))
		c.NetConn().Close()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close(); sessions.Wait() })
	return srv.URL
}

func wavHeaderBytes() []byte {
	h := make([]byte, api.StreamingWAVHeader)
	copy(h, "RIFF\xff\xff\xff\xffWAVEfmt ")
	copy(h[36:], "data\xff\xff\xff\xff")
	return h
}

// TestSageMakerFaultsLandInTheirOutcome: every failure SageMaker reports reaches the ladder
// as the outcome docs/bench.md gives it, on both SageMaker transports, and none stalls the
// ladder past its hold.
func TestSageMakerFaultsLandInTheirOutcome(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		cfg       emulate.Config
		service   time.Duration // of the one-slot server; 0: the dying container instead
		maxQueue  int
		rung      int
		want      artifact.Outcome
		exclusive bool // every request lands in want
	}{
		{name: "throttled", cfg: emulate.Config{Faults: emulate.Faults{Throttle: 1}}, service: 20 * time.Millisecond, rung: 1,
			want: artifact.OutcomeThrottled429, exclusive: true},
		{name: "mid-stream failure", cfg: emulate.Config{Faults: emulate.Faults{StreamFailure: 1}}, service: 20 * time.Millisecond, rung: 1,
			want: artifact.OutcomeServer5xx, exclusive: true},
		{name: "container 503", service: 150 * time.Millisecond, maxQueue: 1, rung: 3,
			want: artifact.OutcomeSaturated503},
		{name: "container killed mid-request", rung: 1, want: artifact.OutcomeServer5xx, exclusive: true},
		{name: "invocation limit", cfg: emulate.Config{InvocationTimeout: 150 * time.Millisecond, SessionTimeout: 150 * time.Millisecond},
			service: 400 * time.Millisecond, rung: 1, want: artifact.OutcomeServer5xx, exclusive: true},
	}
	for _, tc := range cases {
		for _, name := range []string{artifact.TransportSageMakerStream, artifact.TransportSageMakerBidi} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				var url string
				if tc.service > 0 {
					url = startOneSlotServer(t, tc.service, tc.maxQueue)
				} else {
					url = dyingContainer(t)
				}
				tr, err := transport.New(name, sageMakerOptions(t, emulator(t, tc.cfg, url), emuEndpoint, tc.rung))
				if err != nil {
					t.Fatal(err)
				}
				defer tr.Close()
				const hold = 1200 * time.Millisecond
				var (
					mu     sync.Mutex
					errors = map[string]int{}
				)
				l := &bench.Ladder{Transport: tr, OnResult: func(r bench.Result) error {
					mu.Lock()
					defer mu.Unlock()
					if r.Outcome != tc.want && len(errors) < 5 {
						errors[r.Error]++
					}
					return nil
				}, Config: bench.Config{
					Ladder: []int{tc.rung}, Hold: hold, MeasureWindow: hold, SLO: time.Second,
					RequestTimeout: time.Minute, DrainTimeout: 2 * time.Second,
				}}
				begin := time.Now()
				rep, err := l.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				// A hang check, not a speed check: the drain timeout cuts what is left 2 s
				// after the hold; a request it failed to cut would hold the ladder for its
				// minute-long timeout.
				if d := time.Since(begin); d > hold+15*time.Second {
					t.Errorf("the ladder took %v for a %v hold", d, hold)
				}
				s := rep.Runs[0].Rungs[0]
				t.Logf("outcomes %v, other errors %v", s.Outcomes, errors)
				if s.Outcomes[tc.want] == 0 {
					t.Errorf("outcomes %v; want %s", s.Outcomes, tc.want)
				}
				if tc.exclusive && s.Outcomes[tc.want] != s.Requests {
					t.Errorf("outcomes %v; want every request %s", s.Outcomes, tc.want)
				}
				if tc.want == artifact.OutcomeSaturated503 && !s.Saturated() {
					t.Errorf("rung with container refusals not saturated: %v", s.Unusable)
				}
			})
		}
	}
}

// TestPreflightStopsOnValidationError: an endpoint that does not exist stops the run before
// the ladder with an error that says why; a healthy one passes.
func TestPreflightStopsOnValidationError(t *testing.T) {
	t.Parallel()
	url := emulator(t, emulate.Config{}, startOneSlotServer(t, 10*time.Millisecond, 0))
	for _, name := range []string{artifact.TransportSageMakerStream, artifact.TransportSageMakerBidi} {
		for _, endpoint := range []string{emuEndpoint, "no-such-endpoint"} {
			tr, err := transport.New(name, sageMakerOptions(t, url, endpoint, 1))
			if err != nil {
				t.Fatal(err)
			}
			err = transport.Preflight(context.Background(), tr)
			tr.Close()
			if endpoint == emuEndpoint && err != nil {
				t.Errorf("%s: preflight against a healthy endpoint: %v", name, err)
			}
			if endpoint != emuEndpoint && (err == nil || !strings.Contains(err.Error(), "ValidationError") || !strings.Contains(err.Error(), "not found")) {
				t.Errorf("%s: preflight against a missing endpoint: %v", name, err)
			}
		}
	}
}

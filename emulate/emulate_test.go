package emulate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"go.uber.org/goleak"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	testEndpoint = "kokoro-test"
	testRegion   = "us-east-1"
)

// awsConfig is an SDK configuration with static test credentials: the emulator checks that
// requests are signed for its region and service, never the secret.
func awsConfig(region string) aws.Config {
	return aws.Config{
		Region: region,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "not-checked"}, nil
		}),
	}
}

// serve starts an emulator on loopback in front of the containers (one variant, one instance
// each) and returns its URL.
func serve(t *testing.T, cfg emulate.Config, containers ...string) string {
	t.Helper()
	if cfg.EndpointName == "" {
		cfg.EndpointName = testEndpoint
	}
	if cfg.Region == "" {
		cfg.Region = testRegion
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = []emulate.Variant{{Name: "AllTraffic", Instances: containers}}
	}
	return emulatetest.Start(t, cfg)
}

type clients struct {
	stream *smruntime.StreamClient
	bidi   *smruntime.BidiClient
}

func newClients(t *testing.T, url string, ep smruntime.Endpoint) clients {
	t.Helper()
	if ep.Name == "" {
		ep.Name = testEndpoint
	}
	o := smruntime.Options{Endpoint: ep, EndpointURL: url, MaxConns: 8}
	s, err := smruntime.NewStreamClient(awsConfig(testRegion), o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := smruntime.NewBidiClient(awsConfig(testRegion), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.CloseIdleConnections)
	return clients{s, b}
}

// stream runs one response-stream invocation and returns its parts.
func (c clients) stream1(ctx context.Context) ([][]byte, error) {
	var parts [][]byte
	err := c.stream.InvokeStream(ctx, []byte(`{"text":"hello"}`), func(p []byte) { parts = append(parts, bytes.Clone(p)) })
	return parts, err
}

// utterance speaks one utterance on a bidirectional session and returns the audio bytes
// and the control messages it saw.
func utterance(ctx context.Context, s *smruntime.BidiStream, id string) (audio int, types []string, err error) {
	msg, _ := json.Marshal(api.WSClientMessage{Text: "hello", RequestID: id})
	if err := s.Send(ctx, msg, true); err != nil {
		return 0, nil, err
	}
	for {
		data, text, err := s.Recv()
		if err != nil {
			return audio, types, err
		}
		if !text {
			audio += len(data)
			continue
		}
		var sm api.WSServerMessage
		if err := json.Unmarshal(data, &sm); err != nil {
			return audio, types, err
		}
		types = append(types, sm.Type)
		if sm.Type == api.WSTypeSynthesisComplete || sm.Type == api.WSTypeError {
			return audio, types, nil
		}
	}
}

func TestResponseStreamCarriesTheContainersBytes(t *testing.T) {
	t.Parallel()
	// The container sends each chunk only once the client has the part before it: an emulator
	// that buffered the stream would deadlock it, and one that forwards each flush as it comes
	// hands the client exactly one part per flush.
	c := &container{chunks: 4, step: make(chan struct{}, 8)}
	cl := newClients(t, serve(t, emulate.Config{}, c.start(t)), smruntime.Endpoint{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var parts [][]byte
	err := cl.stream.InvokeStream(ctx, []byte(`{"text":"hello"}`), func(p []byte) {
		parts = append(parts, bytes.Clone(p))
		c.step <- struct{}{}
	})
	if err != nil {
		t.Fatalf("%v after %d parts: the emulator did not pass the stream on as it came", err, len(parts))
	}
	all := bytes.Join(parts, nil)
	if len(all) != api.StreamingWAVHeader+4*chunkBytes || !bytes.HasPrefix(all, []byte("RIFF")) {
		t.Fatalf("%d bytes in %d parts; want the WAV header and 4 chunks", len(all), len(parts))
	}
	if len(parts) != 5 {
		t.Errorf("%d parts; want one per flush (5)", len(parts))
	}
	c.mu.Lock()
	h := c.lastHeader
	c.mu.Unlock()
	if h.Get("Content-Type") != "application/json" || h.Get("Accept") != "audio/wav" {
		t.Errorf("forwarded headers %v", h)
	}
	if h.Get("Authorization") != "" {
		t.Error("the caller's Authorization header reached the container")
	}

	close(c.step) // no more lockstep: the whole response at once
	body, err := cl.stream.Invoke(context.Background(), []byte(`{"text":"hello"}`))
	if err != nil || len(body) != len(all) {
		t.Errorf("InvokeEndpoint: %d bytes, %v", len(body), err)
	}
}

func TestBidirectionalSessionBridgesTheWebSocket(t *testing.T) {
	t.Parallel()
	c := &container{chunks: 3}
	cl := newClients(t, serve(t, emulate.Config{}, c.start(t)), smruntime.Endpoint{Variant: "AllTraffic"})
	cl.bidi.InvocationPath, cl.bidi.QueryString = "invocations-bidirectional-stream", "lang=en"
	ctx := context.Background()
	s, err := cl.bidi.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, id := range []string{"a", "b"} {
		audio, types, err := utterance(ctx, s, id)
		if err != nil {
			t.Fatalf("utterance %d: %v", i, err)
		}
		if audio != 3*chunkBytes || strings.Join(types, ",") != "synthesis_start,synthesis_complete" {
			t.Errorf("utterance %d: %d audio bytes, messages %v", i, audio, types)
		}
	}
	if s.Variant != "AllTraffic" {
		t.Errorf("invoked variant %q", s.Variant)
	}
	// A binary part reaches the container as a binary frame (it answers those with an error).
	if err := s.Send(ctx, []byte{1, 2}, false); err != nil {
		t.Fatal(err)
	}
	data, text, err := s.Recv()
	if err != nil || !text || !strings.Contains(string(data), "binary frame") {
		t.Errorf("binary part: %q text=%v %v", data, text, err)
	}
	// Ending the request stream ends the session cleanly.
	if err := s.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Recv(); !errors.Is(err, io.EOF) {
		t.Errorf("after CloseSend: %v; want io.EOF", err)
	}
	c.mu.Lock()
	u := c.lastURL
	c.mu.Unlock()
	if u != "/invocations-bidirectional-stream?lang=en" {
		t.Errorf("container saw %q", u)
	}
}

// invokeErr runs the operation and returns its *smruntime.InvokeError.
func invokeErr(t *testing.T, op string, err error) *smruntime.InvokeError {
	t.Helper()
	var ie *smruntime.InvokeError
	if !errors.As(err, &ie) {
		t.Fatalf("%s: error %v (%T); want a *smruntime.InvokeError", op, err, err)
	}
	return ie
}

// bidiUtterance opens a session and speaks one utterance on it.
func bidiUtterance(ctx context.Context, cl clients) error {
	s, err := cl.bidi.Open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	_, types, err := utterance(ctx, s, "x")
	if err == nil && (len(types) == 0 || types[len(types)-1] != api.WSTypeSynthesisComplete) {
		err = errors.New("utterance did not complete: " + strings.Join(types, ","))
	}
	return err
}

// TestFailuresReachTheClientAsSageMakerReportsThem: each failure a container or the service
// can have arrives at the SDK client and at the bidirectional client with SageMaker's code.
func TestFailuresReachTheClientAsSageMakerReportsThem(t *testing.T) {
	t.Parallel()
	type want struct {
		code       string
		status     int
		cstatus    int
		streamCode string
		midStream  bool
	}
	cases := []struct {
		name             string
		c                func() *container
		cfg              emulate.Config
		ep               smruntime.Endpoint
		stream, bidi     want
		skipBidi, skipSt bool
	}{
		{
			name: "container 503",
			c: func() *container {
				return &container{status: 503, body: `{"error":"queue_saturated","queue_depth":1,"max_queue_depth":1}`}
			},
			stream: want{code: "ModelError", status: 424, cstatus: 503},
			bidi:   want{code: "ModelError", status: 424, cstatus: 503},
		},
		{
			name:   "throttled",
			c:      func() *container { return &container{} },
			cfg:    emulate.Config{Faults: emulate.Faults{Throttle: 1}},
			stream: want{code: "ThrottlingException", status: 400},
			bidi:   want{code: "ThrottlingException", status: 400},
		},
		{
			name:   "mid-stream failure",
			c:      func() *container { return &container{} },
			cfg:    emulate.Config{Faults: emulate.Faults{StreamFailure: 1}},
			stream: want{code: "InternalStreamFailure", midStream: true},
			bidi:   want{code: "InternalStreamFailure", midStream: true},
		},
		{
			name:   "container killed mid-request",
			c:      func() *container { return &container{killAfter: 1, chunks: 3} },
			stream: want{code: "ModelStreamError", streamCode: "StreamBroken", midStream: true},
			bidi:   want{code: "ModelStreamError", streamCode: "StreamBroken", midStream: true},
		},
		{
			// The header leaves at once and the first chunk after 6 s: the 3 s limit falls
			// mid-stream on any machine that passes the header on within it.
			name:   "invocation limit mid-stream",
			c:      func() *container { return &container{chunks: 3, every: 6 * time.Second} },
			cfg:    emulate.Config{InvocationTimeout: 3 * time.Second, SessionTimeout: 3 * time.Second},
			stream: want{code: "ModelStreamError", streamCode: "ModelInvocationTimeExceeded", midStream: true},
			bidi:   want{code: "ModelStreamError", streamCode: "ModelInvocationTimeExceeded", midStream: true},
		},
		{
			name:     "invocation limit before the first byte",
			c:        func() *container { return &container{stall: 800 * time.Millisecond} },
			cfg:      emulate.Config{InvocationTimeout: 300 * time.Millisecond},
			stream:   want{code: "ModelError", status: 424, cstatus: 0},
			skipBidi: true, // a session's first byte is the 200 itself
		},
		{
			name:   "unknown endpoint",
			c:      func() *container { return &container{} },
			ep:     smruntime.Endpoint{Name: "nope"},
			stream: want{code: "ValidationError", status: 400},
			bidi:   want{code: "InputValidationError", status: 400},
		},
		{
			name:   "unknown variant",
			c:      func() *container { return &container{} },
			ep:     smruntime.Endpoint{Variant: "Canary"},
			stream: want{code: "ValidationError", status: 400},
			bidi:   want{code: "InputValidationError", status: 400},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c()
			cl := newClients(t, serve(t, tc.cfg, c.start(t)), tc.ep)
			check := func(op string, w want, err error) {
				ie := invokeErr(t, op, err)
				if ie.Code != w.code || ie.Status != w.status || ie.StreamCode != w.streamCode || ie.MidStream != w.midStream ||
					(w.code == "ModelError" && ie.ContainerStatus != w.cstatus) {
					t.Errorf("%s: %+v; want %+v", op, *ie, w)
				}
				if w.cstatus == 503 && !strings.Contains(ie.ContainerBody, "queue_saturated") {
					t.Errorf("%s: container body %q lost", op, ie.ContainerBody)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if !tc.skipSt {
				_, err := cl.stream1(ctx)
				check("response stream", tc.stream, err)
			}
			if !tc.skipBidi {
				check("bidirectional stream", tc.bidi, bidiUtterance(ctx, cl))
			}
		})
	}
}

func TestRequestsMustBeSigned(t *testing.T) {
	t.Parallel()
	c := &container{}
	url := serve(t, emulate.Config{}, c.start(t))
	// No signature at all.
	resp, err := http.Post(url+"/endpoints/"+testEndpoint+"/invocations", "application/json", strings.NewReader(`{"text":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-Amzn-ErrorType") != "MissingAuthenticationTokenException" {
		t.Errorf("unsigned: %d %s", resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"))
	}
	// Signed for another region.
	s, err := smruntime.NewStreamClient(awsConfig("eu-west-1"), smruntime.Options{Endpoint: smruntime.Endpoint{Name: testEndpoint}, EndpointURL: url})
	if err != nil {
		t.Fatal(err)
	}
	err = s.InvokeStream(context.Background(), []byte(`{}`), func([]byte) {})
	if ie := invokeErr(t, "wrong region", err); ie.Code != "InvalidSignatureException" || ie.Status != 403 {
		t.Errorf("wrong region: %+v", *ie)
	}
	if c.requests.Load() != 0 {
		t.Errorf("%d refused requests reached the container", c.requests.Load())
	}
}

// TestRequestsSpreadOverInstances: four requests held open at once on two instances land two
// on each, and ConcurrentRequestsPerModel reports two per instance.
func TestRequestsSpreadOverInstances(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	a, b := &container{hold: hold}, &container{hold: hold}
	sink := &recordingSink{}
	url := serve(t, emulate.Config{
		Variants:     []emulate.Variant{{Name: "AllTraffic", Instances: []string{a.start(t), b.start(t)}}},
		Metrics:      sink,
		MetricPeriod: 200 * time.Millisecond, SampleEvery: 20 * time.Millisecond,
	})
	cl := newClients(t, url, smruntime.Endpoint{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			_, err := cl.stream1(context.Background())
			errs <- err
		})
	}
	// Held until a metric period has seen all four (a ceiling, not a timing check).
	deadline := time.Now().Add(time.Minute)
	sawFour := func() bool {
		for _, s := range sink.all() {
			if s.Max == 2 {
				return true
			}
		}
		return false
	}
	for !(a.inFlight.Load()+b.inFlight.Load() == 4 && sawFour()) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	close(hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if a.peak.Load() != 2 || b.peak.Load() != 2 {
		t.Errorf("in flight per instance: %d and %d; want 2 and 2", a.peak.Load(), b.peak.Load())
	}
	stats := sink.all()
	var peak float64
	for _, s := range stats {
		if s.Endpoint != testEndpoint || s.Variant != "AllTraffic" || s.SampleCount < 1 {
			t.Errorf("stat %+v", s)
		}
		peak = max(peak, s.Max)
	}
	if peak != 2 {
		t.Errorf("ConcurrentRequestsPerModel maximum %v over %d stats; want 2 (requests per instance)", peak, len(stats))
	}
}

type recordingSink struct {
	mu    sync.Mutex
	stats []smruntime.ConcurrencyStat
}

func (r *recordingSink) PutConcurrency(_ context.Context, s []smruntime.ConcurrencyStat) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats = append(r.stats, s...)
	return nil
}

func (r *recordingSink) all() []smruntime.ConcurrencyStat {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]smruntime.ConcurrencyStat(nil), r.stats...)
}

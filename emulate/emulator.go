package emulate

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultInvocationTimeout is SageMaker's limit on one invocation: "A customer's model
// containers must respond to requests within 60 seconds" (InvokeEndpoint, API reference).
const DefaultInvocationTimeout = 60 * time.Second

// Config describes the emulated endpoint.
type Config struct {
	// EndpointName is the only endpoint this emulator serves; any other name is a
	// ValidationError, as an unknown endpoint is on SageMaker.
	EndpointName string
	// Region is the signing region requests must be scoped to.
	Region string
	// Variants are the production variants, each with its instances (the base URLs of
	// containers on the SageMaker contract: /ping, /invocations,
	// /invocations-bidirectional-stream).
	Variants []Variant
	// InvocationTimeout bounds InvokeEndpoint and InvokeEndpointWithResponseStream from the
	// request to the last byte; 0 means DefaultInvocationTimeout. Tests shorten it.
	InvocationTimeout time.Duration
	// SessionTimeout bounds a bidirectional session; 0 means no bound. AWS documents no limit
	// for it that this emulator could copy.
	SessionTimeout time.Duration
	// Faults are injected failures (faults.go).
	Faults Faults
	// Metrics receives ConcurrentRequestsPerModel every MetricPeriod; nil publishes nothing.
	Metrics MetricSink
	// MetricPeriod is the publishing period (default 10 s, SageMaker's high-resolution
	// period); SampleEvery how often in-flight counts are sampled inside it (default 1 s).
	MetricPeriod, SampleEvery time.Duration
	// Logger receives one line per failed invocation; nil discards.
	Logger *slog.Logger
	// TLS, when set, serves HTTPS with its certificate instead of cleartext: HTTP/1.1 and
	// HTTP/2 on one port, chosen by ALPN (h2, http/1.1), which is how the AWS SDKs that speak
	// HTTP/2 only over TLS reach the bidirectional stream (NewTLS).
	TLS *tls.Config
	// Autoscale, when set, scales one variant as Application Auto Scaling would with a
	// policy (autoscale.go).
	Autoscale *Autoscale
	// Control, when set, answers on the same port every request that is not the runtime's:
	// those carrying X-Amz-Target (the AWS JSON control-plane APIs) and any path outside
	// /endpoints/ (the query protocol of CloudWatch and others). A ControlPlane is one.
	Control http.Handler
}

// Variant is one production variant.
type Variant struct {
	Name string
	// Weight is the variant's share of traffic that names no TargetVariant; 0 counts as 1.
	Weight    float64
	Instances []string
}

// Emulator serves the SageMaker runtime's wire protocol in front of real containers.
type Emulator struct {
	cfg      Config
	variants []*variant
	client   *http.Client
	log      *slog.Logger
	rnd      func() float64

	metricsDone chan struct{}
	stopMetrics context.CancelFunc
	closeOnce   sync.Once
	scaler      *autoscaler
}

type variant struct {
	name        string
	weight      float64
	next        atomic.Uint64 // round-robin among equally loaded instances
	invocations atomic.Int64  // routed since the autoscaler last read them

	mu        sync.RWMutex
	instances []*instance // serving; an autoscaler adds and drains them
}

// serving returns the instances that take new requests now.
func (v *variant) serving() []*instance {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.instances
}

// instance is one container. inFlight counts invocations and bidirectional sessions it is
// serving; peak is the highest count since the last metric sample.
type instance struct {
	base     *url.URL
	inFlight atomic.Int64
	peak     atomic.Int64 // for the metric publisher
	// scalePeak is the highest count since the autoscaler last sampled it; stop, when set,
	// stops a container the autoscaler started.
	scalePeak atomic.Int64
	stop      func() error
}

func (in *instance) acquire() func() {
	n := in.inFlight.Add(1)
	for _, p := range []*atomic.Int64{&in.peak, &in.scalePeak} {
		for {
			v := p.Load()
			if n <= v || p.CompareAndSwap(v, n) {
				break
			}
		}
	}
	return func() { in.inFlight.Add(-1) }
}

// New checks the configuration and builds the emulator; Close stops its metric publisher.
func New(cfg Config) (*Emulator, error) {
	if cfg.EndpointName == "" {
		return nil, errors.New("emulator: no endpoint name")
	}
	if cfg.Region == "" {
		return nil, errors.New("emulator: no region")
	}
	if len(cfg.Variants) == 0 {
		return nil, errors.New("emulator: no variants")
	}
	if cfg.InvocationTimeout <= 0 {
		cfg.InvocationTimeout = DefaultInvocationTimeout
	}
	if cfg.MetricPeriod <= 0 {
		cfg.MetricPeriod = 10 * time.Second
	}
	if cfg.SampleEvery <= 0 {
		cfg.SampleEvery = time.Second
	}
	if cfg.SampleEvery > cfg.MetricPeriod {
		cfg.SampleEvery = cfg.MetricPeriod
	}
	if err := cfg.Faults.validate(); err != nil {
		return nil, err
	}
	e := &Emulator{cfg: cfg, log: cfg.Logger, rnd: cfg.Faults.Rand}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if e.rnd == nil {
		e.rnd = rand.Float64
	}
	seen := map[string]bool{}
	for _, v := range cfg.Variants {
		if v.Name == "" || seen[v.Name] {
			return nil, fmt.Errorf("emulator: variant name %q empty or repeated", v.Name)
		}
		seen[v.Name] = true
		if len(v.Instances) == 0 {
			return nil, fmt.Errorf("emulator: variant %s has no instances", v.Name)
		}
		vv := &variant{name: v.Name, weight: v.Weight}
		if vv.weight <= 0 {
			vv.weight = 1
		}
		for _, raw := range v.Instances {
			u, err := url.Parse(strings.TrimSuffix(raw, "/"))
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, fmt.Errorf("emulator: instance %q is not an http(s) URL", raw)
			}
			vv.instances = append(vv.instances, &instance{base: u})
		}
		e.variants = append(e.variants, vv)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	tr.DisableCompression = true
	e.client = &http.Client{Transport: tr}
	if cfg.Autoscale != nil {
		a, err := newAutoscaler(e, *cfg.Autoscale)
		if err != nil {
			return nil, err
		}
		e.scaler = a
	}
	if cfg.Metrics != nil {
		ctx, cancel := context.WithCancel(context.Background())
		e.stopMetrics = cancel
		e.metricsDone = make(chan struct{})
		go func() { defer close(e.metricsDone); e.publish(ctx) }()
	}
	if e.scaler != nil {
		e.scaler.start()
	}
	return e, nil
}

// Close stops the autoscaler (and the containers it started) and the metric publisher (after
// a last flush), and drops idle container connections.
func (e *Emulator) Close() error {
	var err error
	e.closeOnce.Do(func() {
		if e.scaler != nil {
			err = e.scaler.close()
		}
		if e.stopMetrics != nil {
			e.stopMetrics()
			<-e.metricsDone
		}
		e.client.CloseIdleConnections()
	})
	return err
}

// Handler routes the runtime's operations (restJson1 URIs of the service models).
func (e *Emulator) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /endpoints/{name}/invocations", e.handleInvoke)
	mux.HandleFunc("POST /endpoints/{name}/invocations-response-stream", e.handleResponseStream)
	mux.HandleFunc("POST /endpoints/{name}/invocations-bidirectional-stream", e.handleBidi)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "UnknownOperationException", fmt.Sprintf("no operation at %s %s", r.Method, r.URL.Path))
	})
	if e.cfg.Control == nil {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Amz-Target") != "" || !strings.HasPrefix(r.URL.Path, "/endpoints/") {
			e.cfg.Control.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// Serve answers on ln until ctx ends: HTTP/1.1 for InvokeEndpoint and the response stream,
// and HTTP/2 with prior knowledge (h2c) on the same port for the bidirectional stream; with
// Config.TLS, HTTPS with both protocols offered by ALPN. It then stops accepting and waits up
// to the invocation timeout for requests in flight.
func (e *Emulator) Serve(ctx context.Context, ln net.Listener) error {
	var p http.Protocols
	p.SetHTTP1(true)
	if e.cfg.TLS != nil {
		p.SetHTTP2(true)
	} else {
		p.SetUnencryptedHTTP2(true)
	}
	srv := &http.Server{Handler: e.Handler(), Protocols: &p, ReadHeaderTimeout: 10 * time.Second, TLSConfig: e.cfg.TLS,
		// A client that refuses the certificate (it does not trust the CA) is worth a line
		// in the emulator's log, not on the process's stderr.
		ErrorLog: slog.NewLogLogger(e.log.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() {
		if e.cfg.TLS != nil {
			errc <- srv.ServeTLS(ln, "", "")
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), e.cfg.InvocationTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// route picks the variant and the instance for a request: the named variant or a weighted
// draw, then the instance with the fewest requests in flight (round-robin among equals),
// which is how SageMaker's least-outstanding-requests routing spreads load.
//
// validation is the service's name for a bad request: ValidationError on the runtime API,
// InputValidationError on the HTTP/2 one.
func (e *Emulator) route(w http.ResponseWriter, r *http.Request, validation string) (*variant, *instance, bool) {
	if name := r.PathValue("name"); name != e.cfg.EndpointName {
		writeError(w, http.StatusBadRequest, validation, fmt.Sprintf("Endpoint %s of account %s not found.", name, emulatedAccount))
		return nil, nil, false
	}
	var v *variant
	if tv := r.Header.Get(headerTargetVariant); tv != "" {
		for _, c := range e.variants {
			if c.name == tv {
				v = c
			}
		}
		if v == nil {
			writeError(w, http.StatusBadRequest, validation, fmt.Sprintf("Variant %s not found for endpoint %s.", tv, e.cfg.EndpointName))
			return nil, nil, false
		}
	} else {
		var total float64
		for _, c := range e.variants {
			total += c.weight
		}
		x := e.rnd() * total
		for _, c := range e.variants {
			v = c
			if x < c.weight {
				break
			}
			x -= c.weight
		}
	}
	start := v.next.Add(1)
	v.invocations.Add(1)
	var best *instance
	live := v.serving()
	if len(live) == 0 {
		writeError(w, http.StatusBadRequest, validation, fmt.Sprintf("Variant %s of endpoint %s has no instance in service.", v.name, e.cfg.EndpointName))
		return nil, nil, false
	}
	for i := range live {
		in := live[(int(start)+i)%len(live)]
		if best == nil || in.inFlight.Load() < best.inFlight.Load() {
			best = in
		}
	}
	return v, best, true
}

// emulatedAccount stands in for the caller's account id in messages that name it.
const emulatedAccount = "000000000000"

// Request and response headers of the runtime API (service models).
const (
	headerTargetVariant    = "X-Amzn-SageMaker-Target-Variant"
	headerTargetContainer  = "X-Amzn-SageMaker-Target-Container-Hostname"
	headerCustomAttributes = "X-Amzn-SageMaker-Custom-Attributes"
	headerStreamAccept     = "X-Amzn-SageMaker-Accept"
	headerInferenceID      = "X-Amzn-SageMaker-Inference-Id"
	headerInvocationPath   = "X-Amzn-SageMaker-Model-Invocation-Path"
	headerQueryString      = "X-Amzn-SageMaker-Model-Query-String"
	headerResponseType     = "X-Amzn-SageMaker-Content-Type"
	headerInvokedVariant   = "X-Amzn-Invoked-Production-Variant"
	headerErrorType        = "X-Amzn-ErrorType"
	headerRequestID        = "X-Amzn-RequestId"
)

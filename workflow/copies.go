package workflow

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// serveCopies starts copies in-process servers, each an engine on its share of the cores (the
// GPU, where there is one, is shared), behind one loopback port, as SageMaker places copies of
// a model (inference components) on one instance: each request or WebSocket goes to the copy
// with the fewest in flight. The port answers /ping once every copy does, and /metrics with
// kokoro_requests_in_flight summed over the copies. stop shuts the port and every copy down.
func serveCopies(ctx context.Context, ec tts.LoadConfig, copies, maxQueueDepth int, log io.Writer) (baseURL string, each tts.LoadConfig, stop func(), err error) {
	each = ec
	cores := ec.Cores
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	if cores < copies && len(ec.SlotThreads) == 0 {
		return "", each, nil, fmt.Errorf("%w: --copies %d on %d cores: each copy needs a core", ErrUsage, copies, cores)
	}
	each.Cores = cores / copies
	var stops []func()
	stopAll := func() {
		for _, s := range stops {
			s()
		}
	}
	b := &balancer{}
	for i := range copies {
		u, s, err := serveSelf(ctx, each, maxQueueDepth, log)
		if err != nil {
			stopAll()
			return "", each, nil, fmt.Errorf("copy %d: %w", i+1, err)
		}
		stops = append(stops, s)
		target, err := url.Parse(u)
		if err != nil {
			stopAll()
			return "", each, nil, err
		}
		b.copies = append(b.copies, &copyBackend{url: u, proxy: httputil.NewSingleHostReverseProxy(target)})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		stopAll()
		return "", each, nil, err
	}
	srv := &http.Server{Handler: b, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), each, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		stopAll()
	}, nil
}

// balancer sends each request to the copy with the fewest in flight.
type balancer struct {
	mu     sync.Mutex
	copies []*copyBackend
}

type copyBackend struct {
	url      string
	proxy    *httputil.ReverseProxy
	inFlight int
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case api.RoutePing:
		for _, c := range b.copies {
			if status, err := statusOf(r.Context(), c.url+api.RoutePing); err != nil || status != http.StatusOK {
				http.Error(w, "a copy is not ready", http.StatusServiceUnavailable)
				return
			}
		}
		w.WriteHeader(http.StatusOK)
		return
	case api.RouteMetrics:
		b.metrics(w, r)
		return
	}
	b.mu.Lock()
	c := b.copies[0]
	for _, o := range b.copies[1:] {
		if o.inFlight < c.inFlight {
			c = o
		}
	}
	c.inFlight++
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		c.inFlight--
		b.mu.Unlock()
	}()
	c.proxy.ServeHTTP(w, r)
}

// metrics answers kokoro_requests_in_flight as the sum of the copies' gauges.
func (b *balancer) metrics(w http.ResponseWriter, r *http.Request) {
	var sum float64
	for _, c := range b.copies {
		v, err := inFlightOf(r.Context(), c.url+api.RouteMetrics)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		sum += v
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	fmt.Fprintf(w, "# HELP kokoro_requests_in_flight Admitted requests in the system, queued or executing, over every copy.\n")
	fmt.Fprintf(w, "# TYPE kokoro_requests_in_flight gauge\nkokoro_requests_in_flight %g\n", sum)
}

// get fetches u; the caller closes the body.
func get(ctx context.Context, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// statusOf is the status u answers with.
func statusOf(ctx context.Context, u string) (int, error) {
	resp, err := get(ctx, u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

// inFlightOf reads a server's kokoro_requests_in_flight gauge.
func inFlightOf(ctx context.Context, u string) (float64, error) {
	resp, err := get(ctx, u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "kokoro_requests_in_flight "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, errors.New(u + ": no kokoro_requests_in_flight")
}

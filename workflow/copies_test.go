package workflow

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

// TestBalancerSendsToTheLeastBusyCopy: with one copy holding a request, the next goes to the
// other; /ping waits for every copy and /metrics sums their in-flight gauges.
func TestBalancerSendsToTheLeastBusyCopy(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	served := map[int]int{}
	b := &balancer{}
	for i := range 2 {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case api.RouteMetrics:
				fmt.Fprintf(w, "# TYPE kokoro_requests_in_flight gauge\nkokoro_requests_in_flight %d\n", i+2)
			default:
				mu.Lock()
				served[i]++
				mu.Unlock()
				if r.URL.Query().Get("hold") != "" {
					<-release
				}
				io.WriteString(w, "ok")
			}
		}))
		t.Cleanup(s.Close)
		u, _ := url.Parse(s.URL)
		b.copies = append(b.copies, &copyBackend{url: s.URL, proxy: httputil.NewSingleHostReverseProxy(u)})
	}
	front := httptest.NewServer(b)
	t.Cleanup(front.Close)

	held := make(chan error, 1)
	go func() {
		resp, err := http.Get(front.URL + api.RouteInvocations + "?hold=1")
		if err == nil {
			resp.Body.Close()
		}
		held <- err
	}()
	// Wait until the held request is in a copy.
	for {
		b.mu.Lock()
		n := b.copies[0].inFlight + b.copies[1].inFlight
		b.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	resp, err := http.Get(front.URL + api.RouteInvocations)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if served[0] != 1 || served[1] != 1 {
		t.Errorf("requests per copy %v: want the second on the idle copy", served)
	}
	resp, err = http.Get(front.URL + api.RouteMetrics)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "kokoro_requests_in_flight 5\n") {
		t.Errorf("/metrics %q: want the copies' 2 + 3", body)
	}
	if resp, err := http.Get(front.URL + api.RoutePing); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/ping with every copy ready: %v %v", resp, err)
	}
}

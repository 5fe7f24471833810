package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// poster posts JSON to one route of a server over a pool of keep-alive connections: what the
// HTTP transports share.
type poster struct {
	endpoint string
	route    string
	client   *http.Client
}

// newPoster returns a poster for route on the server at baseURL (scheme and host, optionally a
// path prefix); maxConns sizes the pool, one connection per worker.
func newPoster(baseURL, route string, maxConns int) (poster, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return poster{}, fmt.Errorf("parse base url %q: %w", baseURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return poster{}, fmt.Errorf("base url %q: scheme must be http or https", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + route
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = max(100, maxConns)
	tr.MaxIdleConnsPerHost = max(2, maxConns)
	// Audio is incompressible and gzip would buffer the stream.
	tr.DisableCompression = true
	return poster{endpoint: u.String(), route: route, client: &http.Client{Transport: tr}}, nil
}

// post sends body as JSON and returns the response of a 200; any other status is read into a
// *bench.ServerError. headers are "name", "value" pairs. The caller closes the body.
func (p poster) post(ctx context.Context, body any, headers ...string) (*http.Response, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		hr.Header.Set(headers[i], headers[i+1])
	}
	resp, err := p.client.Do(hr)
	if err != nil {
		return nil, fmt.Errorf("post %s: %w", p.route, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, readServerError(resp)
	}
	return resp, nil
}

// close closes the pooled connections.
func (p poster) close() { p.client.CloseIdleConnections() }

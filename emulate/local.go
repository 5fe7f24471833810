package emulate

import (
	"context"
	"errors"
	"fmt"
	"net"
)

// StartLocal serves the emulator on a loopback port in the background, for a client in the
// same process (tests, a bench run beside it). It returns the base URL and a stop that ends
// Serve, closes the emulator and returns their errors.
func (e *Emulator) StartLocal() (baseURL string, stop func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, ln) }()
	stop = func() error {
		cancel()
		return errors.Join(<-done, e.Close())
	}
	scheme := "http://"
	if e.cfg.TLS != nil {
		scheme = "https://"
	}
	return scheme + ln.Addr().String(), stop, nil
}

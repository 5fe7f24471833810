package server

import (
	"context"
	"errors"
	"fmt"
	"net"
)

// StartLocal serves on a loopback port in the background, for a client in the same process
// (`kokoro bench qmax --self`, tests). It returns once the engine is loaded and /ping answers
// 200, with the base URL and a stop that shuts the server down as Serve does and returns
// Serve's error. It gives up, stopping the server, when ctx ends first or loading fails;
// otherwise ctx's end does not stop the server, only stop does.
func (s *Server) StartLocal(ctx context.Context) (baseURL string, stop func() error, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() { done <- s.Serve(sctx, ln) }()
	stop = func() error {
		cancel()
		return <-done
	}
	select {
	case <-s.Ready():
		return "http://" + ln.Addr().String(), stop, nil
	case err := <-done:
		cancel()
		return "", nil, err
	case <-ctx.Done():
		return "", nil, errors.Join(ctx.Err(), stop())
	}
}

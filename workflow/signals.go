package workflow

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// lockedWriter serialises writes to a writer shared with the signal handler's goroutine.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lockedPair wraps a command's output and error writers under one lock: they may be the same
// writer, and interruptContext writes from a goroutine of its own.
func lockedPair(out, errw io.Writer) (io.Writer, io.Writer) {
	mu := &sync.Mutex{}
	return lockedWriter{mu, out}, lockedWriter{mu, errw}
}

// interruptContext is cancelled by the first SIGINT or SIGTERM, so the command stops and
// restores what it changed. Later signals do not kill the process mid-restore: they print
// where the state is kept, so a user who must leave knows how to finish the restore.
func interruptContext(parent context.Context, w io.Writer, stateFile func() string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		n := 0
		for {
			select {
			case <-done:
				return
			case <-sig:
				n++
				if n == 1 {
					fmt.Fprintln(w, "\ninterrupted: stopping and restoring the endpoint's scaling…")
					cancel()
					continue
				}
				msg := "still restoring the endpoint's scaling; it is bounded and will finish"
				if f := stateFile(); f != "" {
					msg += "; if this process is killed, `kokoro thaw --state " + f + "` completes it"
				}
				fmt.Fprintln(w, msg)
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		<-finished // nothing is written after the command has returned
		cancel()
	}
}

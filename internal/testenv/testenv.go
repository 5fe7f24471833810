// Package testenv gives tests the real peers they drive: the repository's Python virtual
// environment (scripts/setup/pyvenv.sh), a moto server, the AWS API emulator, started on a loopback
// port for one test, and a headless Chromium driven over the DevTools protocol. Only tests
// import it.
//
// A missing tool skips the test under a bare `go test`, and fails it under `make test`
// (KOKORO_REQUIRE_ASSETS=1), so the full suite never skips a real peer silently.
package testenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RepoRoot returns the directory holding go.mod, found from the working directory upwards.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatalf("working directory: %v", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			tb.Fatalf("no go.mod above %s", wd)
		}
	}
}

// missing skips or fails the test for a tool that is not installed.
func missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
}

// VenvBin returns the bin directory of the test virtual environment (KOKORO_VENV, default
// <repo>/.venv) and checks that name is installed there.
func VenvBin(tb testing.TB, name string) string {
	tb.Helper()
	venv := os.Getenv("KOKORO_VENV")
	if venv == "" {
		venv = filepath.Join(RepoRoot(tb), ".venv")
	}
	bin := filepath.Join(venv, "bin")
	if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
		missing(tb, "%s not found in %s: run `bash scripts/setup/pyvenv.sh` (or `make test`)", name, bin)
	}
	return bin
}

// SDKVenvBin returns the bin directory of the SDK virtual environment (KOKORO_SDK_VENV,
// default <repo>/.venv-sdk: Python 3.12 or later with the SageMaker HTTP/2 SDK) and checks
// that its python is there.
func SDKVenvBin(tb testing.TB) string {
	tb.Helper()
	venv := os.Getenv("KOKORO_SDK_VENV")
	if venv == "" {
		venv = filepath.Join(RepoRoot(tb), ".venv-sdk")
	}
	bin := filepath.Join(venv, "bin")
	if _, err := os.Stat(filepath.Join(bin, "python")); err != nil {
		missing(tb, "python not found in %s: run `bash scripts/setup/pyvenv.sh` (or `make test`)", bin)
	}
	return bin
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Moto starts moto's server on a loopback port for the duration of the test and returns its
// endpoint URL ("http://127.0.0.1:PORT"). Every test gets its own server, so state never leaks
// between tests.
func Moto(tb testing.TB) string {
	tb.Helper()
	bin := VenvBin(tb, "moto_server")
	var url string
	for attempt := 0; attempt < 3; attempt++ {
		port := FreePort(tb)
		url = fmt.Sprintf("http://127.0.0.1:%d", port)
		if startMoto(tb, filepath.Join(bin, "moto_server"), port, url) {
			return url
		}
	}
	tb.Fatalf("moto_server did not start")
	return ""
}

// capped is an io.Writer that keeps the first 64 KiB written to it, safe for concurrent use.
type capped struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := 64<<10 - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func startMoto(tb testing.TB, path string, port int, url string) bool {
	tb.Helper()
	log := &capped{}
	cmd := exec.Command(path, "-H", "127.0.0.1", "-p", fmt.Sprint(port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start moto_server: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/moto-api/data.json", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				tb.Cleanup(func() {
					stop()
					if tb.Failed() {
						tb.Logf("moto_server log:\n%s", log.String())
					}
				})
				return true
			}
		}
		select {
		case <-exited:
			tb.Logf("moto_server on port %d exited: %s", port, log.String())
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	stop()
	tb.Logf("moto_server on port %d did not answer: %s", port, log.String())
	return false
}

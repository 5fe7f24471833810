package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

// EngineLoader is the server's Loader for the engine c describes: the server hands in its
// metrics as the observer and owns the engine until it shuts down.
func EngineLoader(c tts.LoadConfig) server.Loader {
	return func(ctx context.Context, obs tts.Observer, stage func(string)) (server.Engine, func() error, error) {
		c.Observer = obs
		eng, err := tts.Load(ctx, c, stage)
		if err != nil {
			return nil, nil, err
		}
		return eng, eng.Close, nil
	}
}

// chainAfterRung runs the hooks in order, stopping at the first error; nil hooks are skipped.
// A later hook's ConcurrencyRatio wins: a server gauge named explicitly with --server-metrics
// overrides CloudWatch's.
func chainAfterRung(hooks ...func(context.Context, *bench.RungStats) error) func(context.Context, *bench.RungStats) error {
	return func(ctx context.Context, s *bench.RungStats) error {
		for _, h := range hooks {
			if h == nil {
				continue
			}
			if err := h(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}
}

func usableText(s bench.RungStats) string {
	if s.Usable {
		return "usable"
	}
	return fmt.Sprintf("unusable %v", s.Unusable)
}

// startSelf runs the real server on a loopback port and waits until it is ready. stop
// shuts it down and waits for it to exit.
func startSelf(ctx context.Context, ec tts.LoadConfig, maxQueueDepth int) (baseURL string, stop func() error, err error) {
	if err := ec.Validate(); err != nil {
		return "", nil, err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ec.Logger = log
	srv, err := server.New(server.Config{
		MaxQueueDepth: maxQueueDepth,
		Logger:        log,
		Load:          EngineLoader(ec),
	})
	if err != nil {
		return "", nil, fmt.Errorf("in-process server: %w", err)
	}
	if baseURL, stop, err = srv.StartLocal(ctx); err != nil {
		return "", nil, fmt.Errorf("in-process server: %w", err)
	}
	return baseURL, stop, nil
}

// serveSelf is startSelf with a stop that reports to log a server that did not stop cleanly.
func serveSelf(ctx context.Context, ec tts.LoadConfig, maxQueueDepth int, log io.Writer) (baseURL string, stop func(), err error) {
	u, stopServer, err := startSelf(ctx, ec, maxQueueDepth)
	if err != nil {
		return "", nil, err
	}
	return u, func() {
		if err := stopServer(); err != nil {
			fmt.Fprintln(log, "kokoro: in-process server:", err)
		}
	}, nil
}

// readTexts reads the utterances of a texts file, one per line; with no path, def.
func readTexts(path string, def []string) ([]string, error) {
	if path == "" {
		return def, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("texts: %w", err)
	}
	defer fh.Close()
	texts, err := bench.LoadTexts(fh)
	if err != nil {
		return nil, fmt.Errorf("texts %s: %w", path, err)
	}
	return texts, nil
}

// targetHost names the machine serving the model for the fingerprint: this machine for a
// loopback URL, else the URL's host.
func targetHost(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return baseURL
	}
	h := u.Hostname()
	if ip := net.ParseIP(h); (ip != nil && ip.IsLoopback()) || h == "localhost" {
		if name, err := os.Hostname(); err == nil {
			return name
		}
	}
	return u.Host
}

func fileSHA256(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("fingerprint model: %w", err)
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", fmt.Errorf("fingerprint model %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

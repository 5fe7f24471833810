package workflow

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

// Serve is `kokoro serve`: the engine's settings and the server's (ServeSettings).
type Serve struct {
	Engine        tts.LoadConfig
	Host          string
	Port          int
	MaxQueueDepth int
	MaxRequestAge float64 // seconds
	DrainTimeout  time.Duration
	LogLevel      string
	OpenAIVoices  string
	Lexicons      string
	AllowUnknown  bool
	// Start is what the stage markers' elapsed_s counts from (ContainerStart).
	Start time.Time
}

// Run listens, then loads the engine behind the running server, and serves until ctx ends.
func (s Serve) Run(ctx context.Context) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(s.LogLevel)); err != nil {
		return fmt.Errorf("%w: --log-level %q: %v", ErrUsage, s.LogLevel, err)
	}
	if s.MaxRequestAge < 0 || math.IsNaN(s.MaxRequestAge) {
		return fmt.Errorf("%w: --max-request-age must be at least 0, got %v", ErrUsage, s.MaxRequestAge)
	}
	ec := s.Engine
	if err := ec.Validate(); err != nil {
		return err
	}
	aliases, err := server.ParseVoiceAliases(s.OpenAIVoices)
	if err != nil {
		return fmt.Errorf("%w: --openai-voices: %v", ErrUsage, err)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ec.Logger = log
	srv, err := server.New(server.Config{
		Load:               EngineLoader(ec),
		MaxQueueDepth:      s.MaxQueueDepth,
		MaxRequestAge:      time.Duration(s.MaxRequestAge * float64(time.Second)),
		DrainTimeout:       s.DrainTimeout,
		VoiceAliases:       aliases,
		LexiconDir:         s.Lexicons,
		AllowUnknownFields: s.AllowUnknown,
		Logger:             log,
		Stages:             os.Stdout,
		Start:              s.Start,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)))
	if err != nil {
		return err
	}
	return srv.Serve(ctx, ln)
}

// ContainerStart is when the container started, from EnvContainerStart (unix seconds,
// fractions allowed) when the entrypoint exports it, else def (the process start).
func ContainerStart(getenv func(string) string, def time.Time) (time.Time, error) {
	v := getenv(EnvContainerStart)
	if v == "" {
		return def, nil
	}
	sec, err := strconv.ParseFloat(v, 64)
	if err != nil || sec <= 0 || math.IsInf(sec, 0) {
		return time.Time{}, fmt.Errorf("%w: %s=%q is not unix seconds", ErrUsage, EnvContainerStart, v)
	}
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)), nil
}

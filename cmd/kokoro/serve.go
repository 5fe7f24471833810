package main

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
	"github.com/kokoro-sm/kokoro/workflow"
)

// serveConfig is the server side of `kokoro serve`; the engine's own settings (slots, threads,
// provider, text limit, assets) are in tts.LoadConfig.
type serveConfig struct {
	Host          string
	Port          int
	MaxQueueDepth int
	MaxRequestAge float64 // seconds
	DrainTimeout  time.Duration
	LogLevel      string
	OpenAIVoices  string
	Lexicons      string
	AllowUnknown  bool
}

func newServeCmd() *cobra.Command {
	var (
		ec tts.LoadConfig
		sc serveConfig
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the model: the SageMaker container contract on 0.0.0.0:8080",
		Long: "Serve the model over HTTP and WebSocket: /ping, /invocations (streamed audio), " +
			"/invocations-bidirectional-stream, /v1/audio/speech, /v1/audio/voices, /v1/models and /metrics. " +
			"The port accepts at once; /ping answers 200 once the model is loaded and warmed. " +
			"SIGTERM stops accepting, drains in-flight work and exits.\n\n" + workflow.EnvOnlyHelp(workflow.ServeSettings(), workflow.EngineSettings()),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// elapsed_s of the stage markers counts from the container's start when the
			// entrypoint exports it, else from here, a few milliseconds after exec.
			start, err := containerStart(os.Getenv(workflow.EnvContainerStart), time.Now())
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			return runServe(ctx, ec, sc, start)
		},
	}
	addEngineFlags(cmd, &ec)
	f := cmd.Flags()
	bindString(f, &sc.Host, "host")
	bindInt(f, &sc.Port, "port")
	bindInt(f, &sc.MaxQueueDepth, "max-queue-depth")
	bindFloat(f, &sc.MaxRequestAge, "max-request-age")
	bindDuration(f, &sc.DrainTimeout, "drain-timeout")
	bindString(f, &sc.LogLevel, "log-level")
	bindString(f, &sc.OpenAIVoices, "openai-voices")
	bindString(f, &sc.Lexicons, "lexicons")
	bindBool(f, &sc.AllowUnknown, "allow-unknown-fields")
	return cmd
}

// runServe listens, then loads the engine behind the running server, and serves until ctx ends.
func runServe(ctx context.Context, ec tts.LoadConfig, sc serveConfig, start time.Time) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(sc.LogLevel)); err != nil {
		return fmt.Errorf("%w: --log-level %q: %v", workflow.ErrUsage, sc.LogLevel, err)
	}
	if sc.MaxRequestAge < 0 || math.IsNaN(sc.MaxRequestAge) {
		return fmt.Errorf("%w: --max-request-age must be at least 0, got %v", workflow.ErrUsage, sc.MaxRequestAge)
	}
	if err := ec.Validate(); err != nil {
		return err
	}
	aliases, err := server.ParseVoiceAliases(sc.OpenAIVoices)
	if err != nil {
		return fmt.Errorf("%w: --openai-voices: %v", workflow.ErrUsage, err)
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ec.Logger = log
	srv, err := server.New(server.Config{
		Load:               workflow.EngineLoader(ec),
		MaxQueueDepth:      sc.MaxQueueDepth,
		MaxRequestAge:      time.Duration(sc.MaxRequestAge * float64(time.Second)),
		DrainTimeout:       sc.DrainTimeout,
		VoiceAliases:       aliases,
		LexiconDir:         sc.Lexicons,
		AllowUnknownFields: sc.AllowUnknown,
		Logger:             log,
		Stages:             os.Stdout,
		Start:              start,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(sc.Host, strconv.Itoa(sc.Port)))
	if err != nil {
		return err
	}
	return srv.Serve(ctx, ln)
}

// containerStart parses CONTAINER_START_EPOCH (unix seconds, fractions allowed); empty means
// the process start, given as def.
func containerStart(v string, def time.Time) (time.Time, error) {
	if v == "" {
		return def, nil
	}
	sec, err := strconv.ParseFloat(v, 64)
	if err != nil || sec <= 0 || math.IsInf(sec, 0) {
		return time.Time{}, fmt.Errorf("%w: CONTAINER_START_EPOCH=%q is not unix seconds", workflow.ErrUsage, v)
	}
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)), nil
}

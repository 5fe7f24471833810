package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newServeCmd() *cobra.Command {
	var s workflow.Serve
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the model: the SageMaker container contract on 0.0.0.0:8080",
		Long: "Serve the model over HTTP and WebSocket: /ping, /invocations (streamed audio), " +
			"/invocations-bidirectional-stream, /v1/audio/speech, /v1/audio/voices, /v1/models and /metrics. " +
			"The port accepts at once; /ping answers 200 once the model is loaded and warmed. " +
			"SIGTERM stops accepting, drains in-flight work and exits.\n\n" + workflow.EnvOnlyHelp(workflow.ServeSettings(), workflow.EngineSettings()),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start, err := workflow.ContainerStart(os.Getenv, time.Now())
			if err != nil {
				return err
			}
			s.Start = start
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			return s.Run(ctx)
		},
	}
	f := cmd.Flags()
	workflow.BindEngine(f, &s.Engine)
	workflow.Bind(f, &s.Host, "host")
	workflow.Bind(f, &s.Port, "port")
	workflow.Bind(f, &s.MaxQueueDepth, "max-queue-depth")
	workflow.Bind(f, &s.MaxRequestAge, "max-request-age")
	workflow.Bind(f, &s.DrainTimeout, "drain-timeout")
	workflow.Bind(f, &s.LogLevel, "log-level")
	workflow.Bind(f, &s.OpenAIVoices, "openai-voices")
	workflow.Bind(f, &s.Lexicons, "lexicons")
	workflow.Bind(f, &s.AllowUnknown, "allow-unknown-fields")
	return cmd
}

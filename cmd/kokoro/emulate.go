package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newEmulateCmd() *cobra.Command {
	f := workflow.NewEmulate()
	f.Version = version
	cmd := &cobra.Command{
		Use:   "emulate",
		Short: "Run a local SageMaker runtime in front of containers, to try a container and the bench before paying for an endpoint",
		Long:  workflow.HelpEmulate,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Listen, "listen", f.Listen, "address to serve the runtime API on")
	fl.StringVar(&f.Endpoint, "endpoint-name", f.Endpoint, "name of the emulated endpoint")
	fl.StringVar(&f.Variant, "variant", f.Variant, "name of its production variant")
	fl.StringVar(&f.Region, "region", f.Region, "region requests must be signed for")
	fl.StringSliceVar(&f.Containers, "container", f.Containers, "base URL of a container (an instance of the variant); repeat for more")
	fl.IntVar(&f.Serve, "serve", f.Serve, "start this many in-process servers with the real model as the instances")
	fl.IntVar(&f.MaxQueueDepth, "max-queue-depth", f.MaxQueueDepth, "with --serve: admission bound of each server; 0 = unbounded, or with --autoscale the plan's MAX_QUEUE_DEPTH")
	fl.DurationVar(&f.InvocationTimeout, "invocation-timeout", f.InvocationTimeout, "limit on InvokeEndpoint and the response stream, as SageMaker's 60 s")
	fl.DurationVar(&f.SessionTimeout, "session-timeout", f.SessionTimeout, "limit on a bidirectional session; 0 = none")
	fl.StringVar(&f.CloudWatchURL, "cloudwatch-url", f.CloudWatchURL, "publish ConcurrentRequestsPerModel to this CloudWatch API (e.g. moto); empty: publish nothing")
	fl.DurationVar(&f.MetricPeriod, "metric-period", f.MetricPeriod, "period of the published metric")
	fl.Float64Var(&f.Throttle, "fault-throttle", f.Throttle, "fraction of calls refused with ThrottlingException")
	fl.Float64Var(&f.StreamFailure, "fault-stream-failure", f.StreamFailure, "fraction of streams ended by InternalStreamFailure after their first part")
	fl.BoolVar(&f.TLS, "tls", f.TLS, "serve HTTPS (HTTP/1.1 and HTTP/2 by ALPN) with a certificate of a local authority, whose CA file is printed for clients")
	fl.StringVar(&f.Autoscale, "autoscale", f.Autoscale, "with --serve: scale the variant with the policy of this plan (plan.json of kokoro plan --out), starting and stopping in-process servers")
	fl.StringVar(&f.AutoscalePolicy, "autoscale-policy", f.AutoscalePolicy, "the plan's policy to scale with: proposal, reference or a candidate kind (as plan replay --policies)")
	fl.Float64Var(&f.TimeScale, "time-scale", f.TimeScale, "with --autoscale: multiply AWS's periods, cooldowns and the scale-out time by this (0.1 plays ten minutes in one)")
	fl.DurationVar(&f.Provision, "provision", f.Provision, "with --autoscale: how long a new server takes to serve, before --time-scale (default: the plan's T_total)")
	fl.StringVar(&f.ControlUpstream, "control-upstream", f.ControlUpstream, "also serve the control-plane APIs on the same port: inference components and their scaling here, every other call forwarded to this AWS API (e.g. moto)")
	fl.StringVar(&f.TLSDir, "tls-dir", f.TLSDir, "where --tls keeps its certificate authority (default: the state directory's emulate-tls, see kokoro thaw --help)")
	workflow.BindEngine(cmd.Flags(), &f.Engine)
	return cmd
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/sagemaker"
)

func newEndpointCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "endpoint",
		Short: "Deploy, describe and delete the SageMaker endpoint that serves kokoro",
	}
	cmd.AddCommand(newEndpointDeployCmd(), newEndpointDescribeCmd(), newEndpointDeleteCmd())
	return cmd
}

// deployFlags are the flags of `kokoro endpoint deploy`.
type deployFlags struct {
	aws            awsFlags
	spec           sagemaker.DeploySpec
	env            []string
	containerEnv   string
	slots, threads int
	maxQueueDepth  int
	wait, poll     time.Duration
	dryRun         bool
}

func newEndpointDeployCmd() *cobra.Command {
	var f deployFlags
	cmd := &cobra.Command{
		Use:   "deploy NAME --image URI --role ARN --instance-type TYPE",
		Short: "Create the endpoint (model → endpoint config → endpoint), or update it in place to a new config",
		Long: `Deploy creates a model from the image and its container environment, an endpoint config with
one production variant, and the endpoint, then waits for InService, printing each step's time.
Deploying the same settings again changes nothing; other settings make a new model and config
and update the endpoint in place (SageMaker starts the new fleet, moves traffic, then retires the
old one), after which the replaced config and model are deleted. --dry-run reads what exists and
prints the calls it would make.

The container environment comes from --env KEY=VALUE, the --slots/--threads/--max-queue-depth
shortcuts and --container-env (the container-env.json that kokoro plan writes), later ones
overriding earlier ones.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.spec.Endpoint = args[0]
			return runEndpointDeploy(cmd, f)
		},
	}
	fl := cmd.Flags()
	f.aws.add(fl, "")
	fl.StringVar(&f.spec.Image, "image", "", "container image URI in ECR (by tag or @sha256 digest)")
	fl.StringVar(&f.spec.Role, "role", "", "execution role ARN that SageMaker assumes (ECR pull, CloudWatch Logs)")
	fl.StringVar(&f.spec.InstanceType, "instance-type", "ml.g5.xlarge", "instance type")
	fl.IntVar(&f.spec.InstanceCount, "instance-count", 1, "initial instance count")
	fl.StringVar(&f.spec.Variant, "variant", sagemaker.DefaultVariant, "production variant name")
	fl.StringArrayVar(&f.env, "env", nil, "container environment KEY=VALUE (repeatable)")
	fl.StringVar(&f.containerEnv, "container-env", "", "JSON object of container environment (kokoro plan's container-env.json)")
	fl.IntVar(&f.slots, "slots", 0, "shortcut for --env SLOTS=N (0: leave unset)")
	fl.IntVar(&f.threads, "threads", 0, "shortcut for --env THREADS=N (0: leave unset)")
	fl.IntVar(&f.maxQueueDepth, "max-queue-depth", -1, "shortcut for --env MAX_QUEUE_DEPTH=N (-1: leave unset)")
	fl.IntVar(&f.spec.StartupTimeoutS, "startup-timeout", 600, "ContainerStartupHealthCheckTimeoutInSeconds: how long SageMaker waits for /ping (60–3600)")
	fl.IntVar(&f.spec.DownloadTimeoutS, "download-timeout", 600, "ModelDataDownloadTimeoutInSeconds (60–3600)")
	fl.StringVar(&f.spec.InferenceAMI, "inference-ami", "", "InferenceAmiVersion of the variant, e.g. al2-ami-sagemaker-inference-gpu-3-1 for the GPU image on ml.g5 (default: SageMaker's)")
	fl.DurationVar(&f.wait, "wait", 45*time.Minute, "longest wait for InService")
	fl.DurationVar(&f.poll, "poll", sagemaker.DefaultPoll, "how often the endpoint is read while waiting")
	fl.BoolVar(&f.dryRun, "dry-run", false, "read what exists and print the calls; change nothing")
	return cmd
}

// containerEnv merges the environment sources in order: --env, the shortcuts, --container-env.
func (f deployFlags) containerEnvironment() (map[string]string, error) {
	env := map[string]string{}
	for _, kv := range f.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	if f.slots > 0 {
		env[lookupSetting("slots").Env] = strconv.Itoa(f.slots)
	}
	if f.threads > 0 {
		env[lookupSetting("threads").Env] = strconv.Itoa(f.threads)
	}
	if f.maxQueueDepth >= 0 {
		env[lookupSetting("max-queue-depth").Env] = strconv.Itoa(f.maxQueueDepth)
	}
	if f.containerEnv != "" {
		b, err := os.ReadFile(f.containerEnv)
		if err != nil {
			return nil, fmt.Errorf("container env: %w", err)
		}
		var file map[string]string
		if err := json.Unmarshal(b, &file); err != nil {
			return nil, fmt.Errorf("container env %s: want a JSON object of strings: %w", f.containerEnv, err)
		}
		for k, v := range file {
			env[k] = v
		}
	}
	return env, nil
}

func runEndpointDeploy(cmd *cobra.Command, f deployFlags) error {
	env, err := f.containerEnvironment()
	if err != nil {
		return err
	}
	f.spec.Env = env
	if err := f.spec.Validate(); err != nil {
		return err
	}
	ctx := cmd.Context()
	c, err := f.aws.control(ctx)
	if err != nil {
		return err
	}
	c.Poll = f.poll
	out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	t0 := time.Now()
	res, err := c.Deploy(ctx, f.spec, sagemaker.DeployOptions{
		DryRun: f.dryRun, Wait: f.wait,
		OnStep:     func(s sagemaker.Step) { printStep(out, s, f.dryRun) },
		OnProgress: progressPrinter(errw),
	})
	if err != nil {
		return err
	}
	if f.dryRun {
		switch res.Action {
		case "none":
			fmt.Fprintf(out, "dry run: endpoint %s already runs model and config %s: nothing would change\n", res.Endpoint, res.Model)
		default:
			fmt.Fprintf(out, "dry run: would %s endpoint %s with model and config %s; nothing was changed\n", res.Action, res.Endpoint, res.Model)
		}
		return nil
	}
	fmt.Fprintf(out, "endpoint %s %s (config %s) in %.1f s\n", res.Endpoint, pastTense(res.Action), res.Config, time.Since(t0).Seconds())
	return nil
}

func pastTense(action string) string {
	switch action {
	case "create":
		return "created"
	case "update":
		return "updated"
	}
	return "unchanged"
}

// printStep prints one step: its name and time, or what it would call in a dry run (one
// readable line per call: operation, resource, fields).
func printStep(w io.Writer, s sagemaker.Step, dryRun bool) {
	switch {
	case dryRun && s.Call != nil:
		fmt.Fprintf(w, "would call %s\n", s.Call)
	case dryRun:
		fmt.Fprintf(w, "no call: %s: %s\n", s.Name, s.Note)
	case s.Call == nil:
		fmt.Fprintf(w, "%-26s %8.1f s  %s\n", s.Name, s.Took.Seconds(), s.Note)
	default:
		fmt.Fprintf(w, "%-26s %8.1f s  %s\n", s.Name, s.Took.Seconds(), s.Call.Op)
	}
}

// progressPrinter shows the endpoint's status while a command waits: one line per change, and
// on a terminal a ticking elapsed time.
func progressPrinter(w io.Writer) func(sagemaker.Progress) {
	live := benchIsTerminal(w)
	last := ""
	return func(p sagemaker.Progress) {
		line := fmt.Sprintf("%s: %s, %d/%d instance(s), %s", p.Endpoint, p.Status, p.Current, p.Desired, p.Elapsed.Round(time.Second))
		switch {
		case live:
			fmt.Fprint(w, "\r\x1b[K"+line)
			if p.Status == sagemaker.StatusInService {
				fmt.Fprintln(w)
			}
		case p.Status != last:
			fmt.Fprintln(w, line)
		}
		last = p.Status
	}
}

func newEndpointDescribeCmd() *cobra.Command {
	var a awsFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "describe NAME",
		Short: "Show the endpoint: status, instances, image, container environment, autoscaling",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.control(ctx)
			if err != nil {
				return err
			}
			info, err := c.Describe(ctx, args[0])
			if err != nil {
				return err
			}
			targets := map[string]*sagemaker.Target{}
			for _, v := range info.Variants {
				if targets[v.Name], err = c.ScalableTarget(ctx, info.Name, v.Name); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					*sagemaker.EndpointInfo
					Scaling map[string]*sagemaker.Target `json:"scalable_targets"`
				}{info, targets})
			}
			writeEndpoint(out, info, targets)
			return nil
		},
	}
	a.add(cmd.Flags(), "")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func writeEndpoint(w io.Writer, info *sagemaker.EndpointInfo, targets map[string]*sagemaker.Target) {
	fmt.Fprintf(w, "endpoint  %s\nstatus    %s\n", info.Name, info.Status)
	if info.FailureReason != "" {
		fmt.Fprintf(w, "failure   %s\n", info.FailureReason)
	}
	fmt.Fprintf(w, "config    %s\n", info.Config)
	for _, v := range info.Variants {
		fmt.Fprintf(w, "variant   %s: %d instance(s) of %s (desired %d)\n", v.Name, v.Current, v.InstanceType, v.Desired)
		fmt.Fprintf(w, "  model   %s\n  image   %s\n", v.Model, v.Image)
		if v.ResolvedImage != "" {
			fmt.Fprintf(w, "  digest  %s\n", v.ResolvedImage)
		}
		fmt.Fprintf(w, "  timeouts: startup health check %d s, model download %d s\n", v.StartupTimeoutS, v.DownloadTimeoutS)
		keys := make([]string, 0, len(v.Env))
		for k := range v.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  env     %s=%s\n", k, v.Env[k])
		}
		if t := targets[v.Name]; t != nil {
			fmt.Fprintf(w, "  autoscaling: %d–%d instances", t.MinCapacity, t.MaxCapacity)
			if t.Suspended.Any() {
				fmt.Fprint(w, ", SUSPENDED (a bench run froze it; `kokoro thaw` if none is running)")
			}
			fmt.Fprintln(w)
		} else {
			fmt.Fprintln(w, "  autoscaling: none registered")
		}
	}
}

func newEndpointDeleteCmd() *cobra.Command {
	var a awsFlags
	var variant string
	var dryRun bool
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete the endpoint, its endpoint config and model, and its autoscaling",
		Long: `Delete deregisters the variant's scalable target (its scaling policies go with it) and kokoro's
scale-in alarm, deletes the endpoint, waits until it is gone, then deletes its endpoint config and
model and any older ones kokoro deployed for it. Missing pieces are skipped, so an interrupted
delete can be run again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.control(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			steps, err := c.Delete(ctx, args[0], variant, sagemaker.DeleteOptions{
				DryRun: dryRun, Wait: wait,
				OnStep:     func(s sagemaker.Step) { printStep(out, s, dryRun) },
				OnProgress: progressPrinter(cmd.ErrOrStderr()),
			})
			if err != nil {
				return err
			}
			calls := 0
			for _, s := range steps {
				if s.Call != nil {
					calls++
				}
			}
			switch {
			case calls == 0:
				fmt.Fprintf(out, "nothing to delete: endpoint %s, its endpoint configs, models, autoscaling and scale-in alarm do not exist in %s\n", args[0], c.Region)
			case dryRun:
				fmt.Fprintf(out, "dry run: %d call(s) would delete endpoint %s and what kokoro made for it; nothing was changed\n", calls, args[0])
			default:
				fmt.Fprintf(out, "endpoint %s deleted\n", args[0])
			}
			return nil
		},
	}
	fl := cmd.Flags()
	a.add(fl, "")
	fl.StringVar(&variant, "variant", sagemaker.DefaultVariant, "production variant whose autoscaling to deregister")
	fl.BoolVar(&dryRun, "dry-run", false, "print the calls; change nothing")
	fl.DurationVar(&wait, "wait", 20*time.Minute, "longest wait for the endpoint to disappear")
	return cmd
}

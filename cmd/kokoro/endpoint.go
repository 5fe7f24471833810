package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newEndpointCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "endpoint",
		Short: "Deploy, describe and delete the SageMaker endpoint that serves kokoro",
	}
	cmd.AddCommand(newEndpointDeployCmd(), newEndpointDescribeCmd(), newEndpointDeleteCmd())
	return cmd
}

func newEndpointDeployCmd() *cobra.Command {
	f := workflow.NewDeploy()
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
			f.Spec.Endpoint = args[0]
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	addAWSFlags(fl, &f.AWS, "")
	fl.StringVar(&f.Spec.Image, "image", f.Spec.Image, "container image URI in ECR (by tag or @sha256 digest)")
	fl.StringVar(&f.Spec.Role, "role", f.Spec.Role, "execution role ARN that SageMaker assumes (ECR pull, CloudWatch Logs)")
	fl.StringVar(&f.Spec.InstanceType, "instance-type", f.Spec.InstanceType, "instance type")
	fl.IntVar(&f.Spec.InstanceCount, "instance-count", f.Spec.InstanceCount, "initial instance count")
	fl.StringVar(&f.Spec.Variant, "variant", f.Spec.Variant, "production variant name")
	fl.StringArrayVar(&f.Env, "env", f.Env, "container environment KEY=VALUE (repeatable)")
	fl.StringVar(&f.ContainerEnv, "container-env", f.ContainerEnv, "JSON object of container environment (kokoro plan's container-env.json)")
	fl.IntVar(&f.Slots, "slots", f.Slots, "shortcut for --env SLOTS=N (0: leave unset)")
	fl.IntVar(&f.Threads, "threads", f.Threads, "shortcut for --env THREADS=N (0: leave unset)")
	fl.IntVar(&f.MaxQueueDepth, "max-queue-depth", f.MaxQueueDepth, "shortcut for --env MAX_QUEUE_DEPTH=N (-1: leave unset)")
	fl.IntVar(&f.Spec.StartupTimeoutS, "startup-timeout", f.Spec.StartupTimeoutS, "ContainerStartupHealthCheckTimeoutInSeconds: how long SageMaker waits for /ping (60–3600)")
	fl.IntVar(&f.Spec.DownloadTimeoutS, "download-timeout", f.Spec.DownloadTimeoutS, "ModelDataDownloadTimeoutInSeconds (60–3600)")
	fl.StringVar(&f.Spec.InferenceAMI, "inference-ami", f.Spec.InferenceAMI, "InferenceAmiVersion of the variant, e.g. al2-ami-sagemaker-inference-gpu-3-1 for the GPU image on ml.g5 (default: SageMaker's)")
	fl.DurationVar(&f.Wait, "wait", f.Wait, "longest wait for InService")
	fl.DurationVar(&f.Poll, "poll", f.Poll, "how often the endpoint is read while waiting")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "read what exists and print the calls; change nothing")
	return cmd
}

func newEndpointDescribeCmd() *cobra.Command {
	var f workflow.Describe
	cmd := &cobra.Command{
		Use:   "describe NAME",
		Short: "Show the endpoint: status, instances, image, container environment, autoscaling",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Name = args[0]
			return f.Run(cmd.Context(), cmd.OutOrStdout())
		},
	}
	addAWSFlags(cmd.Flags(), &f.AWS, "")
	cmd.Flags().BoolVar(&f.JSON, "json", f.JSON, "print JSON")
	return cmd
}

func newEndpointDeleteCmd() *cobra.Command {
	f := workflow.NewDelete()
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete the endpoint, its endpoint config and model, and its autoscaling",
		Long: `Delete deregisters the variant's scalable target (its scaling policies go with it) and kokoro's
scale-in alarm, deletes the endpoint, waits until it is gone, then deletes its endpoint config and
model and any older ones kokoro deployed for it. Missing pieces are skipped, so an interrupted
delete can be run again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.Name = args[0]
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	addAWSFlags(fl, &f.AWS, "")
	fl.StringVar(&f.Variant, "variant", f.Variant, "production variant whose autoscaling to deregister")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "print the calls; change nothing")
	fl.DurationVar(&f.Wait, "wait", f.Wait, "longest wait for the endpoint to disappear")
	return cmd
}

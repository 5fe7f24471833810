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
		Long:  workflow.HelpDeploy,
		Args:  cobra.ExactArgs(1),
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
	fl.StringVar(&f.Plan, "plan", f.Plan, "a plan of several copies per instance (plan.json or its directory): deploy the model as an inference component with its copies per instance and managed instance scaling")
	fl.StringVar(&f.Component.Name, "inference-component", f.Component.Name, "with --plan: the inference component's name (default: NAME-kokoro)")
	fl.IntVar(&f.Component.MemoryMB, "copy-memory-mb", f.Component.MemoryMB, "with --plan: memory each copy reserves (MinMemoryRequiredInMb, at least 128; default 2048)")
	fl.Float64Var(&f.Component.Cores, "copy-cores", f.Component.Cores, "with --plan: CPU cores each copy reserves (at least 0.25; 0: none reserved)")
	fl.Float64Var(&f.Component.Accelerators, "copy-accelerators", f.Component.Accelerators, "with --plan: accelerators (GPUs) each copy reserves, whole ones (0: none reserved)")
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
		Long:  workflow.HelpDelete,
		Args:  cobra.ExactArgs(1),
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

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/planner"
)

// planFlags are the flags of `kokoro plan`.
type planFlags struct {
	qmax, ttotal, out string
	scenario          planner.Scenario
}

func newPlanCmd() *cobra.Command {
	var f planFlags
	cmd := &cobra.Command{
		Use:   "plan --qmax FILE (--ttotal FILE | --assume-t-total S) --peak-rps N",
		Short: "Derive an autoscaling policy from bench artifacts (touches no cloud)",
		Long: `Plan turns a qmax artifact (and a ttotal artifact, or an assumed T_total) into
thresholds, cooldowns, MAX_QUEUE_DEPTH and a fleet size from measured throughput (the
arithmetic of docs/planner.md), then searches candidate policies (target tracking on
ConcurrentRequestsPerModel or InvocationsPerInstance, step scaling, floors) for the
cheapest whose share of requests refused in the surge is at most --max-refused, and
writes its Application Auto Scaling / CloudWatch documents, with findings marked
OK / WARN / STOP. Artifacts of the reference tool (tts-bench) are read as well.
Exit status 1 when any finding is STOP (no policy documents are written then).
` + "`kokoro plan replay`" + ` plays the policies against traffic.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlan(cmd, f)
		},
	}
	addPlanFlags(cmd, &f)
	cmd.Flags().StringVar(&f.out, "out", "", "directory for plan.json, report.txt and the policy documents")
	cmd.AddCommand(newPlanReplayCmd())
	return cmd
}

// addPlanFlags declares the inputs and scenario of a plan, shared by plan and plan replay.
func addPlanFlags(cmd *cobra.Command, f *planFlags) {
	fl := cmd.Flags()
	sc := &f.scenario
	fl.StringVar(&f.qmax, "qmax", "", "qmax artifact (kokoro or tts-bench format)")
	fl.StringVar(&f.ttotal, "ttotal", "", "ttotal artifact (kokoro or tts-bench format)")
	fl.Float64Var(&sc.AssumeTTotalS, "assume-t-total", 0, "assumed scale-out time from desired_set, seconds, when there is no ttotal artifact")
	fl.Float64Var(&sc.PolicyLagBoundS, "policy-lag", planner.DefaultPolicyLagBoundS, "policy detection lag added to an assumed T_total, seconds")
	fl.Float64Var(&sc.SLOms, "slo-ms", 0, "p95 TTFAB SLO in ms (default: the qmax artifact's; another value re-derives Q_max from its rungs)")
	fl.Float64Var(&sc.Surge, "surge", planner.DefaultSurge, "load surge to survive within one T (1 ≤ surge < 1.5)")
	fl.Float64Var(&sc.PeakRPS, "peak-rps", 0, "peak load, requests per second")
	fl.Float64Var(&sc.TroughRPS, "trough-rps", 0, "trough load, requests per second")
	fl.Float64Var(&sc.PeakStreams, "peak-streams", 0, "peak load, concurrent requests")
	fl.Float64Var(&sc.TroughStreams, "trough-streams", 0, "trough load, concurrent requests")
	fl.IntVar(&sc.MinFloor, "min-floor", 1, "smallest fleet the policy may scale in to")
	fl.Float64Var(&sc.CeilingS, "ceiling-s", planner.DefaultCeilingS, "invocation time limit, seconds")
	fl.BoolVar(&sc.AllowConfigMismatch, "allow-config-mismatch", false, "plan from artifacts of different configurations (reported as a finding)")
	fl.StringVar(&sc.EndpointName, "endpoint", "", "endpoint name for the policy documents (default: the artifact's)")
	fl.StringVar(&sc.VariantName, "variant", planner.DefaultVariant, "production variant for the policy documents")
	fl.Float64Var(&sc.MaxRefused, "max-refused", planner.DefaultMaxRefused, "largest share of requests a proposed policy may refuse while the surge meets the old fleet (0.001: one in a thousand)")
	fl.IntVar(&sc.MaxInstances, "max-instances", 0, "most instances a proposed policy may need at the peak (0: no limit); past it the plan stops and names the largest surge a policy survives")
	fl.Uint64Var(&sc.Seed, "seed", 1, "seed of the surge simulation")
	fl.IntVar(&sc.SurgeTrials, "surge-trials", planner.DefaultSurgeTrials, "trials of the surge simulation")
	_ = cmd.MarkFlagRequired("qmax")
	cmd.MarkFlagsMutuallyExclusive("ttotal", "assume-t-total")
}

// makePlan reads the artifacts the flags name and makes the plan.
func makePlan(f planFlags) (*planner.Plan, planner.Inputs, error) {
	in := planner.Inputs{QmaxPath: f.qmax, TTotalPath: f.ttotal}
	var err error
	if in.Qmax, err = artifact.ReadQmax(f.qmax); err != nil {
		return nil, in, err
	}
	if f.ttotal != "" {
		if in.TTotal, err = artifact.ReadTTotal(f.ttotal); err != nil {
			return nil, in, err
		}
	} else if f.scenario.AssumeTTotalS <= 0 {
		return nil, in, errors.New("plan: give --ttotal FILE or --assume-t-total SECONDS")
	}
	sc := f.scenario
	sc.Now = time.Now()
	p, err := planner.Make(in, sc)
	if err != nil {
		return nil, in, fmt.Errorf("plan: %w", err)
	}
	return p, in, nil
}

func runPlan(cmd *cobra.Command, f planFlags) error {
	p, _, err := makePlan(f)
	if err != nil {
		return err
	}
	if err := p.WriteReport(cmd.OutOrStdout()); err != nil {
		return err
	}
	if f.out != "" {
		files, err := p.Files()
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		for _, name := range planner.FileNames(files) {
			path := filepath.Join(f.out, name)
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				return fmt.Errorf("plan: %w", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "wrote", path)
		}
	}
	if p.Stops > 0 {
		return &exitError{code: 1, err: fmt.Errorf("plan: %d STOP finding(s); the policy must not be deployed", p.Stops)}
	}
	return nil
}

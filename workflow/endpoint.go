package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/scaling"
)

// Deploy is `kokoro endpoint deploy`: model, endpoint config and endpoint created, or updated
// in place to a new config, with the container environment merged from Env, the shortcuts and
// ContainerEnv (a JSON file), later ones overriding earlier ones.
type Deploy struct {
	AWS            AWS
	Spec           sagemaker.DeploySpec
	Env            []string
	ContainerEnv   string
	Slots, Threads int
	// MaxQueueDepth below 0 leaves the variable unset.
	MaxQueueDepth int
	Wait, Poll    time.Duration
	DryRun        bool
	// Plan, a plan of several copies per instance (plan.json or its directory), deploys the
	// model as an inference component shaped by it: its copies per instance and the bounds of
	// managed instance scaling, with the plan's container environment under the others.
	// Component's name and per-copy resources apply then.
	Plan      string
	Component sagemaker.ComponentSpec
}

// containerEnv merges the environment sources in order: --env, the shortcuts, --container-env.
func (f Deploy) containerEnvironment() (map[string]string, error) {
	env := map[string]string{}
	for _, kv := range f.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	if f.Slots > 0 {
		env[LookupSetting("slots").Env] = strconv.Itoa(f.Slots)
	}
	if f.Threads > 0 {
		env[LookupSetting("threads").Env] = strconv.Itoa(f.Threads)
	}
	if f.MaxQueueDepth >= 0 {
		env[LookupSetting("max-queue-depth").Env] = strconv.Itoa(f.MaxQueueDepth)
	}
	if f.ContainerEnv != "" {
		b, err := os.ReadFile(f.ContainerEnv)
		if err != nil {
			return nil, fmt.Errorf("container env: %w", err)
		}
		var file map[string]string
		if err := json.Unmarshal(b, &file); err != nil {
			return nil, fmt.Errorf("container env %s: want a JSON object of strings: %w", f.ContainerEnv, err)
		}
		for k, v := range file {
			env[k] = v
		}
	}
	return env, nil
}

// NewDeploy returns a Deploy with the command's defaults: one ml.g5.xlarge instance in the
// default variant, SageMaker's 600 s for the health check and the download, MAX_QUEUE_DEPTH
// left unset, a wait of at most 45 minutes for InService.
func NewDeploy() Deploy {
	return Deploy{
		Spec: sagemaker.DeploySpec{InstanceType: "ml.g5.xlarge", InstanceCount: 1, Variant: sagemaker.DefaultVariant,
			StartupTimeoutS: 600, DownloadTimeoutS: 600},
		MaxQueueDepth: -1, Wait: 45 * time.Minute, Poll: sagemaker.DefaultPoll,
	}
}

// Run deploys and waits for InService, printing each step; with DryRun it prints the calls.
func (f Deploy) Run(ctx context.Context, out, errw io.Writer) error {
	env, err := f.containerEnvironment()
	if err != nil {
		return err
	}
	if f.Plan != "" {
		if err := f.fromPlan(env); err != nil {
			return err
		}
	} else if f.Component != (sagemaker.ComponentSpec{}) {
		return errors.New("--inference-component and --copy-* shape an inference component: pass --plan with a plan of several copies per instance")
	}
	f.Spec.Env = env
	if err := f.Spec.Validate(); err != nil {
		return err
	}
	c, err := f.AWS.Control(ctx)
	if err != nil {
		return err
	}
	c.Poll = f.Poll
	t0 := time.Now()
	res, err := c.Deploy(ctx, f.Spec, sagemaker.DeployOptions{
		DryRun: f.DryRun, Wait: f.Wait,
		OnStep:     func(s sagemaker.Step) { printStep(out, s, f.DryRun) },
		OnProgress: progressPrinter(errw),
	})
	if err != nil {
		return err
	}
	if f.DryRun {
		switch res.Action {
		case "none":
			fmt.Fprintf(out, "dry run: endpoint %s already runs model and config %s: nothing would change\n", res.Endpoint, res.Model)
		default:
			fmt.Fprintf(out, "dry run: would %s endpoint %s with model and config %s; nothing was changed\n", res.Action, res.Endpoint, res.Model)
		}
		return nil
	}
	fmt.Fprintf(out, "endpoint %s %s (config %s) in %.1f s\n", res.Endpoint, pastTense(res.Action), res.Config, time.Since(t0).Seconds())
	if res.Component != "" {
		comp := f.Spec.Component
		fmt.Fprintf(out, "inference component %s: %d copies per instance, instances %d–%d managed by SageMaker; `kokoro policy apply --plan %s` scales its copies\n",
			res.Component, comp.CopiesPerInstance, comp.MinInstances, comp.MaxInstances, f.Plan)
	}
	return nil
}

// fromPlan shapes the spec as the plan's inference component; the plan's container
// environment fills the keys env does not set.
func (f *Deploy) fromPlan(env map[string]string) error {
	plan, path, err := readPlan(f.Plan)
	if err != nil {
		return err
	}
	comp, err := planComponent(plan, path)
	if err != nil {
		return err
	}
	if comp == nil {
		return fmt.Errorf("plan %s scales a variant (its ladder ran one copy per instance): deploy without --plan, then `kokoro policy apply --plan %s`", path, f.Plan)
	}
	if t := plan.Source.InstanceType; t != "" && t != f.Spec.InstanceType {
		return fmt.Errorf("plan %s was measured on %s, not %s: pass --instance-type %s", path, t, f.Spec.InstanceType, t)
	}
	spec := f.Component
	spec.CopiesPerInstance = comp.CopiesPerInstance
	spec.MinInstances, spec.MaxInstances = comp.ManagedInstanceScaling.MinInstanceCount, comp.ManagedInstanceScaling.MaxInstanceCount
	f.Spec.Component = &spec
	for k, v := range plan.Documents.ContainerEnv {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
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
	live := isTerminal(w)
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
		if m := v.Managed; m != nil {
			fmt.Fprintf(w, "  managed instance scaling: %s, %d–%d instances\n", m.Status, m.Min, m.Max)
		}
		if t := targets[v.Name]; t != nil {
			fmt.Fprintf(w, "  autoscaling: %d–%d instances", t.MinCapacity, t.MaxCapacity)
			if t.Suspended.Any() {
				fmt.Fprint(w, ", SUSPENDED (a bench run froze it; `kokoro thaw` if none is running)")
			}
			fmt.Fprintln(w)
		} else if v.Managed == nil {
			fmt.Fprintln(w, "  autoscaling: none registered")
		}
	}
	for _, c := range info.Components {
		fmt.Fprintf(w, "inference component %s on %s: %s, %d copies (desired %d) of %s, %d MB", c.Name, c.Variant, c.Status, c.Current, c.Desired, c.Model, c.MemoryMB)
		if c.Cores > 0 {
			fmt.Fprintf(w, ", %g CPU cores", c.Cores)
		}
		if c.Accelerators > 0 {
			fmt.Fprintf(w, ", %g accelerators", c.Accelerators)
		}
		fmt.Fprintln(w, " per copy")
		if t := targets[scaling.ComponentResourcePrefix+c.Name]; t != nil {
			fmt.Fprintf(w, "  autoscaling: %d–%d copies\n", t.MinCapacity, t.MaxCapacity)
		} else {
			fmt.Fprintln(w, "  autoscaling: none registered")
		}
	}
}

// Describe is `kokoro endpoint describe`: the endpoint's status, instances, image, container
// environment and autoscaling, as text or JSON.
type Describe struct {
	AWS  AWS
	Name string
	JSON bool
}

// Run reads the endpoint and its scalable targets and prints them.
func (f Describe) Run(ctx context.Context, out io.Writer) error {
	c, err := f.AWS.Control(ctx)
	if err != nil {
		return err
	}
	info, err := c.Describe(ctx, f.Name)
	if err != nil {
		return err
	}
	targets := map[string]*sagemaker.Target{}
	for _, v := range info.Variants {
		if targets[v.Name], err = c.ScalableTarget(ctx, info.Name, v.Name); err != nil {
			return err
		}
	}
	for _, comp := range info.Components {
		if targets[scaling.ComponentResourcePrefix+comp.Name], err = c.ComponentTarget(ctx, comp.Name); err != nil {
			return err
		}
	}
	if f.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			*sagemaker.EndpointInfo
			Scaling map[string]*sagemaker.Target `json:"scalable_targets"`
		}{info, targets})
	}
	writeEndpoint(out, info, targets)
	return nil
}

// Delete is `kokoro endpoint delete`: the endpoint, its endpoint configs and models, and its
// autoscaling, removed; missing pieces are skipped, so an interrupted delete can run again.
type Delete struct {
	AWS           AWS
	Name, Variant string
	DryRun        bool
	Wait          time.Duration
}

// NewDelete returns a Delete of the default variant that waits at most 20 minutes for the
// endpoint to disappear.
func NewDelete() Delete {
	return Delete{Variant: sagemaker.DefaultVariant, Wait: 20 * time.Minute}
}

// Run deletes, or with DryRun prints the calls.
func (f Delete) Run(ctx context.Context, out, errw io.Writer) error {
	c, err := f.AWS.Control(ctx)
	if err != nil {
		return err
	}
	steps, err := c.Delete(ctx, f.Name, f.Variant, sagemaker.DeleteOptions{
		DryRun: f.DryRun, Wait: f.Wait,
		OnStep:     func(s sagemaker.Step) { printStep(out, s, f.DryRun) },
		OnProgress: progressPrinter(errw),
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
		fmt.Fprintf(out, "nothing to delete: endpoint %s, its endpoint configs, models, autoscaling and scale-in alarm do not exist in %s\n", f.Name, c.Region)
	case f.DryRun:
		fmt.Fprintf(out, "dry run: %d call(s) would delete endpoint %s and what kokoro made for it; nothing was changed\n", calls, f.Name)
	default:
		fmt.Fprintf(out, "endpoint %s deleted\n", f.Name)
	}
	return nil
}

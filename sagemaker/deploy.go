package sagemaker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// DeploySpec is an endpoint as `kokoro endpoint deploy` builds it: one model (the image and its
// environment), one endpoint config with one production variant, one endpoint.
type DeploySpec struct {
	Endpoint      string
	Variant       string // default DefaultVariant
	Image         string // ECR image URI, by tag or by digest
	Role          string // execution role ARN SageMaker assumes to pull the image and write logs
	InstanceType  string // e.g. ml.g5.xlarge
	InstanceCount int    // default 1
	Env           map[string]string
	// StartupTimeoutS is ContainerStartupHealthCheckTimeoutInSeconds: how long SageMaker waits
	// for /ping before it fails the instance. DownloadTimeoutS is
	// ModelDataDownloadTimeoutInSeconds. 0 leaves SageMaker's default.
	StartupTimeoutS  int
	DownloadTimeoutS int
	// InferenceAMI is the variant's InferenceAmiVersion (the host's NVIDIA driver), e.g.
	// al2-ami-sagemaker-inference-gpu-3-1; empty leaves SageMaker's default.
	InferenceAMI string
	// Component, when set, hosts the model as an inference component (component.go) on a
	// variant with managed instance scaling; InstanceCount is then unused.
	Component *ComponentSpec
}

// Limits of the CreateEndpointConfig API (ProductionVariant).
const (
	MaxStartupTimeoutS  = 3600
	MaxDownloadTimeoutS = 3600
	minTimeoutS         = 60
)

var nameRE = regexp.MustCompile(`^[a-zA-Z0-9](-*[a-zA-Z0-9])*$`)

// ValidateName checks an endpoint name against SageMaker's rule (63 characters, letters,
// digits and inner hyphens) before any call is made.
func ValidateName(name string) error {
	if len(name) == 0 || len(name) > 63 || !nameRE.MatchString(name) {
		return fmt.Errorf("endpoint name %q: use 1–63 letters, digits and hyphens, starting and ending with a letter or digit", name)
	}
	return nil
}

func (s DeploySpec) withDefaults() DeploySpec {
	if s.Variant == "" {
		s.Variant = DefaultVariant
	}
	if s.InstanceCount == 0 {
		s.InstanceCount = 1
	}
	return s
}

// Validate reports the first thing wrong with the spec.
func (s DeploySpec) Validate() error {
	s = s.withDefaults()
	if err := ValidateName(s.Endpoint); err != nil {
		return err
	}
	switch {
	case s.Image == "":
		return errors.New("no image: pass --image (an ECR image URI)")
	case !strings.HasPrefix(s.Role, "arn:"):
		return fmt.Errorf("execution role %q is not an ARN: pass --role arn:aws:iam::ACCOUNT:role/NAME", s.Role)
	case !strings.HasPrefix(s.InstanceType, "ml."):
		return fmt.Errorf("instance type %q: SageMaker types start with ml. (ml.g5.xlarge, ml.c7i.2xlarge)", s.InstanceType)
	case s.InstanceCount < 1:
		return fmt.Errorf("instance count %d must be at least 1", s.InstanceCount)
	case s.StartupTimeoutS != 0 && (s.StartupTimeoutS < minTimeoutS || s.StartupTimeoutS > MaxStartupTimeoutS):
		return fmt.Errorf("startup health-check timeout %d s out of range %d–%d", s.StartupTimeoutS, minTimeoutS, MaxStartupTimeoutS)
	case s.DownloadTimeoutS != 0 && (s.DownloadTimeoutS < minTimeoutS || s.DownloadTimeoutS > MaxDownloadTimeoutS):
		return fmt.Errorf("model download timeout %d s out of range %d–%d", s.DownloadTimeoutS, minTimeoutS, MaxDownloadTimeoutS)
	}
	if s.Component != nil {
		if err := s.Component.Validate(); err != nil {
			return err
		}
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "= \t\n") {
			return fmt.Errorf("container environment name %q is not valid", k)
		}
	}
	return nil
}

// ResourceName is the name of the model and the endpoint config a spec deploys: the endpoint's
// name and 8 hex digits of the spec's hash. The same spec always maps to the same name, which
// makes a repeated deploy a no-op, and a changed spec to a new one, which makes it an update.
func (s DeploySpec) ResourceName() string {
	s = s.withDefaults()
	env := make([]string, 0, len(s.Env))
	for k, v := range s.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	parts := []any{s.Image, s.Role, s.InstanceType, s.InstanceCount, s.Variant, s.StartupTimeoutS, s.DownloadTimeoutS, env}
	if s.InferenceAMI != "" {
		parts = append(parts, s.InferenceAMI) // only when set, so earlier deploys keep their names
	}
	if s.Component != nil {
		parts = append(parts, s.Component.withDefaults(s.Endpoint))
	}
	b, _ := json.Marshal(parts)
	sum := sha256.Sum256(b)
	prefix := s.Endpoint
	if len(prefix) > 54 {
		prefix = strings.TrimRight(prefix[:54], "-")
	}
	return prefix + "-" + hex.EncodeToString(sum[:4])
}

// ownedBy reports whether name is a model or config kokoro deployed for endpoint.
func ownedBy(name, endpoint string) bool {
	prefix := endpoint
	if len(prefix) > 54 {
		prefix = strings.TrimRight(prefix[:54], "-")
	}
	rest, ok := strings.CutPrefix(name, prefix+"-")
	if !ok || len(rest) != 8 {
		return false
	}
	_, err := hex.DecodeString(rest)
	return err == nil
}

// Step is one call made (or, in a dry run, planned) and how long it took; waits are steps too.
type Step struct {
	Name string        `json:"name"`
	Call *Call         `json:"call,omitempty"`
	Took time.Duration `json:"took_ns"`
	// Note says why a step did nothing (the resource already existed) or what it waited for.
	Note string `json:"note,omitempty"`
}

// DeployOptions control a deploy.
type DeployOptions struct {
	DryRun     bool          // read only: describe what exists, return the calls that would be made
	Wait       time.Duration // longest wait for InService; 0 means 45 minutes
	OnStep     func(Step)    // each step as it ends
	OnProgress func(Progress)
}

// DeployResult is what a deploy did.
type DeployResult struct {
	Action   string `json:"action"` // "create", "update" or "none"
	Endpoint string `json:"endpoint"`
	Model    string `json:"model"`
	Config   string `json:"endpoint_config"`
	Previous string `json:"previous_config,omitempty"` // the config an update replaced
	// Component is the inference component the deploy made or updated, when it made one.
	Component string `json:"inference_component,omitempty"`
	Steps     []Step `json:"steps"`
	DryRun    bool   `json:"dry_run"`
}

// Deploy creates the endpoint, or updates it in place to a new endpoint config (SageMaker
// brings the new fleet up, shifts traffic and only then retires the old one), or does nothing
// when it already runs this spec. It then waits for InService. After an update the replaced
// config and model, when kokoro made them, are deleted.
func (c *Control) Deploy(ctx context.Context, spec DeploySpec, o DeployOptions) (*DeployResult, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	spec = spec.withDefaults()
	if o.Wait == 0 {
		o.Wait = 45 * time.Minute
	}
	name := spec.ResourceName()
	res := &DeployResult{Endpoint: spec.Endpoint, Model: name, Config: name, DryRun: o.DryRun}
	if spec.Component != nil {
		res.Component = spec.Component.withDefaults(spec.Endpoint).Name
	}
	step := func(s Step) {
		res.Steps = append(res.Steps, s)
		if o.OnStep != nil {
			o.OnStep(s)
		}
	}
	run := func(stepName string, call Call, do func() error) error {
		if o.DryRun {
			step(Step{Name: stepName, Call: &call, Note: "dry run: not called"})
			return nil
		}
		t0 := time.Now()
		if err := do(); err != nil {
			return fmt.Errorf("%s: %w", stepName, c.explain(err))
		}
		step(Step{Name: stepName, Call: &call, Took: time.Since(t0)})
		return nil
	}

	current, err := c.endpointStatus(ctx, spec.Endpoint)
	if err != nil && !errors.Is(err, awsconf.ErrNotFound) {
		return nil, err
	}
	scaled := false
	switch {
	case current == nil:
		res.Action = "create"
	case current.Config == name:
		res.Action = "none"
	default:
		res.Action = "update"
		res.Previous = current.Config
		if scaled, err = c.checkUpdatable(ctx, current, spec); err != nil {
			return nil, err
		}
	}

	if res.Action != "none" {
		if err := c.ensureModel(ctx, spec, name, run, step); err != nil {
			return res, err
		}
		if err := c.ensureConfig(ctx, spec, name, run, step); err != nil {
			return res, err
		}
	}
	switch res.Action {
	case "create":
		in := &sm.CreateEndpointInput{EndpointName: aws.String(spec.Endpoint), EndpointConfigName: aws.String(name)}
		if err := run("create endpoint", Call{Op: "sagemaker:CreateEndpoint", Input: in}, func() error {
			_, err := c.SageMaker.CreateEndpoint(ctx, in)
			return err
		}); err != nil {
			return res, err
		}
	case "update":
		// The new config describes the whole variant, except that under autoscaling the
		// instance count autoscaling chose is kept rather than reset to the initial count.
		in := &sm.UpdateEndpointInput{EndpointName: aws.String(spec.Endpoint), EndpointConfigName: aws.String(name), RetainAllVariantProperties: aws.Bool(scaled)}
		if err := run("update endpoint", Call{Op: "sagemaker:UpdateEndpoint", Input: in}, func() error {
			_, err := c.SageMaker.UpdateEndpoint(ctx, in)
			return err
		}); err != nil {
			return res, err
		}
	default:
		step(Step{Name: "endpoint", Note: fmt.Sprintf("already runs %s (%s): nothing to change", name, current.Status)})
	}
	if !o.DryRun {
		t0 := time.Now()
		info, err := c.WaitInService(ctx, spec.Endpoint, o.Wait, o.OnProgress)
		if err != nil {
			return res, err
		}
		v, _ := info.Variant(spec.Variant)
		step(Step{Name: "wait InService", Took: time.Since(t0), Note: fmt.Sprintf("%d instance(s) of %s", v.Current, spec.InstanceType)})
	}
	if spec.Component != nil {
		previous, err := c.ensureComponent(ctx, spec, name, o.Wait, o.DryRun, run, step)
		if err != nil {
			return res, err
		}
		if previous != "" && previous != name && ownedBy(previous, spec.Endpoint) {
			if err := c.deleteModel(ctx, previous, run); err != nil {
				return res, err
			}
		}
	}
	if o.DryRun {
		return res, nil
	}
	if res.Action == "update" && ownedBy(res.Previous, spec.Endpoint) {
		if err := c.deleteConfigAndModels(ctx, res.Previous, run); err != nil {
			return res, err
		}
	}
	return res, nil
}

type runFunc func(name string, call Call, do func() error) error

func (c *Control) ensureModel(ctx context.Context, spec DeploySpec, name string, run runFunc, step func(Step)) error {
	_, err := c.SageMaker.DescribeModel(ctx, &sm.DescribeModelInput{ModelName: aws.String(name)})
	switch {
	case err == nil:
		step(Step{Name: "create model", Note: name + " exists"})
		return nil
	case !isNotFound(err):
		return fmt.Errorf("describe model %s: %w", name, c.explain(err))
	}
	in := &sm.CreateModelInput{
		ModelName:        aws.String(name),
		ExecutionRoleArn: aws.String(spec.Role),
		PrimaryContainer: &types.ContainerDefinition{Image: aws.String(spec.Image), Environment: spec.Env},
		Tags:             []types.Tag{{Key: aws.String("kokoro:endpoint"), Value: aws.String(spec.Endpoint)}},
	}
	return run("create model", Call{Op: "sagemaker:CreateModel", Input: in}, func() error {
		_, err := c.SageMaker.CreateModel(ctx, in)
		return err
	})
}

func (c *Control) ensureConfig(ctx context.Context, spec DeploySpec, name string, run runFunc, step func(Step)) error {
	_, err := c.SageMaker.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: aws.String(name)})
	switch {
	case err == nil:
		step(Step{Name: "create endpoint config", Note: name + " exists"})
		return nil
	case !isNotFound(err):
		return fmt.Errorf("describe endpoint config %s: %w", name, c.explain(err))
	}
	if spec.Component != nil {
		in := &sm.CreateEndpointConfigInput{
			EndpointConfigName: aws.String(name),
			ExecutionRoleArn:   aws.String(spec.Role),
			ProductionVariants: []types.ProductionVariant{componentVariant(spec)},
			Tags:               []types.Tag{{Key: aws.String("kokoro:endpoint"), Value: aws.String(spec.Endpoint)}},
		}
		return run("create endpoint config", Call{Op: "sagemaker:CreateEndpointConfig", Input: in}, func() error {
			_, err := c.SageMaker.CreateEndpointConfig(ctx, in)
			return err
		})
	}
	pv := types.ProductionVariant{
		VariantName:          aws.String(spec.Variant),
		ModelName:            aws.String(name),
		InstanceType:         types.ProductionVariantInstanceType(spec.InstanceType),
		InitialInstanceCount: aws.Int32(int32(spec.InstanceCount)),
		InitialVariantWeight: aws.Float32(1),
	}
	if spec.StartupTimeoutS > 0 {
		pv.ContainerStartupHealthCheckTimeoutInSeconds = aws.Int32(int32(spec.StartupTimeoutS))
	}
	if spec.DownloadTimeoutS > 0 {
		pv.ModelDataDownloadTimeoutInSeconds = aws.Int32(int32(spec.DownloadTimeoutS))
	}
	if spec.InferenceAMI != "" {
		pv.InferenceAmiVersion = types.ProductionVariantInferenceAmiVersion(spec.InferenceAMI)
	}
	in := &sm.CreateEndpointConfigInput{
		EndpointConfigName: aws.String(name),
		ProductionVariants: []types.ProductionVariant{pv},
		Tags:               []types.Tag{{Key: aws.String("kokoro:endpoint"), Value: aws.String(spec.Endpoint)}},
	}
	return run("create endpoint config", Call{Op: "sagemaker:CreateEndpointConfig", Input: in}, func() error {
		_, err := c.SageMaker.CreateEndpointConfig(ctx, in)
		return err
	})
}

// checkUpdatable refuses the updates SageMaker would refuse, before anything is created: an
// endpoint that is not InService, and a change of instance type under a registered scalable
// target ("Update endpoints that use auto scaling", SageMaker Developer Guide). It reports
// whether autoscaling is registered: then the update keeps the instance count autoscaling
// chose instead of resetting it to the config's initial count.
func (c *Control) checkUpdatable(ctx context.Context, cur *EndpointInfo, spec DeploySpec) (scaled bool, err error) {
	if cur.Status != StatusInService {
		if cur.Status == StatusFailed {
			return false, &awsconf.Error{Kind: awsconf.ErrNotInService, Msg: fmt.Sprintf("endpoint %s is Failed (%s): SageMaker cannot update a failed endpoint; `kokoro endpoint delete %s`, then deploy again", cur.Name, awsconf.OneLine(cur.FailureReason), cur.Name)}
		}
		return false, notInService(cur.Name, cur.Status, cur.FailureReason)
	}
	t, err := c.scalableTarget(ctx, ResourceID(cur.Name, spec.Variant))
	if err != nil || t == nil {
		return false, err
	}
	full, err := c.Describe(ctx, cur.Name)
	if err != nil {
		return true, err
	}
	if v, ok := full.Variant(spec.Variant); ok && v.InstanceType != spec.InstanceType {
		return true, fmt.Errorf("endpoint %s has autoscaling on variant %s and the instance type changes (%s → %s), which SageMaker refuses: deregister it first (`aws application-autoscaling deregister-scalable-target --service-namespace sagemaker --scalable-dimension sagemaker:variant:DesiredInstanceCount --resource-id %s`), deploy, then `kokoro policy apply` again",
			cur.Name, spec.Variant, v.InstanceType, spec.InstanceType, ResourceID(cur.Name, spec.Variant))
	}
	return true, nil
}

// DeleteOptions control a delete.
type DeleteOptions struct {
	DryRun     bool
	Wait       time.Duration // longest wait for the endpoint to disappear; 0 means 20 minutes
	OnStep     func(Step)
	OnProgress func(Progress)
}

// Delete removes the endpoint and everything kokoro made for it: its scalable target (which
// takes its scaling policies along), kokoro's scale-in alarm, the endpoint, its endpoint
// config and model, and any older configs and models of kokoro's naming for it. Missing pieces
// are skipped, so a delete that was interrupted can simply be run again.
func (c *Control) Delete(ctx context.Context, endpoint, variant string, o DeleteOptions) ([]Step, error) {
	if err := ValidateName(endpoint); err != nil {
		return nil, err
	}
	if variant == "" {
		variant = DefaultVariant
	}
	if o.Wait == 0 {
		o.Wait = 20 * time.Minute
	}
	var steps []Step
	step := func(s Step) {
		steps = append(steps, s)
		if o.OnStep != nil {
			o.OnStep(s)
		}
	}
	// A model or config is reached both through the endpoint's config and through the list
	// of kokoro's leftovers: each is deleted (or, in a dry run, listed) once.
	done := map[string]bool{}
	run := func(name string, call Call, do func() error) error {
		key := call.Op + " " + call.Resource()
		if done[key] {
			return nil
		}
		done[key] = true
		if o.DryRun {
			step(Step{Name: name, Call: &call, Note: "dry run: not called"})
			return nil
		}
		t0 := time.Now()
		if err := do(); err != nil {
			return fmt.Errorf("%s: %w", name, c.explain(err))
		}
		step(Step{Name: name, Call: &call, Took: time.Since(t0)})
		return nil
	}

	// Scaling first: Application Auto Scaling would otherwise keep acting on a variant that
	// no longer exists.
	rid := ResourceID(endpoint, variant)
	t, err := c.scalableTarget(ctx, rid)
	if err != nil {
		return steps, err
	}
	if t != nil {
		in := deregisterInput(rid)
		if err := run("deregister scalable target", Call{Op: "application-autoscaling:DeregisterScalableTarget", Input: in}, func() error {
			_, err := c.Scaling.DeregisterScalableTarget(ctx, in)
			return err
		}); err != nil {
			return steps, err
		}
	}
	if err := c.deleteOwnAlarms(ctx, endpoint, variant, run); err != nil {
		return steps, err
	}

	cur, err := c.endpointStatus(ctx, endpoint)
	if err != nil && !errors.Is(err, awsconf.ErrNotFound) {
		return steps, err
	}
	if cur != nil {
		hosts, err := c.hostsComponents(ctx, cur.Config)
		if err != nil {
			return steps, err
		}
		if hosts {
			if err := c.deleteComponents(ctx, endpoint, o.Wait, o.DryRun, run, step); err != nil {
				return steps, err
			}
		}
		in := &sm.DeleteEndpointInput{EndpointName: aws.String(endpoint)}
		if err := run("delete endpoint", Call{Op: "sagemaker:DeleteEndpoint", Input: in}, func() error {
			_, err := c.SageMaker.DeleteEndpoint(ctx, in)
			if isNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			return steps, err
		}
		if !o.DryRun {
			t0 := time.Now()
			if err := c.waitGone(ctx, endpoint, o.Wait, o.OnProgress); err != nil {
				return steps, err
			}
			step(Step{Name: "wait deleted", Took: time.Since(t0)})
		}
		if err := c.deleteConfigAndModels(ctx, cur.Config, run); err != nil {
			return steps, err
		}
	} else {
		step(Step{Name: "delete endpoint", Note: "endpoint " + endpoint + " does not exist"})
	}
	// Leftovers of kokoro's naming: configs and models of earlier deploys, or of a delete
	// that was interrupted after the endpoint went.
	configs, models, err := c.owned(ctx, endpoint)
	if err != nil {
		return steps, err
	}
	for _, name := range configs {
		if cur != nil && name == cur.Config {
			continue
		}
		if err := c.deleteConfig(ctx, name, run); err != nil {
			return steps, err
		}
	}
	for _, name := range models {
		if err := c.deleteModel(ctx, name, run); err != nil {
			return steps, err
		}
	}
	return steps, nil
}

func (c *Control) waitGone(ctx context.Context, endpoint string, timeout time.Duration, onProgress func(Progress)) error {
	start := time.Now()
	var info *EndpointInfo
	err := ctxtime.PollUntil(ctx, c.poll(), start.Add(timeout), func() (bool, error) {
		var err error
		info, err = c.endpointStatus(ctx, endpoint)
		if errors.Is(err, awsconf.ErrNotFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if onProgress != nil {
			onProgress(Progress{Endpoint: endpoint, Status: info.Status, Elapsed: time.Since(start)})
		}
		return false, nil
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return fmt.Errorf("endpoint %s still %s after %v: run `kokoro endpoint delete %s` again later", endpoint, info.Status, timeout.Round(time.Second), endpoint)
	}
	return err
}

// deleteConfigAndModels deletes an endpoint config and the models its variants name.
func (c *Control) deleteConfigAndModels(ctx context.Context, config string, run runFunc) error {
	out, err := c.SageMaker.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: aws.String(config)})
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("describe endpoint config %s: %w", config, c.explain(err))
	}
	if err := c.deleteConfig(ctx, config, run); err != nil {
		return err
	}
	for _, pv := range out.ProductionVariants {
		if m := aws.ToString(pv.ModelName); m != "" {
			if err := c.deleteModel(ctx, m, run); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *Control) deleteConfig(ctx context.Context, name string, run runFunc) error {
	in := &sm.DeleteEndpointConfigInput{EndpointConfigName: aws.String(name)}
	return run("delete endpoint config", Call{Op: "sagemaker:DeleteEndpointConfig", Input: in}, func() error {
		_, err := c.SageMaker.DeleteEndpointConfig(ctx, in)
		if isNotFound(err) {
			return nil
		}
		return err
	})
}

func (c *Control) deleteModel(ctx context.Context, name string, run runFunc) error {
	in := &sm.DeleteModelInput{ModelName: aws.String(name)}
	return run("delete model", Call{Op: "sagemaker:DeleteModel", Input: in}, func() error {
		_, err := c.SageMaker.DeleteModel(ctx, in)
		if isNotFound(err) {
			return nil
		}
		return err
	})
}

// owned lists the endpoint configs and models of kokoro's naming for endpoint.
func (c *Control) owned(ctx context.Context, endpoint string) (configs, models []string, err error) {
	prefix := endpoint
	if len(prefix) > 54 {
		prefix = strings.TrimRight(prefix[:54], "-")
	}
	var token *string
	for {
		out, err := c.SageMaker.ListEndpointConfigs(ctx, &sm.ListEndpointConfigsInput{NameContains: aws.String(prefix), NextToken: token})
		if err != nil {
			return nil, nil, fmt.Errorf("list endpoint configs: %w", c.explain(err))
		}
		for _, s := range out.EndpointConfigs {
			if n := aws.ToString(s.EndpointConfigName); ownedBy(n, endpoint) {
				configs = append(configs, n)
			}
		}
		if token = out.NextToken; aws.ToString(token) == "" {
			break
		}
	}
	token = nil
	for {
		out, err := c.SageMaker.ListModels(ctx, &sm.ListModelsInput{NameContains: aws.String(prefix), NextToken: token})
		if err != nil {
			return nil, nil, fmt.Errorf("list models: %w", c.explain(err))
		}
		for _, s := range out.Models {
			if n := aws.ToString(s.ModelName); ownedBy(n, endpoint) {
				models = append(models, n)
			}
		}
		if token = out.NextToken; aws.ToString(token) == "" {
			break
		}
	}
	return configs, models, nil
}

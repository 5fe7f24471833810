package sagemaker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/scaling"
)

// ComponentSpec makes a deploy host the model as an inference component: the endpoint's
// variant names no model and scales its instances itself (managed instance scaling between
// MinInstances and MaxInstances); the model runs as copies of one component, CopiesPerInstance
// of them on each instance, each reserving the compute resources below. Application Auto
// Scaling then scales the copies (`kokoro policy apply` with a plan of several copies).
type ComponentSpec struct {
	// Name is the inference component's name; empty means ComponentName(endpoint).
	Name              string `json:"name,omitempty"`
	CopiesPerInstance int    `json:"copies_per_instance"`
	MinInstances      int    `json:"min_instances"`
	MaxInstances      int    `json:"max_instances"`
	// MemoryMB is each copy's MinMemoryRequiredInMb; 0 means DefaultCopyMemoryMB.
	MemoryMB int `json:"memory_mb,omitempty"`
	// Cores and Accelerators are each copy's NumberOfCpuCoresRequired and
	// NumberOfAcceleratorDevicesRequired; 0 leaves them to SageMaker.
	Cores        float64 `json:"cpu_cores,omitempty"`
	Accelerators float64 `json:"accelerators,omitempty"`
}

// DefaultCopyMemoryMB is the memory a copy reserves when the spec names none: the model, its
// runtime and the server's buffers with room to spare.
const DefaultCopyMemoryMB = 2048

// Limits of CreateInferenceComponent's ComputeResourceRequirements (API reference).
const (
	minCopyMemoryMB     = 128
	minCopyCores        = 0.25
	minCopyAccelerators = 1
)

// ComponentName is the inference component kokoro deploys on endpoint.
func ComponentName(endpoint string) string {
	prefix := endpoint
	if len(prefix) > 56 {
		prefix = strings.TrimRight(prefix[:56], "-")
	}
	return prefix + "-kokoro"
}

func (c ComponentSpec) withDefaults(endpoint string) ComponentSpec {
	if c.Name == "" {
		c.Name = ComponentName(endpoint)
	}
	if c.MemoryMB == 0 {
		c.MemoryMB = DefaultCopyMemoryMB
	}
	return c
}

// initialInstances is the variant's InitialInstanceCount: the managed minimum, at least one.
func (c ComponentSpec) initialInstances() int { return max(1, c.MinInstances) }

// InitialCopies is the copy count the component starts with: every initial instance full.
func (c ComponentSpec) InitialCopies() int { return c.CopiesPerInstance * c.initialInstances() }

// Validate reports the first thing wrong with the component.
func (c ComponentSpec) Validate() error {
	switch {
	case c.Name != "" && ValidateName(c.Name) != nil:
		return fmt.Errorf("inference component name %q: use 1–63 letters, digits and hyphens, starting and ending with a letter or digit", c.Name)
	case c.CopiesPerInstance < 1:
		return fmt.Errorf("copies per instance %d must be at least 1", c.CopiesPerInstance)
	case c.MaxInstances < 1:
		return fmt.Errorf("managed instance scaling's maximum %d must be at least 1", c.MaxInstances)
	case c.MinInstances < 0 || c.MinInstances > c.MaxInstances:
		return fmt.Errorf("managed instance scaling's minimum %d must be 0–%d (the maximum)", c.MinInstances, c.MaxInstances)
	case c.MemoryMB != 0 && c.MemoryMB < minCopyMemoryMB:
		return fmt.Errorf("memory per copy %d MB is below SageMaker's minimum of %d MB", c.MemoryMB, minCopyMemoryMB)
	case c.Cores != 0 && c.Cores < minCopyCores:
		return fmt.Errorf("CPU cores per copy %g is below SageMaker's minimum of %g", c.Cores, minCopyCores)
	case c.Accelerators != 0 && c.Accelerators < minCopyAccelerators:
		return fmt.Errorf("accelerators per copy %g: SageMaker reserves whole accelerators (at least %d) or none", c.Accelerators, minCopyAccelerators)
	}
	return nil
}

// ComponentInfo is what kokoro reads about an inference component.
type ComponentInfo struct {
	Name          string            `json:"name"`
	Status        string            `json:"status"`
	FailureReason string            `json:"failure_reason,omitempty"`
	Endpoint      string            `json:"endpoint"`
	Variant       string            `json:"variant"`
	Model         string            `json:"model,omitempty"`
	Image         string            `json:"image,omitempty"`
	Env           map[string]string `json:"environment,omitempty"`
	Desired       int               `json:"desired_copy_count"`
	Current       int               `json:"current_copy_count"`
	MemoryMB      int               `json:"memory_mb,omitempty"`
	Cores         float64           `json:"cpu_cores,omitempty"`
	Accelerators  float64           `json:"accelerators,omitempty"`
}

// ManagedScaling is a variant's managed instance scaling as deployed.
type ManagedScaling struct {
	Status string `json:"status"`
	Min    int    `json:"min_instance_count"`
	Max    int    `json:"max_instance_count"`
}

// DescribeComponent reads an inference component and its model's container. A missing one
// is an *Error of kind ErrNotFound.
func (c *Control) DescribeComponent(ctx context.Context, name string) (*ComponentInfo, error) {
	out, err := c.SageMaker.DescribeInferenceComponent(ctx, &sm.DescribeInferenceComponentInput{InferenceComponentName: aws.String(name)})
	if err != nil {
		if isNotFound(err) {
			return nil, &awsconf.Error{Kind: awsconf.ErrNotFound, Err: err,
				Msg: fmt.Sprintf("inference component %s not found in region %s", name, c.Region)}
		}
		return nil, fmt.Errorf("describe inference component %s: %w", name, c.explain(err))
	}
	info := &ComponentInfo{Name: name, Status: string(out.InferenceComponentStatus), FailureReason: aws.ToString(out.FailureReason),
		Endpoint: aws.ToString(out.EndpointName), Variant: aws.ToString(out.VariantName)}
	if rc := out.RuntimeConfig; rc != nil {
		info.Desired, info.Current = int(aws.ToInt32(rc.DesiredCopyCount)), int(aws.ToInt32(rc.CurrentCopyCount))
	}
	if s := out.Specification; s != nil {
		info.Model = aws.ToString(s.ModelName)
		if r := s.ComputeResourceRequirements; r != nil {
			info.MemoryMB = int(aws.ToInt32(r.MinMemoryRequiredInMb))
			info.Cores = float64(aws.ToFloat32(r.NumberOfCpuCoresRequired))
			info.Accelerators = float64(aws.ToFloat32(r.NumberOfAcceleratorDevicesRequired))
		}
	}
	if info.Model != "" {
		m, err := c.SageMaker.DescribeModel(ctx, &sm.DescribeModelInput{ModelName: aws.String(info.Model)})
		switch {
		case isNotFound(err):
		case err != nil:
			return nil, fmt.Errorf("describe model %s: %w", info.Model, c.explain(err))
		case m.PrimaryContainer != nil:
			info.Image, info.Env = aws.ToString(m.PrimaryContainer.Image), m.PrimaryContainer.Environment
		}
	}
	return info, nil
}

// componentsOn lists the names of the inference components on endpoint.
func (c *Control) componentsOn(ctx context.Context, endpoint string) ([]string, error) {
	var names []string
	var token *string
	for {
		out, err := c.SageMaker.ListInferenceComponents(ctx, &sm.ListInferenceComponentsInput{EndpointNameEquals: aws.String(endpoint), NextToken: token})
		if err != nil {
			return nil, fmt.Errorf("list inference components of %s: %w", endpoint, c.explain(err))
		}
		for _, s := range out.InferenceComponents {
			names = append(names, aws.ToString(s.InferenceComponentName))
		}
		if token = out.NextToken; aws.ToString(token) == "" {
			return names, nil
		}
	}
}

// hostsComponents reports whether the endpoint config is one for inference components: a
// variant that names no model.
func (c *Control) hostsComponents(ctx context.Context, config string) (bool, error) {
	out, err := c.SageMaker.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: aws.String(config)})
	if isNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("describe endpoint config %s: %w", config, c.explain(err))
	}
	for _, pv := range out.ProductionVariants {
		if aws.ToString(pv.ModelName) == "" {
			return true, nil
		}
	}
	return false, nil
}

// componentVariant is the production variant of an endpoint config for inference components.
func componentVariant(spec DeploySpec) types.ProductionVariant {
	comp := spec.Component
	pv := types.ProductionVariant{
		VariantName:          aws.String(spec.Variant),
		InstanceType:         types.ProductionVariantInstanceType(spec.InstanceType),
		InitialInstanceCount: aws.Int32(int32(comp.initialInstances())),
		ManagedInstanceScaling: &types.ProductionVariantManagedInstanceScaling{
			Status:           types.ManagedInstanceScalingStatusEnabled,
			MinInstanceCount: aws.Int32(int32(comp.MinInstances)),
			MaxInstanceCount: aws.Int32(int32(comp.MaxInstances)),
		},
		RoutingConfig: &types.ProductionVariantRoutingConfig{RoutingStrategy: types.RoutingStrategyLeastOutstandingRequests},
	}
	if spec.InferenceAMI != "" {
		pv.InferenceAmiVersion = types.ProductionVariantInferenceAmiVersion(spec.InferenceAMI)
	}
	return pv
}

// componentSpecification is the component's Specification: the model, each copy's resources
// and the container's start-up limits (which a variant without a model does not carry).
func componentSpecification(spec DeploySpec, model string) *types.InferenceComponentSpecification {
	comp := spec.Component.withDefaults(spec.Endpoint)
	req := &types.InferenceComponentComputeResourceRequirements{MinMemoryRequiredInMb: aws.Int32(int32(comp.MemoryMB))}
	if comp.Cores > 0 {
		req.NumberOfCpuCoresRequired = aws.Float32(float32(comp.Cores))
	}
	if comp.Accelerators > 0 {
		req.NumberOfAcceleratorDevicesRequired = aws.Float32(float32(comp.Accelerators))
	}
	s := &types.InferenceComponentSpecification{ModelName: aws.String(model), ComputeResourceRequirements: req}
	if spec.StartupTimeoutS > 0 || spec.DownloadTimeoutS > 0 {
		s.StartupParameters = &types.InferenceComponentStartupParameters{}
		if spec.StartupTimeoutS > 0 {
			s.StartupParameters.ContainerStartupHealthCheckTimeoutInSeconds = aws.Int32(int32(spec.StartupTimeoutS))
		}
		if spec.DownloadTimeoutS > 0 {
			s.StartupParameters.ModelDataDownloadTimeoutInSeconds = aws.Int32(int32(spec.DownloadTimeoutS))
		}
	}
	return s
}

// ensureComponent creates the spec's inference component on the endpoint, or points it at the
// model of this deploy, and waits until it serves. An update leaves the copy count alone:
// Application Auto Scaling owns it once a policy is applied. It returns the model the
// component ran before an update ("" otherwise).
func (c *Control) ensureComponent(ctx context.Context, spec DeploySpec, model string, wait time.Duration, dryRun bool, run runFunc, step func(Step)) (string, error) {
	comp := spec.Component.withDefaults(spec.Endpoint)
	cur, err := c.DescribeComponent(ctx, comp.Name)
	if err != nil && !errors.Is(err, awsconf.ErrNotFound) {
		return "", err
	}
	previous := ""
	switch {
	case cur == nil:
		in := &sm.CreateInferenceComponentInput{
			InferenceComponentName: aws.String(comp.Name),
			EndpointName:           aws.String(spec.Endpoint),
			VariantName:            aws.String(spec.Variant),
			Specification:          componentSpecification(spec, model),
			RuntimeConfig:          &types.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(int32(comp.InitialCopies()))},
			Tags:                   []types.Tag{{Key: aws.String("kokoro:endpoint"), Value: aws.String(spec.Endpoint)}},
		}
		if err := run("create inference component", Call{Op: "sagemaker:CreateInferenceComponent", Input: in}, func() error {
			_, err := c.SageMaker.CreateInferenceComponent(ctx, in)
			return err
		}); err != nil {
			return "", err
		}
	case cur.Endpoint != spec.Endpoint:
		return "", fmt.Errorf("inference component %s already runs on endpoint %s: pass another --inference-component name", comp.Name, cur.Endpoint)
	case cur.Model == model && cur.MemoryMB == comp.MemoryMB && cur.Cores == comp.Cores && cur.Accelerators == comp.Accelerators:
		step(Step{Name: "inference component", Note: fmt.Sprintf("%s already runs %s (%s, %d copies): nothing to change", comp.Name, model, cur.Status, cur.Current)})
		return "", nil
	default:
		previous = cur.Model
		in := &sm.UpdateInferenceComponentInput{InferenceComponentName: aws.String(comp.Name), Specification: componentSpecification(spec, model)}
		if err := run("update inference component", Call{Op: "sagemaker:UpdateInferenceComponent", Input: in}, func() error {
			_, err := c.SageMaker.UpdateInferenceComponent(ctx, in)
			return err
		}); err != nil {
			return "", err
		}
	}
	if dryRun {
		return previous, nil
	}
	t0 := time.Now()
	info, err := c.waitComponent(ctx, comp.Name, wait)
	if err != nil {
		return previous, err
	}
	step(Step{Name: "wait inference component InService", Took: time.Since(t0), Note: fmt.Sprintf("%d of %d copies", info.Current, info.Desired)})
	return previous, nil
}

// waitComponent polls the inference component until it is InService; Failed, or not
// InService by the deadline, is an error.
func (c *Control) waitComponent(ctx context.Context, name string, timeout time.Duration) (*ComponentInfo, error) {
	var info *ComponentInfo
	err := ctxtime.PollUntil(ctx, c.poll(), time.Now().Add(timeout), func() (bool, error) {
		var err error
		if info, err = c.DescribeComponent(ctx, name); err != nil {
			return false, err
		}
		switch info.Status {
		case StatusInService:
			return true, nil
		case StatusFailed:
			return false, fmt.Errorf("inference component %s failed (%s): fix the cause, then deploy again", name, awsconf.OneLine(info.FailureReason))
		}
		return false, nil
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return info, fmt.Errorf("inference component %s still %s after %v: watch it with `kokoro endpoint describe %s`", name, info.Status, timeout.Round(time.Second), info.Endpoint)
	}
	return info, err
}

// deleteComponents removes the inference components on endpoint, each with its scalable
// target (which takes its policies and their alarms along), and waits until they are gone:
// SageMaker deletes an endpoint only once nothing runs on it.
func (c *Control) deleteComponents(ctx context.Context, endpoint string, wait time.Duration, dryRun bool, run runFunc, step func(Step)) error {
	names, err := c.componentsOn(ctx, endpoint)
	if err != nil {
		return err
	}
	for _, name := range names {
		rid := scaling.ComponentResourcePrefix + name
		t, err := c.scalableTarget(ctx, rid)
		if err != nil {
			return err
		}
		if t != nil {
			in := deregisterInput(rid)
			if err := run("deregister scalable target "+rid, Call{Op: "application-autoscaling:DeregisterScalableTarget", Input: in}, func() error {
				_, err := c.Scaling.DeregisterScalableTarget(ctx, in)
				return err
			}); err != nil {
				return err
			}
		}
		in := &sm.DeleteInferenceComponentInput{InferenceComponentName: aws.String(name)}
		if err := run("delete inference component "+name, Call{Op: "sagemaker:DeleteInferenceComponent", Input: in}, func() error {
			_, err := c.SageMaker.DeleteInferenceComponent(ctx, in)
			if isNotFound(err) {
				return nil
			}
			return err
		}); err != nil {
			return err
		}
	}
	if dryRun || len(names) == 0 {
		return nil
	}
	t0 := time.Now()
	left := names
	err = ctxtime.PollUntil(ctx, c.poll(), t0.Add(wait), func() (bool, error) {
		var err error
		left, err = c.componentsOn(ctx, endpoint)
		return len(left) == 0, err
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return fmt.Errorf("inference components %s of %s still there after %v: run `kokoro endpoint delete %s` again later", strings.Join(left, ", "), endpoint, wait.Round(time.Second), endpoint)
	}
	if err != nil {
		return err
	}
	step(Step{Name: "wait inference components deleted", Took: time.Since(t0)})
	return nil
}

// ManagedScalingOf reads the managed instance scaling of the endpoint's variant; nil when the
// variant has none.
func (c *Control) ManagedScalingOf(ctx context.Context, endpoint, variant string) (*ManagedScaling, error) {
	out, err := c.SageMaker.DescribeEndpoint(ctx, &sm.DescribeEndpointInput{EndpointName: aws.String(endpoint)})
	if err != nil {
		return nil, fmt.Errorf("describe endpoint %s: %w", endpoint, c.explain(err))
	}
	for _, v := range out.ProductionVariants {
		if aws.ToString(v.VariantName) != variant || v.ManagedInstanceScaling == nil {
			continue
		}
		m := v.ManagedInstanceScaling
		return &ManagedScaling{Status: string(m.Status), Min: int(aws.ToInt32(m.MinInstanceCount)), Max: int(aws.ToInt32(m.MaxInstanceCount))}, nil
	}
	return nil, nil
}

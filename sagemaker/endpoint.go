package sagemaker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/smithy-go"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// DefaultVariant is the production variant name kokoro deploys and measures.
const DefaultVariant = "AllTraffic"

// Endpoint statuses (DescribeEndpoint's EndpointStatus).
const (
	StatusInService = "InService"
	StatusCreating  = "Creating"
	StatusUpdating  = "Updating"
	StatusFailed    = "Failed"
	StatusDeleting  = "Deleting"
)

// EndpointInfo is what kokoro reads about an endpoint: its status, its configuration and, per
// variant, the instances and the container they run.
type EndpointInfo struct {
	Name          string        `json:"name"`
	ARN           string        `json:"arn,omitempty"`
	Status        string        `json:"status"`
	FailureReason string        `json:"failure_reason,omitempty"`
	Config        string        `json:"endpoint_config"`
	Created       time.Time     `json:"created,omitzero"`
	Modified      time.Time     `json:"last_modified,omitzero"`
	Variants      []VariantInfo `json:"variants"`
	// Components are the inference components on the endpoint (filled by Describe when a
	// variant names no model).
	Components []ComponentInfo `json:"inference_components,omitempty"`
}

// VariantInfo is one production variant.
type VariantInfo struct {
	Name    string `json:"name"`
	Current int    `json:"current_instance_count"`
	Desired int    `json:"desired_instance_count"`
	// From the endpoint configuration and the model (filled by Describe, not by the cheap
	// status read).
	InstanceType     string            `json:"instance_type,omitempty"`
	Model            string            `json:"model,omitempty"`
	Image            string            `json:"image,omitempty"`
	ResolvedImage    string            `json:"resolved_image,omitempty"` // image@sha256:… as deployed
	Env              map[string]string `json:"environment,omitempty"`
	StartupTimeoutS  int               `json:"container_startup_health_check_timeout_s,omitempty"`
	DownloadTimeoutS int               `json:"model_data_download_timeout_s,omitempty"`
	// Managed is the variant's managed instance scaling, when it has one (a variant that
	// hosts inference components).
	Managed *ManagedScaling `json:"managed_instance_scaling,omitempty"`
	// Component names the inference component whose model the variant's Model, Image and Env
	// describe, for a variant that names no model itself and hosts one component.
	Component string `json:"inference_component,omitempty"`
}

// Variant returns the named variant.
func (e *EndpointInfo) Variant(name string) (VariantInfo, bool) {
	for _, v := range e.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return VariantInfo{}, false
}

// isNotFound reports SageMaker's "Could not find …" (a ValidationException).
func isNotFound(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && strings.HasPrefix(api.ErrorMessage(), "Could not find")
}

func (c *Control) explain(err error) error {
	return awsconf.ExplainAt(err, c.Region, c.Where, c.Deadlines)
}

// endpointStatus reads the endpoint's status and instance counts (one DescribeEndpoint). A
// missing endpoint is an *Error of kind ErrNotFound.
func (c *Control) endpointStatus(ctx context.Context, name string) (*EndpointInfo, error) {
	out, err := c.SageMaker.DescribeEndpoint(ctx, &sm.DescribeEndpointInput{EndpointName: aws.String(name)})
	if err != nil {
		if isNotFound(err) {
			return nil, &awsconf.Error{Kind: awsconf.ErrNotFound, Err: err,
				Msg: fmt.Sprintf("endpoint %s not found in region %s: check the name and --region (`aws sagemaker list-endpoints`)", name, c.Region)}
		}
		return nil, fmt.Errorf("describe endpoint %s: %w", name, c.explain(err))
	}
	info := &EndpointInfo{
		Name:          name,
		ARN:           aws.ToString(out.EndpointArn),
		Status:        string(out.EndpointStatus),
		FailureReason: aws.ToString(out.FailureReason),
		Config:        aws.ToString(out.EndpointConfigName),
		Created:       aws.ToTime(out.CreationTime),
		Modified:      aws.ToTime(out.LastModifiedTime),
	}
	for _, v := range out.ProductionVariants {
		vi := VariantInfo{
			Name:    aws.ToString(v.VariantName),
			Current: int(aws.ToInt32(v.CurrentInstanceCount)),
			Desired: int(aws.ToInt32(v.DesiredInstanceCount)),
		}
		if m := v.ManagedInstanceScaling; m != nil {
			vi.Managed = &ManagedScaling{Status: string(m.Status), Min: int(aws.ToInt32(m.MinInstanceCount)), Max: int(aws.ToInt32(m.MaxInstanceCount))}
		}
		for _, d := range v.DeployedImages {
			if r := aws.ToString(d.ResolvedImage); r != "" {
				vi.ResolvedImage = r
			}
		}
		info.Variants = append(info.Variants, vi)
	}
	return info, nil
}

// Describe reads the endpoint with its configuration and models: instance type, image,
// container environment and timeouts per variant.
func (c *Control) Describe(ctx context.Context, name string) (*EndpointInfo, error) {
	info, err := c.endpointStatus(ctx, name)
	if err != nil {
		return nil, err
	}
	cfg, err := c.SageMaker.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: aws.String(info.Config)})
	if err != nil {
		return nil, fmt.Errorf("describe endpoint config %s: %w", info.Config, c.explain(err))
	}
	hostsComponents := false
	for _, pv := range cfg.ProductionVariants {
		vname := aws.ToString(pv.VariantName)
		i := -1
		for k := range info.Variants {
			if info.Variants[k].Name == vname {
				i = k
			}
		}
		if i < 0 {
			info.Variants = append(info.Variants, VariantInfo{Name: vname})
			i = len(info.Variants) - 1
		}
		v := &info.Variants[i]
		v.InstanceType = string(pv.InstanceType)
		v.Model = aws.ToString(pv.ModelName)
		v.StartupTimeoutS = int(aws.ToInt32(pv.ContainerStartupHealthCheckTimeoutInSeconds))
		v.DownloadTimeoutS = int(aws.ToInt32(pv.ModelDataDownloadTimeoutInSeconds))
		if v.Model == "" {
			hostsComponents = true
			continue
		}
		m, err := c.SageMaker.DescribeModel(ctx, &sm.DescribeModelInput{ModelName: aws.String(v.Model)})
		if err != nil {
			if isNotFound(err) {
				continue // the model was deleted under a live endpoint; the endpoint still serves
			}
			return nil, fmt.Errorf("describe model %s: %w", v.Model, c.explain(err))
		}
		if pc := m.PrimaryContainer; pc != nil {
			v.Image = aws.ToString(pc.Image)
			v.Env = pc.Environment
		} else if len(m.Containers) > 0 {
			v.Image = aws.ToString(m.Containers[0].Image)
			v.Env = m.Containers[0].Environment
		}
	}
	if hostsComponents {
		if err := c.describeComponents(ctx, info); err != nil {
			return nil, err
		}
	}
	return info, nil
}

// describeComponents reads the inference components on the endpoint; a variant that names no
// model and hosts exactly one takes that one's model, image and environment.
func (c *Control) describeComponents(ctx context.Context, info *EndpointInfo) error {
	names, err := c.componentsOn(ctx, info.Name)
	if err != nil {
		return err
	}
	perVariant := map[string][]ComponentInfo{}
	for _, n := range names {
		ci, err := c.DescribeComponent(ctx, n)
		if errors.Is(err, awsconf.ErrNotFound) {
			continue // deleted between the list and the read
		}
		if err != nil {
			return err
		}
		info.Components = append(info.Components, *ci)
		perVariant[ci.Variant] = append(perVariant[ci.Variant], *ci)
	}
	for i := range info.Variants {
		v := &info.Variants[i]
		if cs := perVariant[v.Name]; v.Model == "" && len(cs) == 1 {
			v.Component, v.Model, v.Image, v.Env = cs[0].Name, cs[0].Model, cs[0].Image, cs[0].Env
		}
	}
	return nil
}

// Capacity is the variant's current instance count: the instances serving now.
func (c *Control) Capacity(ctx context.Context, endpoint, variant string) (int, error) {
	info, err := c.endpointStatus(ctx, endpoint)
	if err != nil {
		return 0, err
	}
	v, ok := info.Variant(variant)
	if !ok {
		return 0, noVariant(info, variant)
	}
	return v.Current, nil
}

// RequireInService fails with an *Error of kind ErrNotInService unless the endpoint serves.
func (c *Control) RequireInService(ctx context.Context, endpoint, variant string) (*EndpointInfo, error) {
	info, err := c.endpointStatus(ctx, endpoint)
	if err != nil {
		return nil, err
	}
	if info.Status != StatusInService {
		return info, notInService(endpoint, info.Status, info.FailureReason)
	}
	if _, ok := info.Variant(variant); !ok {
		return info, noVariant(info, variant)
	}
	return info, nil
}

func noVariant(info *EndpointInfo, variant string) error {
	names := make([]string, len(info.Variants))
	for i, v := range info.Variants {
		names[i] = v.Name
	}
	sort.Strings(names)
	return &awsconf.Error{Kind: awsconf.ErrNotFound, Msg: fmt.Sprintf("endpoint %s has no variant %q; it has: %s (pass --variant)", info.Name, variant, strings.Join(names, ", "))}
}

// Progress is one observation while waiting for an endpoint.
type Progress struct {
	Endpoint string
	Status   string
	Current  int // instances of the watched variant, when known
	Desired  int
	Elapsed  time.Duration
}

// WaitInService polls the endpoint until it is InService, calling onProgress after every read.
// A Failed endpoint, or one still not InService when timeout passes, is an error.
func (c *Control) WaitInService(ctx context.Context, endpoint string, timeout time.Duration, onProgress func(Progress)) (*EndpointInfo, error) {
	start := time.Now()
	var deadline time.Time
	if timeout > 0 {
		deadline = start.Add(timeout)
	}
	var info *EndpointInfo
	err := ctxtime.PollUntil(ctx, c.poll(), deadline, func() (bool, error) {
		var err error
		if info, err = c.endpointStatus(ctx, endpoint); err != nil {
			return false, err
		}
		p := Progress{Endpoint: endpoint, Status: info.Status, Elapsed: time.Since(start)}
		if len(info.Variants) > 0 {
			p.Current, p.Desired = info.Variants[0].Current, info.Variants[0].Desired
		}
		if onProgress != nil {
			onProgress(p)
		}
		switch info.Status {
		case StatusInService:
			return true, nil
		case StatusFailed, StatusDeleting, "OutOfService":
			return false, notInService(endpoint, info.Status, info.FailureReason)
		}
		return false, nil
	})
	if errors.Is(err, ctxtime.ErrDeadline) {
		return info, &awsconf.Error{Kind: awsconf.ErrNotInService,
			Msg: fmt.Sprintf("endpoint %s still %s after %v: it may yet succeed — watch it with `kokoro endpoint describe %s`", endpoint, info.Status, timeout.Round(time.Second), endpoint)}
	}
	return info, err
}

// notInService is the error for an endpoint that exists but cannot take the call now.
func notInService(endpoint, status, reason string) error {
	msg := fmt.Sprintf("endpoint %s is %s, not InService: ", endpoint, status)
	switch status {
	case "Failed":
		msg += "it failed (" + awsconf.OneLine(reason) + "); fix the cause, then `kokoro endpoint deploy` again or delete it"
	case "Creating", "Updating", "SystemUpdating", "RollingBack":
		msg += "wait until `kokoro endpoint describe " + endpoint + "` shows InService, then retry"
	default:
		msg += "it cannot serve; `kokoro endpoint describe " + endpoint + "` shows why"
	}
	return &awsconf.Error{Kind: awsconf.ErrNotInService, Msg: msg}
}

package emulate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The SageMaker side of the control plane: endpoint configs whose variants name no model,
// endpoints on them, and the inference components those endpoints host. Shapes follow the
// SageMaker API model (sagemaker-2017-07-24); docs/emulator.md lists what follows a document
// that could not be checked against the service.

type managedScaling struct {
	Status           *string `json:"Status,omitempty"`
	MinInstanceCount *int    `json:"MinInstanceCount,omitempty"`
	MaxInstanceCount *int    `json:"MaxInstanceCount,omitempty"`
	ScaleInPolicy    *struct {
		Strategy          *string `json:"Strategy,omitempty"`
		MaximumStepSize   *int    `json:"MaximumStepSize,omitempty"`
		CooldownInMinutes *int    `json:"CooldownInMinutes,omitempty"`
	} `json:"ScaleInPolicy,omitempty"`
}

type routingConfig struct {
	RoutingStrategy *string `json:"RoutingStrategy,omitempty"`
}

// productionVariant is the part of the model's ProductionVariant kept for a config of ours;
// other members are accepted and not kept.
type productionVariant struct {
	VariantName                                 string          `json:"VariantName"`
	ModelName                                   *string         `json:"ModelName,omitempty"`
	InstanceType                                *string         `json:"InstanceType,omitempty"`
	InitialInstanceCount                        *int            `json:"InitialInstanceCount,omitempty"`
	InitialVariantWeight                        *float64        `json:"InitialVariantWeight,omitempty"`
	VolumeSizeInGB                              *int            `json:"VolumeSizeInGB,omitempty"`
	ModelDataDownloadTimeoutInSeconds           *int            `json:"ModelDataDownloadTimeoutInSeconds,omitempty"`
	ContainerStartupHealthCheckTimeoutInSeconds *int            `json:"ContainerStartupHealthCheckTimeoutInSeconds,omitempty"`
	ManagedInstanceScaling                      *managedScaling `json:"ManagedInstanceScaling,omitempty"`
	RoutingConfig                               *routingConfig  `json:"RoutingConfig,omitempty"`
}

// desiredInstances is the variant's instance count at creation: its initial count, or its
// managed scaling's minimum when that is larger.
func (v productionVariant) desiredInstances() int {
	n := 0
	if v.InitialInstanceCount != nil {
		n = *v.InitialInstanceCount
	}
	if m := v.ManagedInstanceScaling; m != nil && m.MinInstanceCount != nil && *m.MinInstanceCount > n {
		n = *m.MinInstanceCount
	}
	return n
}

type endpointConfig struct {
	name, arn, role string
	variants        []productionVariant
	created         time.Time
}

type icEndpoint struct {
	name, arn, config string
	variants          []productionVariant
	created, modified time.Time
	updating          time.Time // start of the last update; zero if none
	deleting          time.Time // zero unless being deleted
}

func (c *ControlPlane) endpointStatus(e *icEndpoint) string {
	switch {
	case !e.deleting.IsZero():
		return "Deleting"
	case !c.settled(e.created):
		return "Creating"
	case !e.updating.IsZero() && !c.settled(e.updating):
		return "Updating"
	}
	return "InService"
}

func (e *icEndpoint) variant(name string) bool {
	return slices.ContainsFunc(e.variants, func(v productionVariant) bool { return v.VariantName == name })
}

func inRange(member string, v *int, lo, hi int) error {
	if v != nil && (*v < lo || *v > hi) {
		return invalid("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value between %d and %d", *v, member, lo, hi)
	}
	return nil
}

func atLeast(member string, v *int, lo int) error {
	if v != nil && *v < lo {
		return invalid("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value greater than or equal to %d", *v, member, lo)
	}
	return nil
}

// checkModelLessVariants validates the variants of a config that hosts inference components.
func checkModelLessVariants(vs []productionVariant) error {
	if len(vs) > 10 {
		return invalid("1 validation error detected: Value at 'productionVariants' failed to satisfy constraint: Member must have length less than or equal to 10")
	}
	seen := map[string]bool{}
	for i, v := range vs {
		at := fmt.Sprintf("productionVariants.%d.member", i+1)
		if err := checkName(at+".variantName", v.VariantName, reResourceName); err != nil {
			return err
		}
		if seen[v.VariantName] {
			return invalid("The variant name %q is used by more than one production variant.", v.VariantName)
		}
		seen[v.VariantName] = true
		if v.InstanceType == nil || !reInstanceType.MatchString(*v.InstanceType) {
			return invalid("Production variant %s hosts inference components and needs an InstanceType (ml.<family>.<size>).", v.VariantName)
		}
		if v.InitialInstanceCount == nil {
			return invalid("Production variant %s hosts inference components and needs an InitialInstanceCount.", v.VariantName)
		}
		if err := atLeast(at+".initialInstanceCount", v.InitialInstanceCount, 1); err != nil {
			return err
		}
		for _, r := range []struct {
			m      string
			v      *int
			lo, hi int
		}{
			{".volumeSizeInGB", v.VolumeSizeInGB, 1, 512},
			{".modelDataDownloadTimeoutInSeconds", v.ModelDataDownloadTimeoutInSeconds, 60, 3600},
			{".containerStartupHealthCheckTimeoutInSeconds", v.ContainerStartupHealthCheckTimeoutInSeconds, 60, 3600},
		} {
			if err := inRange(at+r.m, r.v, r.lo, r.hi); err != nil {
				return err
			}
		}
		if v.InitialVariantWeight != nil && *v.InitialVariantWeight < 0 {
			return invalid("1 validation error detected: Value at '%s.initialVariantWeight' failed to satisfy constraint: Member must have value greater than or equal to 0", at)
		}
		if rc := v.RoutingConfig; rc != nil {
			if rc.RoutingStrategy == nil {
				return invalid("1 validation error detected: Value null at '%s.routingConfig.routingStrategy' failed to satisfy constraint: Member must not be null", at)
			}
			if err := checkEnum(at+".routingConfig.routingStrategy", rc.RoutingStrategy, "LEAST_OUTSTANDING_REQUESTS", "RANDOM", "PREFIX_AWARE", "KV_AWARE"); err != nil {
				return err
			}
		}
		m := v.ManagedInstanceScaling
		if m == nil {
			continue
		}
		if err := checkEnum(at+".managedInstanceScaling.status", m.Status, "ENABLED", "DISABLED"); err != nil {
			return err
		}
		if err := atLeast(at+".managedInstanceScaling.minInstanceCount", m.MinInstanceCount, 0); err != nil {
			return err
		}
		if err := atLeast(at+".managedInstanceScaling.maxInstanceCount", m.MaxInstanceCount, 1); err != nil {
			return err
		}
		if m.MinInstanceCount != nil && m.MaxInstanceCount != nil && *m.MinInstanceCount > *m.MaxInstanceCount {
			return invalid("ManagedInstanceScaling of variant %s: MinInstanceCount %d is greater than MaxInstanceCount %d.", v.VariantName, *m.MinInstanceCount, *m.MaxInstanceCount)
		}
		if p := m.ScaleInPolicy; p != nil {
			if p.Strategy == nil {
				return invalid("1 validation error detected: Value null at '%s.managedInstanceScaling.scaleInPolicy.strategy' failed to satisfy constraint: Member must not be null", at)
			}
			if err := checkEnum(at+".managedInstanceScaling.scaleInPolicy.strategy", p.Strategy, "IDLE_RELEASE", "CONSOLIDATION"); err != nil {
				return err
			}
			if err := inRange(at+".managedInstanceScaling.scaleInPolicy.maximumStepSize", p.MaximumStepSize, 1, 100); err != nil {
				return err
			}
			if err := inRange(at+".managedInstanceScaling.scaleInPolicy.cooldownInMinutes", p.CooldownInMinutes, 5, 1440); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *ControlPlane) createEndpointConfig(k *call) error {
	var in struct {
		EndpointConfigName string
		ProductionVariants []productionVariant
		ExecutionRoleArn   *string
	}
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("endpointConfigName", in.EndpointConfigName, reResourceName); err != nil {
		return err
	}
	if len(in.ProductionVariants) == 0 {
		return invalid("1 validation error detected: Value '[]' at 'productionVariants' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	withModel := 0
	for _, v := range in.ProductionVariants {
		if v.ModelName != nil {
			withModel++
		}
	}
	a := arn(k.region, "endpoint-config", in.EndpointConfigName)
	c.mu.Lock()
	_, ours := c.configs[in.EndpointConfigName]
	c.mu.Unlock()
	if ours {
		return invalid("Cannot create already existing endpoint configuration %q.", a)
	}
	if withModel == len(in.ProductionVariants) {
		return c.forward(k)
	}
	if withModel > 0 {
		return invalid("Either every production variant of an endpoint configuration names a model, or none does (an endpoint for inference components).")
	}
	if err := checkModelLessVariants(in.ProductionVariants); err != nil {
		return err
	}
	if in.ExecutionRoleArn == nil {
		return invalid("An endpoint configuration for inference components needs an ExecutionRoleArn.")
	}
	if len(*in.ExecutionRoleArn) < 20 || len(*in.ExecutionRoleArn) > 2048 || !reRoleArn.MatchString(*in.ExecutionRoleArn) {
		return invalid("1 validation error detected: Value '%s' at 'executionRoleArn' failed to satisfy constraint: Member must satisfy regular expression pattern: %s",
			*in.ExecutionRoleArn, strings.Trim(reRoleArn.String(), "^$"))
	}
	theirs, err := c.upstreamExists(k, "DescribeEndpointConfig", "EndpointConfigName", in.EndpointConfigName)
	if err != nil {
		return err
	}
	if theirs {
		return invalid("Cannot create already existing endpoint configuration %q.", a)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.configs[in.EndpointConfigName]; ok {
		return invalid("Cannot create already existing endpoint configuration %q.", a)
	}
	c.configs[in.EndpointConfigName] = &endpointConfig{name: in.EndpointConfigName, arn: a, role: *in.ExecutionRoleArn,
		variants: in.ProductionVariants, created: c.now()}
	return writeJSON(k.w, map[string]any{"EndpointConfigArn": a})
}

// nameOnly decodes a request whose one member of interest is a name and validates it.
func nameOnly(k *call, member string, re *regexp.Regexp) (string, error) {
	var in map[string]any
	if err := k.decode(&in); err != nil {
		return "", err
	}
	s, ok := in[member].(string)
	if !ok {
		return "", &apiError{"SerializationException", fmt.Sprintf("%s must be a string", member)}
	}
	return s, checkName(lowerFirst(member), s, re)
}

func (c *ControlPlane) describeEndpointConfig(k *call) error {
	name, err := nameOnly(k, "EndpointConfigName", reResourceName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	cfg, ok := c.configs[name]
	c.mu.Unlock()
	if !ok {
		return c.forward(k)
	}
	return writeJSON(k.w, map[string]any{
		"EndpointConfigName": cfg.name, "EndpointConfigArn": cfg.arn, "ProductionVariants": cfg.variants,
		"ExecutionRoleArn": cfg.role, "CreationTime": epoch(cfg.created),
	})
}

func (c *ControlPlane) deleteEndpointConfig(k *call) error {
	name, err := nameOnly(k, "EndpointConfigName", reResourceName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	_, ok := c.configs[name]
	delete(c.configs, name)
	c.mu.Unlock()
	if !ok {
		return c.forward(k)
	}
	return writeJSON(k.w, struct{}{})
}

type listFilter struct {
	SortBy, SortOrder, NextToken, NameContains, StatusEquals *string
	EndpointNameEquals, VariantNameEquals                    *string
	MaxResults                                               *int
}

func (k *call) listFilter(sortKeys ...string) (listFilter, error) {
	var f listFilter
	if err := k.decode(&f); err != nil {
		return f, err
	}
	if err := checkEnum("sortBy", f.SortBy, sortKeys...); err != nil {
		return f, err
	}
	if err := checkEnum("sortOrder", f.SortOrder, "Ascending", "Descending"); err != nil {
		return f, err
	}
	if err := inRange("maxResults", f.MaxResults, 1, 100); err != nil {
		return f, err
	}
	return f, checkNameContains(f.NameContains)
}

func (f listFilter) sortKey(byName string) (string, string) {
	key, order := "CreationTime", "Descending"
	if f.SortBy != nil && *f.SortBy == "Name" {
		key = byName
	} else if f.SortBy != nil && *f.SortBy == "Status" {
		key = strings.TrimSuffix(byName, "Name") + "Status"
	}
	if f.SortOrder != nil {
		order = *f.SortOrder
	}
	return key, order
}

func hasSub(s string, sub *string) bool { return sub == nil || strings.Contains(s, *sub) }

func (c *ControlPlane) listEndpointConfigs(k *call) error {
	f, err := k.listFilter("Name", "CreationTime")
	if err != nil {
		return err
	}
	var items []map[string]any
	c.mu.Lock()
	for _, cfg := range c.configs {
		if hasSub(cfg.name, f.NameContains) {
			items = append(items, map[string]any{"EndpointConfigName": cfg.name, "EndpointConfigArn": cfg.arn, "CreationTime": epoch(cfg.created)})
		}
	}
	c.mu.Unlock()
	key, order := f.sortKey("EndpointConfigName")
	return c.mergeList(k, "EndpointConfigs", items, key, order)
}

func (c *ControlPlane) createEndpoint(k *call) error {
	var in struct{ EndpointName, EndpointConfigName string }
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("endpointName", in.EndpointName, reResourceName); err != nil {
		return err
	}
	if err := checkName("endpointConfigName", in.EndpointConfigName, reResourceName); err != nil {
		return err
	}
	a := arn(k.region, "endpoint", in.EndpointName)
	c.mu.Lock()
	c.sweep()
	_, mine := c.endpoints[in.EndpointName]
	cfg, ours := c.configs[in.EndpointConfigName]
	c.mu.Unlock()
	if mine {
		return invalid("Cannot create already existing endpoint %q.", a)
	}
	if !ours {
		return c.forward(k)
	}
	theirs, err := c.upstreamExists(k, "DescribeEndpoint", "EndpointName", in.EndpointName)
	if err != nil {
		return err
	}
	if theirs {
		return invalid("Cannot create already existing endpoint %q.", a)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.endpoints[in.EndpointName]; ok {
		return invalid("Cannot create already existing endpoint %q.", a)
	}
	now := c.now()
	c.endpoints[in.EndpointName] = &icEndpoint{name: in.EndpointName, arn: a, config: cfg.name,
		variants: slices.Clone(cfg.variants), created: now, modified: now}
	return writeJSON(k.w, map[string]any{"EndpointArn": a})
}

func (c *ControlPlane) describeEndpoint(k *call) error {
	name, err := nameOnly(k, "EndpointName", reResourceName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.sweep()
	e, ok := c.endpoints[name]
	if !ok {
		c.mu.Unlock()
		return c.forward(k)
	}
	defer c.mu.Unlock()
	status := c.endpointStatus(e)
	var variants []map[string]any
	for _, v := range e.variants {
		desired := v.desiredInstances()
		current := desired
		if status == "Creating" {
			current = 0
		}
		weight := 1.0
		if v.InitialVariantWeight != nil {
			weight = *v.InitialVariantWeight
		}
		pv := map[string]any{"VariantName": v.VariantName, "CurrentInstanceCount": current, "DesiredInstanceCount": desired,
			"CurrentWeight": weight, "DesiredWeight": weight}
		if v.ManagedInstanceScaling != nil {
			pv["ManagedInstanceScaling"] = v.ManagedInstanceScaling
		}
		if v.RoutingConfig != nil {
			pv["RoutingConfig"] = v.RoutingConfig
		}
		variants = append(variants, pv)
	}
	return writeJSON(k.w, map[string]any{
		"EndpointName": e.name, "EndpointArn": e.arn, "EndpointConfigName": e.config, "EndpointStatus": status,
		"CreationTime": epoch(e.created), "LastModifiedTime": epoch(e.modified), "ProductionVariants": variants,
	})
}

func (c *ControlPlane) updateEndpoint(k *call) error {
	var in struct{ EndpointName, EndpointConfigName string }
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("endpointName", in.EndpointName, reResourceName); err != nil {
		return err
	}
	if err := checkName("endpointConfigName", in.EndpointConfigName, reResourceName); err != nil {
		return err
	}
	c.mu.Lock()
	c.sweep()
	_, mine := c.endpoints[in.EndpointName]
	_, ours := c.configs[in.EndpointConfigName]
	c.mu.Unlock()
	if !mine && !ours {
		return c.forward(k)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, mine := c.endpoints[in.EndpointName]
	cfg, ours := c.configs[in.EndpointConfigName]
	switch {
	case !mine && !ours:
		return invalid("Could not find endpoint %q.", arn(k.region, "endpoint", in.EndpointName))
	case !mine:
		return invalid("Endpoint configuration %q hosts inference components; endpoint %q was not created for them and cannot move to it.", in.EndpointConfigName, in.EndpointName)
	case !ours:
		return invalid("Endpoint %q hosts inference components; its configuration must name no model, and %q is not one of those (or does not exist).", in.EndpointName, in.EndpointConfigName)
	}
	if s := c.endpointStatus(e); s != "InService" {
		return invalid("Cannot update endpoint %q while it is %s.", e.arn, s)
	}
	for _, ic := range c.components {
		if ic.endpoint == e.name && !slices.ContainsFunc(cfg.variants, func(v productionVariant) bool { return v.VariantName == ic.variant }) {
			return invalid("Inference component %q runs on variant %s, which endpoint configuration %q does not have.", ic.name, ic.variant, cfg.name)
		}
	}
	now := c.now()
	e.config, e.variants, e.modified, e.updating = cfg.name, slices.Clone(cfg.variants), now, now
	return writeJSON(k.w, map[string]any{"EndpointArn": e.arn})
}

func (c *ControlPlane) deleteEndpoint(k *call) error {
	name, err := nameOnly(k, "EndpointName", reResourceName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.sweep()
	_, ok := c.endpoints[name]
	c.mu.Unlock()
	if !ok {
		return c.forward(k)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.endpoints[name]
	if !ok {
		return invalid("Could not find endpoint %q.", arn(k.region, "endpoint", name))
	}
	if !e.deleting.IsZero() {
		return invalid("Cannot delete endpoint %q while it is Deleting.", e.arn)
	}
	var left []string
	for _, ic := range c.components {
		if ic.endpoint == name {
			left = append(left, ic.name)
		}
	}
	if len(left) > 0 {
		slices.Sort(left)
		return invalid("Endpoint %q still hosts inference components (%s): delete them first.", e.arn, strings.Join(left, ", "))
	}
	e.deleting = c.now()
	c.sweep()
	return writeJSON(k.w, struct{}{})
}

func (c *ControlPlane) listEndpoints(k *call) error {
	f, err := k.listFilter("Name", "CreationTime", "Status")
	if err != nil {
		return err
	}
	if err := checkEnum("statusEquals", f.StatusEquals, "OutOfService", "Creating", "Updating", "SystemUpdating", "RollingBack", "InService", "Deleting", "Failed", "UpdateRollbackFailed"); err != nil {
		return err
	}
	var items []map[string]any
	c.mu.Lock()
	c.sweep()
	for _, e := range c.endpoints {
		st := c.endpointStatus(e)
		if hasSub(e.name, f.NameContains) && (f.StatusEquals == nil || *f.StatusEquals == st) {
			items = append(items, map[string]any{"EndpointName": e.name, "EndpointArn": e.arn, "CreationTime": epoch(e.created),
				"LastModifiedTime": epoch(e.modified), "EndpointStatus": st})
		}
	}
	c.mu.Unlock()
	key, order := f.sortKey("EndpointName")
	return c.mergeList(k, "Endpoints", items, key, order)
}

// Inference components.

type computeRequirements struct {
	NumberOfCpuCoresRequired           *float64 `json:"NumberOfCpuCoresRequired,omitempty"`
	NumberOfAcceleratorDevicesRequired *float64 `json:"NumberOfAcceleratorDevicesRequired,omitempty"`
	MinMemoryRequiredInMb              *int     `json:"MinMemoryRequiredInMb,omitempty"`
	MaxMemoryRequiredInMb              *int     `json:"MaxMemoryRequiredInMb,omitempty"`
}

type startupParameters struct {
	ModelDataDownloadTimeoutInSeconds           *int `json:"ModelDataDownloadTimeoutInSeconds,omitempty"`
	ContainerStartupHealthCheckTimeoutInSeconds *int `json:"ContainerStartupHealthCheckTimeoutInSeconds,omitempty"`
}

type componentSpec struct {
	ModelName *string `json:"ModelName,omitempty"`
	Container *struct {
		Image       *string           `json:"Image,omitempty"`
		ArtifactUrl *string           `json:"ArtifactUrl,omitempty"`
		Environment map[string]string `json:"Environment,omitempty"`
	} `json:"Container,omitempty"`
	StartupParameters           *startupParameters   `json:"StartupParameters,omitempty"`
	ComputeResourceRequirements *computeRequirements `json:"ComputeResourceRequirements,omitempty"`
	BaseInferenceComponentName  *string              `json:"BaseInferenceComponentName,omitempty"`
}

type runtimeConfig struct {
	CopyCount *int
}

type component struct {
	name, arn, endpoint, endpointArn, variant string
	spec                                      componentSpec
	specAt                                    time.Time // when the container was last (re)deployed
	desired, previous                         int       // copies asked for; in service before the last update
	created, modified, updating, deleting     time.Time
}

func (c *ControlPlane) componentStatus(ic *component) string {
	switch {
	case !ic.deleting.IsZero():
		return "Deleting"
	case !c.settled(ic.created):
		return "Creating"
	case !ic.updating.IsZero() && !c.settled(ic.updating):
		return "Updating"
	}
	return "InService"
}

// currentCopies is the copies in service: none while Creating, the earlier count while
// Updating.
func (c *ControlPlane) currentCopies(ic *component) int {
	switch c.componentStatus(ic) {
	case "Creating":
		return 0
	case "Updating":
		return ic.previous
	}
	return ic.desired
}

// checkSpec validates a Specification; adapter components (BaseInferenceComponentName) take
// no compute requirements of their own, every other one needs them.
func checkSpec(s *componentSpec) error {
	if s.ModelName != nil {
		if err := checkName("specification.modelName", *s.ModelName, reModelName); err != nil {
			return err
		}
	}
	if s.BaseInferenceComponentName != nil {
		if err := checkName("specification.baseInferenceComponentName", *s.BaseInferenceComponentName, reModelName); err != nil {
			return err
		}
	}
	if s.ModelName == nil && s.Container == nil && s.BaseInferenceComponentName == nil {
		return invalid("The specification needs a ModelName, a Container or a BaseInferenceComponentName.")
	}
	if s.Container != nil && (s.Container.Image == nil || *s.Container.Image == "" || len(*s.Container.Image) > 255 || strings.ContainsAny(*s.Container.Image, " \t\r\n")) {
		return invalid("1 validation error detected: Value at 'specification.container.image' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\S]+")
	}
	if p := s.StartupParameters; p != nil {
		if err := inRange("specification.startupParameters.modelDataDownloadTimeoutInSeconds", p.ModelDataDownloadTimeoutInSeconds, 60, 3600); err != nil {
			return err
		}
		if err := inRange("specification.startupParameters.containerStartupHealthCheckTimeoutInSeconds", p.ContainerStartupHealthCheckTimeoutInSeconds, 60, 3600); err != nil {
			return err
		}
	}
	r := s.ComputeResourceRequirements
	if r == nil {
		if s.BaseInferenceComponentName == nil {
			return invalid("The specification needs ComputeResourceRequirements (only an adapter component, with a BaseInferenceComponentName, goes without).")
		}
		return nil
	}
	if r.MinMemoryRequiredInMb == nil {
		return invalid("1 validation error detected: Value null at 'specification.computeResourceRequirements.minMemoryRequiredInMb' failed to satisfy constraint: Member must not be null")
	}
	if err := atLeast("specification.computeResourceRequirements.minMemoryRequiredInMb", r.MinMemoryRequiredInMb, 128); err != nil {
		return err
	}
	if err := atLeast("specification.computeResourceRequirements.maxMemoryRequiredInMb", r.MaxMemoryRequiredInMb, 128); err != nil {
		return err
	}
	if r.MaxMemoryRequiredInMb != nil && *r.MaxMemoryRequiredInMb < *r.MinMemoryRequiredInMb {
		return invalid("MaxMemoryRequiredInMb %d is less than MinMemoryRequiredInMb %d.", *r.MaxMemoryRequiredInMb, *r.MinMemoryRequiredInMb)
	}
	if r.NumberOfCpuCoresRequired != nil && *r.NumberOfCpuCoresRequired < 0.25 {
		return invalid("1 validation error detected: Value '%g' at 'specification.computeResourceRequirements.numberOfCpuCoresRequired' failed to satisfy constraint: Member must have value greater than or equal to 0.25", *r.NumberOfCpuCoresRequired)
	}
	if r.NumberOfAcceleratorDevicesRequired != nil && *r.NumberOfAcceleratorDevicesRequired < 1 {
		return invalid("1 validation error detected: Value '%g' at 'specification.computeResourceRequirements.numberOfAcceleratorDevicesRequired' failed to satisfy constraint: Member must have value greater than or equal to 1", *r.NumberOfAcceleratorDevicesRequired)
	}
	return nil
}

func checkCopies(member string, rc *runtimeConfig) error {
	if rc.CopyCount == nil {
		return invalid("1 validation error detected: Value null at '%s.copyCount' failed to satisfy constraint: Member must not be null", member)
	}
	return atLeast(member+".copyCount", rc.CopyCount, 0)
}

// modelExists asks the upstream for the model a specification names.
func (c *ControlPlane) modelExists(k *call, name string) error {
	ok, err := c.upstreamExists(k, "DescribeModel", "ModelName", name)
	if err != nil {
		return err
	}
	if !ok {
		return invalid("Could not find model %q.", arn(k.region, "model", name))
	}
	return nil
}

func (c *ControlPlane) createComponent(k *call) error {
	var in struct {
		InferenceComponentName, EndpointName string
		VariantName                          *string
		Specification                        *componentSpec
		Specifications                       json.RawMessage
		RuntimeConfig                        *runtimeConfig
	}
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("inferenceComponentName", in.InferenceComponentName, reModelName); err != nil {
		return err
	}
	if err := checkName("endpointName", in.EndpointName, reResourceName); err != nil {
		return err
	}
	if in.VariantName != nil {
		if err := checkName("variantName", *in.VariantName, reResourceName); err != nil {
			return err
		}
	}
	if len(in.Specifications) > 0 && string(in.Specifications) != "null" {
		return invalid("Specifications (one per instance type) is not served by this control plane: give one Specification.")
	}
	if in.Specification == nil {
		return invalid("1 validation error detected: Value null at 'specification' failed to satisfy constraint: Member must not be null")
	}
	if err := checkSpec(in.Specification); err != nil {
		return err
	}
	adapter := in.Specification.BaseInferenceComponentName != nil
	copies := 0
	switch {
	case in.RuntimeConfig != nil:
		if err := checkCopies("runtimeConfig", in.RuntimeConfig); err != nil {
			return err
		}
		copies = *in.RuntimeConfig.CopyCount
	case !adapter:
		return invalid("1 validation error detected: Value null at 'runtimeConfig' failed to satisfy constraint: Member must not be null")
	}
	if in.Specification.ModelName != nil {
		if err := c.modelExists(k, *in.Specification.ModelName); err != nil {
			return err
		}
	}
	a := arn(k.region, "inference-component", in.InferenceComponentName)
	c.mu.Lock()
	c.sweep()
	e, ok := c.endpoints[in.EndpointName]
	c.mu.Unlock()
	if !ok {
		theirs, err := c.upstreamExists(k, "DescribeEndpoint", "EndpointName", in.EndpointName)
		if err != nil {
			return err
		}
		if theirs {
			return invalid("Endpoint %q was created from an endpoint configuration whose variants name a model; inference components need one whose variants name none.", in.EndpointName)
		}
		return invalid("Could not find endpoint %q.", arn(k.region, "endpoint", in.EndpointName))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.components[in.InferenceComponentName]; dup {
		return invalid("Cannot create already existing inference component %q.", a)
	}
	if !e.deleting.IsZero() {
		return invalid("Cannot create an inference component on endpoint %q while it is Deleting.", e.arn)
	}
	variant := ""
	switch {
	case in.VariantName != nil:
		if !e.variant(*in.VariantName) {
			return invalid("Could not find variant %s of endpoint %q.", *in.VariantName, e.arn)
		}
		variant = *in.VariantName
	case len(e.variants) == 1:
		variant = e.variants[0].VariantName
	default:
		return invalid("Endpoint %q has %d production variants: give the VariantName.", e.arn, len(e.variants))
	}
	if adapter {
		base, ok := c.components[*in.Specification.BaseInferenceComponentName]
		if !ok || base.endpoint != e.name {
			return invalid("Could not find base inference component %q on endpoint %q.", *in.Specification.BaseInferenceComponentName, e.name)
		}
	}
	now := c.now()
	c.components[in.InferenceComponentName] = &component{name: in.InferenceComponentName, arn: a, endpoint: e.name, endpointArn: e.arn,
		variant: variant, spec: *in.Specification, specAt: now, desired: copies, created: now, modified: now}
	return writeJSON(k.w, map[string]any{"InferenceComponentArn": a})
}

// ownComponent is the named component, or the ValidationException for a name the
// control plane does not have. Callers hold mu.
func (c *ControlPlane) ownComponent(k *call, name string) (*component, error) {
	c.sweep()
	ic, ok := c.components[name]
	if !ok {
		return nil, invalid("Could not find inference component %q.", arn(k.region, "inference-component", name))
	}
	return ic, nil
}

func (c *ControlPlane) describeComponent(k *call) error {
	name, err := nameOnly(k, "InferenceComponentName", reModelName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ic, err := c.ownComponent(k, name)
	if err != nil {
		return err
	}
	spec := map[string]any{}
	s := ic.spec
	if s.ModelName != nil {
		spec["ModelName"] = *s.ModelName
	}
	if s.ComputeResourceRequirements != nil {
		spec["ComputeResourceRequirements"] = s.ComputeResourceRequirements
	}
	if s.StartupParameters != nil {
		spec["StartupParameters"] = s.StartupParameters
	}
	if s.BaseInferenceComponentName != nil {
		spec["BaseInferenceComponentName"] = *s.BaseInferenceComponentName
	}
	if ct := s.Container; ct != nil {
		cs := map[string]any{}
		if ct.Image != nil {
			cs["DeployedImage"] = map[string]any{"SpecifiedImage": *ct.Image, "ResolvedImage": *ct.Image, "ResolutionTime": epoch(ic.specAt)}
		}
		if ct.ArtifactUrl != nil {
			cs["ArtifactUrl"] = *ct.ArtifactUrl
		}
		if ct.Environment != nil {
			cs["Environment"] = ct.Environment
		}
		spec["Container"] = cs
	}
	return writeJSON(k.w, map[string]any{
		"InferenceComponentName": ic.name, "InferenceComponentArn": ic.arn, "EndpointName": ic.endpoint, "EndpointArn": ic.endpointArn,
		"VariantName": ic.variant, "Specification": spec, "InferenceComponentStatus": c.componentStatus(ic),
		"RuntimeConfig":    map[string]any{"DesiredCopyCount": ic.desired, "CurrentCopyCount": c.currentCopies(ic)},
		"CreationTime":     epoch(ic.created),
		"LastModifiedTime": epoch(ic.modified),
	})
}

// beginUpdate starts an update of an InService component. Callers hold mu.
func (c *ControlPlane) beginUpdate(ic *component) error {
	if s := c.componentStatus(ic); s != "InService" {
		return invalid("Cannot update inference component %q while it is %s.", ic.arn, s)
	}
	now := c.now()
	ic.previous, ic.modified, ic.updating = ic.desired, now, now
	return nil
}

func (c *ControlPlane) updateComponent(k *call) error {
	var in struct {
		InferenceComponentName string
		Specification          *componentSpec
		RuntimeConfig          *runtimeConfig
		Specifications         json.RawMessage
	}
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("inferenceComponentName", in.InferenceComponentName, reModelName); err != nil {
		return err
	}
	if len(in.Specifications) > 0 && string(in.Specifications) != "null" {
		return invalid("Specifications (one per instance type) is not served by this control plane: give one Specification.")
	}
	if in.Specification == nil && in.RuntimeConfig == nil {
		return invalid("Give a Specification or a RuntimeConfig to update.")
	}
	if in.Specification != nil {
		if err := checkSpec(in.Specification); err != nil {
			return err
		}
		if in.Specification.ModelName != nil {
			if err := c.modelExists(k, *in.Specification.ModelName); err != nil {
				return err
			}
		}
	}
	if in.RuntimeConfig != nil {
		if err := checkCopies("runtimeConfig", in.RuntimeConfig); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ic, err := c.ownComponent(k, in.InferenceComponentName)
	if err != nil {
		return err
	}
	if in.Specification != nil && in.Specification.BaseInferenceComponentName != nil {
		if base, ok := c.components[*in.Specification.BaseInferenceComponentName]; !ok || base.endpoint != ic.endpoint {
			return invalid("Could not find base inference component %q on endpoint %q.", *in.Specification.BaseInferenceComponentName, ic.endpoint)
		}
	}
	if err := c.beginUpdate(ic); err != nil {
		return err
	}
	if in.Specification != nil {
		ic.spec, ic.specAt = *in.Specification, ic.updating
	}
	if in.RuntimeConfig != nil {
		ic.desired = *in.RuntimeConfig.CopyCount
	}
	return writeJSON(k.w, map[string]any{"InferenceComponentArn": ic.arn})
}

func (c *ControlPlane) updateComponentRuntime(k *call) error {
	var in struct {
		InferenceComponentName string
		DesiredRuntimeConfig   runtimeConfig
	}
	if err := k.decode(&in); err != nil {
		return err
	}
	if err := checkName("inferenceComponentName", in.InferenceComponentName, reModelName); err != nil {
		return err
	}
	if err := checkCopies("desiredRuntimeConfig", &in.DesiredRuntimeConfig); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ic, err := c.ownComponent(k, in.InferenceComponentName)
	if err != nil {
		return err
	}
	if err := c.beginUpdate(ic); err != nil {
		return err
	}
	ic.desired = *in.DesiredRuntimeConfig.CopyCount
	return writeJSON(k.w, map[string]any{"InferenceComponentArn": ic.arn})
}

func (c *ControlPlane) deleteComponent(k *call) error {
	name, err := nameOnly(k, "InferenceComponentName", reModelName)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ic, err := c.ownComponent(k, name)
	if err != nil {
		return err
	}
	if !ic.deleting.IsZero() {
		return invalid("Cannot delete inference component %q while it is Deleting.", ic.arn)
	}
	for _, o := range c.components {
		if o.spec.BaseInferenceComponentName != nil && *o.spec.BaseInferenceComponentName == name {
			return invalid("Inference component %q is the base of adapter component %q: delete that first.", ic.arn, o.name)
		}
	}
	ic.deleting = c.now()
	c.sweep()
	return writeJSON(k.w, struct{}{})
}

func (c *ControlPlane) listComponents(k *call) error {
	f, err := k.listFilter("Name", "CreationTime", "Status")
	if err != nil {
		return err
	}
	if err := checkEnum("statusEquals", f.StatusEquals, "InService", "Creating", "Updating", "Failed", "Deleting"); err != nil {
		return err
	}
	for _, p := range []struct {
		m string
		v *string
	}{{"endpointNameEquals", f.EndpointNameEquals}, {"variantNameEquals", f.VariantNameEquals}} {
		if p.v != nil {
			if err := checkName(p.m, *p.v, reResourceName); err != nil {
				return err
			}
		}
	}
	type row struct {
		ic     *component
		status string
	}
	var rows []row
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep()
	for _, ic := range c.components {
		st := c.componentStatus(ic)
		if hasSub(ic.name, f.NameContains) && (f.StatusEquals == nil || *f.StatusEquals == st) &&
			(f.EndpointNameEquals == nil || *f.EndpointNameEquals == ic.endpoint) &&
			(f.VariantNameEquals == nil || *f.VariantNameEquals == ic.variant) {
			rows = append(rows, row{ic, st})
		}
	}
	key, order := f.sortKey("Name")
	slices.SortStableFunc(rows, func(a, b row) int {
		if order == "Descending" {
			a, b = b, a
		}
		switch key {
		case "Name":
			return strings.Compare(a.ic.name, b.ic.name)
		case "Status":
			return strings.Compare(a.status, b.status)
		}
		return a.ic.created.Compare(b.ic.created)
	})
	got, next, err := page(rows, f.NextToken, f.MaxResults, 10)
	if err != nil {
		return err
	}
	items := []map[string]any{}
	for _, r := range got {
		items = append(items, map[string]any{
			"InferenceComponentName": r.ic.name, "InferenceComponentArn": r.ic.arn, "EndpointName": r.ic.endpoint,
			"EndpointArn": r.ic.endpointArn, "VariantName": r.ic.variant, "InferenceComponentStatus": r.status,
			"CreationTime": epoch(r.ic.created), "LastModifiedTime": epoch(r.ic.modified),
		})
	}
	out := map[string]any{"InferenceComponents": items}
	if next != nil {
		out["NextToken"] = *next
	}
	return writeJSON(k.w, out)
}

var _ http.Handler = (*ControlPlane)(nil)

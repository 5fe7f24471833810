package emulate

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/kokoro-sm/kokoro/scaling"
)

// The Application Auto Scaling side of the control plane: scalable targets and scaling
// policies on an inference component's copy count. Requests on any other dimension go to the
// upstream; descriptions that name no dimension are the upstream's answer with ours appended.
// Shapes follow the API model (application-autoscaling-2016-02-06).

// ComponentDimension is the scalable dimension of an inference component's copies.
const ComponentDimension = scaling.ComponentDimension

// componentMetrics are the predefined metrics target tracking takes for ComponentDimension,
// with the CloudWatch metric each stands for.
var componentMetrics = map[string]struct {
	metric string
	high   bool // high-resolution (10 s) rather than one-minute
}{
	"SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution": {"ConcurrentRequestsPerCopy", true},
	"SageMakerInferenceComponentInvocationsPerCopy":                      {"InvocationsPerCopy", false},
}

var scalingOps = map[string]struct {
	required []string
	handle   handlerFunc
}{
	"RegisterScalableTarget":   {[]string{"ServiceNamespace", "ResourceId", "ScalableDimension"}, (*ControlPlane).registerTarget},
	"DescribeScalableTargets":  {[]string{"ServiceNamespace"}, (*ControlPlane).describeTargets},
	"DeregisterScalableTarget": {[]string{"ServiceNamespace", "ResourceId", "ScalableDimension"}, (*ControlPlane).deregisterTarget},
	"PutScalingPolicy":         {[]string{"PolicyName", "ServiceNamespace", "ResourceId", "ScalableDimension"}, (*ControlPlane).putPolicy},
	"DescribeScalingPolicies":  {[]string{"ServiceNamespace"}, (*ControlPlane).describePolicies},
	"DeleteScalingPolicy":      {[]string{"PolicyName", "ServiceNamespace", "ResourceId", "ScalableDimension"}, (*ControlPlane).deletePolicy},
}

type suspendedState struct {
	DynamicScalingInSuspended  *bool `json:"DynamicScalingInSuspended,omitempty"`
	DynamicScalingOutSuspended *bool `json:"DynamicScalingOutSuspended,omitempty"`
	ScheduledScalingSuspended  *bool `json:"ScheduledScalingSuspended,omitempty"`
}

type scalableTarget struct {
	resourceID, role, arn string
	min, max              int
	suspended             *suspendedState
	created               time.Time
}

type metricDimension struct {
	Name  string `json:"Name"`
	Value string `json:"Value"`
}

type targetTrackingConfig struct {
	TargetValue                   *float64 `json:"TargetValue,omitempty"`
	PredefinedMetricSpecification *struct {
		PredefinedMetricType *string `json:"PredefinedMetricType,omitempty"`
		ResourceLabel        *string `json:"ResourceLabel,omitempty"`
	} `json:"PredefinedMetricSpecification,omitempty"`
	CustomizedMetricSpecification *struct {
		MetricName *string           `json:"MetricName,omitempty"`
		Namespace  *string           `json:"Namespace,omitempty"`
		Dimensions []metricDimension `json:"Dimensions,omitempty"`
		Statistic  *string           `json:"Statistic,omitempty"`
		Unit       *string           `json:"Unit,omitempty"`
		Metrics    json.RawMessage   `json:"Metrics,omitempty"`
	} `json:"CustomizedMetricSpecification,omitempty"`
	ScaleOutCooldown *int  `json:"ScaleOutCooldown,omitempty"`
	ScaleInCooldown  *int  `json:"ScaleInCooldown,omitempty"`
	DisableScaleIn   *bool `json:"DisableScaleIn,omitempty"`
}

type stepScalingConfig struct {
	AdjustmentType  *string `json:"AdjustmentType,omitempty"`
	StepAdjustments []struct {
		MetricIntervalLowerBound *float64 `json:"MetricIntervalLowerBound,omitempty"`
		MetricIntervalUpperBound *float64 `json:"MetricIntervalUpperBound,omitempty"`
		ScalingAdjustment        *int     `json:"ScalingAdjustment,omitempty"`
	} `json:"StepAdjustments,omitempty"`
	MinAdjustmentMagnitude *int    `json:"MinAdjustmentMagnitude,omitempty"`
	Cooldown               *int    `json:"Cooldown,omitempty"`
	MetricAggregationType  *string `json:"MetricAggregationType,omitempty"`
}

type alarmRef struct {
	AlarmName string `json:"AlarmName"`
	AlarmARN  string `json:"AlarmARN"`
}

type scalingPolicy struct {
	name, resourceID, arn, policyType string
	tt                                *targetTrackingConfig
	step                              *stepScalingConfig
	alarms                            []alarmRef
	created                           time.Time
}

func policyKey(resourceID, name string) string { return resourceID + "\x00" + name }

// scalingRequest holds the members every operation here may carry.
type scalingRequest struct {
	ServiceNamespace, ResourceId, ScalableDimension, PolicyName, PolicyType, RoleARN *string
	ResourceIds, PolicyNames                                                         []string
	MinCapacity, MaxCapacity, MaxResults                                             *int
	NextToken                                                                        *string
	SuspendedState                                                                   *suspendedState
	TargetTrackingScalingPolicyConfiguration                                         *targetTrackingConfig
	StepScalingPolicyConfiguration                                                   *stepScalingConfig
	PredictiveScalingPolicyConfiguration                                             json.RawMessage
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// scalingCall decodes a request and decides whether it is ours: the component dimension.
func scalingCall(k *call) (*scalingRequest, bool, error) {
	var in scalingRequest
	if err := k.decode(&in); err != nil {
		return nil, false, err
	}
	if in.ScalableDimension == nil || *in.ScalableDimension != ComponentDimension {
		return &in, false, nil
	}
	if ns := str(in.ServiceNamespace); ns != "sagemaker" {
		return nil, false, invalid("Unsupported service namespace %s for scalable dimension %s", ns, ComponentDimension)
	}
	if in.ResourceId != nil {
		if err := checkComponentResource(*in.ResourceId); err != nil {
			return nil, false, err
		}
	}
	return &in, true, nil
}

func checkComponentResource(id string) error {
	name, ok := strings.CutPrefix(id, "inference-component/")
	if !ok || len(name) > 63 || !reModelName.MatchString(name) {
		return invalid("Unsupported resource ID %s for scalable dimension %s: it is inference-component/<name>", id, ComponentDimension)
	}
	return nil
}

func notRegistered(resourceID string) error {
	return &apiError{"ObjectNotFoundException", fmt.Sprintf("No scalable target registered for service namespace: sagemaker, resource ID: %s, scalable dimension: %s", resourceID, ComponentDimension)}
}

func (c *ControlPlane) registerTarget(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	if !ours {
		return c.forward(k)
	}
	for _, p := range []struct {
		m string
		v *int
	}{{"minCapacity", in.MinCapacity}, {"maxCapacity", in.MaxCapacity}} {
		if p.v != nil && *p.v < 0 {
			return invalid("1 validation error detected: Value '%d' at '%s' failed to satisfy constraint: Member must have value greater than or equal to 0", *p.v, p.m)
		}
	}
	id := *in.ResourceId
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep()
	name := strings.TrimPrefix(id, "inference-component/")
	if ic, ok := c.components[name]; !ok || !ic.deleting.IsZero() {
		return invalid("Unable to register scalable target: inference component %s does not exist.", name)
	}
	t, ok := c.targets[id]
	if !ok {
		if in.MinCapacity == nil || in.MaxCapacity == nil {
			return invalid("MinCapacity and MaxCapacity are required for registering a new scalable target (%s).", id)
		}
		t = &scalableTarget{resourceID: id, created: c.now(),
			arn:  fmt.Sprintf("arn:aws:application-autoscaling:%s:%s:scalable-target/%s", k.region, ControlPlaneAccount, randomHex(18)),
			role: fmt.Sprintf("arn:aws:iam::%s:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint", ControlPlaneAccount)}
	}
	lo, hi := t.min, t.max
	if in.MinCapacity != nil {
		lo = *in.MinCapacity
	}
	if in.MaxCapacity != nil {
		hi = *in.MaxCapacity
	}
	if lo > hi {
		return invalid("Minimum capacity %d cannot be greater than maximum capacity %d.", lo, hi)
	}
	t.min, t.max = lo, hi
	if in.RoleARN != nil {
		t.role = *in.RoleARN
	}
	if in.SuspendedState != nil {
		t.suspended = in.SuspendedState
	}
	c.targets[id] = t
	return writeJSON(k.w, map[string]any{"ScalableTargetARN": t.arn})
}

func (t *scalableTarget) item() map[string]any {
	m := map[string]any{"ServiceNamespace": "sagemaker", "ResourceId": t.resourceID, "ScalableDimension": ComponentDimension,
		"MinCapacity": t.min, "MaxCapacity": t.max, "RoleARN": t.role, "CreationTime": epoch(t.created), "ScalableTargetARN": t.arn}
	s := suspendedState{}
	if t.suspended != nil {
		s = *t.suspended
	}
	f := false
	for _, p := range []**bool{&s.DynamicScalingInSuspended, &s.DynamicScalingOutSuspended, &s.ScheduledScalingSuspended} {
		if *p == nil {
			*p = &f
		}
	}
	m["SuspendedState"] = s
	return m
}

func (c *ControlPlane) describeTargets(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	merge := in.ScalableDimension == nil && str(in.ServiceNamespace) == "sagemaker"
	if !ours && !merge {
		return c.forward(k)
	}
	if err := inRange("maxResults", in.MaxResults, 1, 50); err != nil {
		return err
	}
	var items []map[string]any
	c.mu.Lock()
	ids := slices.Sorted(maps.Keys(c.targets))
	for _, id := range ids {
		if len(in.ResourceIds) == 0 || slices.Contains(in.ResourceIds, id) {
			items = append(items, c.targets[id].item())
		}
	}
	c.mu.Unlock()
	if merge {
		return c.mergeList(k, "ScalableTargets", items, "", "")
	}
	return writePage(k, "ScalableTargets", items, in.NextToken, in.MaxResults, 50)
}

func (c *ControlPlane) deregisterTarget(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	if !ours {
		return c.forward(k)
	}
	id := *in.ResourceId
	c.mu.Lock()
	if _, ok := c.targets[id]; !ok {
		c.mu.Unlock()
		return notRegistered(id)
	}
	delete(c.targets, id)
	var alarms []string
	for key, p := range c.policies {
		if p.resourceID == id {
			for _, a := range p.alarms {
				alarms = append(alarms, a.AlarmName)
			}
			delete(c.policies, key)
		}
	}
	c.mu.Unlock()
	if err := c.deleteAlarms(k, alarms); err != nil {
		return err
	}
	return writeJSON(k.w, struct{}{})
}

// checkPolicy validates a policy on the component dimension.
func checkPolicy(in *scalingRequest) error {
	name := str(in.PolicyName)
	if name == "" || len(name) > 256 || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return invalid("1 validation error detected: Value '%s' at 'policyName' failed to satisfy constraint: Member must satisfy regular expression pattern: \\p{Print}+ and length between 1 and 256", name)
	}
	if in.PolicyType == nil {
		return invalid("PolicyType is required when creating a scaling policy.")
	}
	if err := checkEnum("policyType", in.PolicyType, "StepScaling", "TargetTrackingScaling", "PredictiveScaling"); err != nil {
		return err
	}
	switch *in.PolicyType {
	case "PredictiveScaling":
		return invalid("PredictiveScaling is not supported for scalable dimension %s.", ComponentDimension)
	case "StepScaling":
		s := in.StepScalingPolicyConfiguration
		if s == nil {
			return invalid("StepScalingPolicyConfiguration is required for a StepScaling policy.")
		}
		if err := checkEnum("stepScalingPolicyConfiguration.adjustmentType", s.AdjustmentType, "ChangeInCapacity", "PercentChangeInCapacity", "ExactCapacity"); err != nil {
			return err
		}
		if err := checkEnum("stepScalingPolicyConfiguration.metricAggregationType", s.MetricAggregationType, "Average", "Minimum", "Maximum"); err != nil {
			return err
		}
		for i, a := range s.StepAdjustments {
			if a.ScalingAdjustment == nil {
				return invalid("1 validation error detected: Value null at 'stepScalingPolicyConfiguration.stepAdjustments.%d.member.scalingAdjustment' failed to satisfy constraint: Member must not be null", i+1)
			}
		}
		return nil
	}
	t := in.TargetTrackingScalingPolicyConfiguration
	if t == nil {
		return invalid("TargetTrackingScalingPolicyConfiguration is required for a TargetTrackingScaling policy.")
	}
	if t.TargetValue == nil {
		return invalid("1 validation error detected: Value null at 'targetTrackingScalingPolicyConfiguration.targetValue' failed to satisfy constraint: Member must not be null")
	}
	if !(*t.TargetValue > 0) {
		return invalid("The target value %g must be greater than 0.", *t.TargetValue)
	}
	for _, p := range []struct {
		m string
		v *int
	}{{"scaleOutCooldown", t.ScaleOutCooldown}, {"scaleInCooldown", t.ScaleInCooldown}} {
		if err := atLeast("targetTrackingScalingPolicyConfiguration."+p.m, p.v, 0); err != nil {
			return err
		}
	}
	pre, cust := t.PredefinedMetricSpecification, t.CustomizedMetricSpecification
	if (pre == nil) == (cust == nil) {
		return invalid("A target tracking policy has exactly one of PredefinedMetricSpecification and CustomizedMetricSpecification.")
	}
	if pre != nil {
		if pre.PredefinedMetricType == nil {
			return invalid("1 validation error detected: Value null at 'targetTrackingScalingPolicyConfiguration.predefinedMetricSpecification.predefinedMetricType' failed to satisfy constraint: Member must not be null")
		}
		if _, ok := componentMetrics[*pre.PredefinedMetricType]; !ok {
			return invalid("Unsupported metric type %s for scalable dimension %s: use SageMakerInferenceComponentInvocationsPerCopy or SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution.",
				*pre.PredefinedMetricType, ComponentDimension)
		}
		return nil
	}
	if len(cust.Metrics) > 0 && string(cust.Metrics) != "null" {
		return invalid("Customized metrics built from metric math (Metrics) are not served by this control plane: give MetricName and Namespace.")
	}
	if str(cust.MetricName) == "" || str(cust.Namespace) == "" {
		return invalid("A CustomizedMetricSpecification needs MetricName and Namespace.")
	}
	return checkEnum("targetTrackingScalingPolicyConfiguration.customizedMetricSpecification.statistic", cust.Statistic, "Average", "Minimum", "Maximum", "SampleCount", "Sum")
}

func (c *ControlPlane) putPolicy(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	if !ours {
		return c.forward(k)
	}
	if err := checkPolicy(in); err != nil {
		return err
	}
	id, name := *in.ResourceId, *in.PolicyName
	c.mu.Lock()
	if _, ok := c.targets[id]; !ok {
		c.mu.Unlock()
		return notRegistered(id)
	}
	old := c.policies[policyKey(id, name)]
	c.mu.Unlock()
	p := &scalingPolicy{name: name, resourceID: id, policyType: *in.PolicyType, created: c.now(),
		arn: fmt.Sprintf("arn:aws:autoscaling:%s:%s:scalingPolicy:%s:resource/sagemaker/%s:policyName/%s", k.region, ControlPlaneAccount, requestID(), id, name)}
	if old != nil {
		p.arn, p.created = old.arn, old.created
		var names []string
		for _, a := range old.alarms {
			names = append(names, a.AlarmName)
		}
		if err := c.deleteAlarms(k, names); err != nil {
			return err
		}
	}
	if p.policyType == "StepScaling" {
		p.step = in.StepScalingPolicyConfiguration
	} else {
		p.tt = in.TargetTrackingScalingPolicyConfiguration
		if p.alarms, err = c.putTargetTrackingAlarms(k, p); err != nil {
			return err
		}
	}
	c.mu.Lock()
	c.policies[policyKey(id, name)] = p
	c.mu.Unlock()
	out := map[string]any{"PolicyARN": p.arn}
	if p.tt != nil {
		out["Alarms"] = p.alarms
	}
	return writeJSON(k.w, out)
}

func (p *scalingPolicy) item() map[string]any {
	m := map[string]any{"PolicyARN": p.arn, "PolicyName": p.name, "ServiceNamespace": "sagemaker", "ResourceId": p.resourceID,
		"ScalableDimension": ComponentDimension, "PolicyType": p.policyType, "CreationTime": epoch(p.created)}
	if p.tt != nil {
		m["TargetTrackingScalingPolicyConfiguration"] = p.tt
		m["Alarms"] = p.alarms
	}
	if p.step != nil {
		m["StepScalingPolicyConfiguration"] = p.step
	}
	return m
}

func (c *ControlPlane) describePolicies(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	merge := in.ScalableDimension == nil && str(in.ServiceNamespace) == "sagemaker"
	if !ours && !merge {
		return c.forward(k)
	}
	if err := inRange("maxResults", in.MaxResults, 1, 10); err != nil {
		return err
	}
	var items []map[string]any
	c.mu.Lock()
	for _, key := range slices.Sorted(maps.Keys(c.policies)) {
		p := c.policies[key]
		if (in.ResourceId == nil || *in.ResourceId == p.resourceID) && (len(in.PolicyNames) == 0 || slices.Contains(in.PolicyNames, p.name)) {
			items = append(items, p.item())
		}
	}
	c.mu.Unlock()
	if merge {
		return c.mergeList(k, "ScalingPolicies", items, "", "")
	}
	return writePage(k, "ScalingPolicies", items, in.NextToken, in.MaxResults, 10)
}

func (c *ControlPlane) deletePolicy(k *call) error {
	in, ours, err := scalingCall(k)
	if err != nil {
		return err
	}
	if !ours {
		return c.forward(k)
	}
	key := policyKey(*in.ResourceId, *in.PolicyName)
	c.mu.Lock()
	p, ok := c.policies[key]
	delete(c.policies, key)
	c.mu.Unlock()
	if !ok {
		return &apiError{"ObjectNotFoundException", fmt.Sprintf("No scaling policy found for service namespace: sagemaker, resource ID: %s, scalable dimension: %s, policy name: %s",
			*in.ResourceId, ComponentDimension, *in.PolicyName)}
	}
	var names []string
	for _, a := range p.alarms {
		names = append(names, a.AlarmName)
	}
	if err := c.deleteAlarms(k, names); err != nil {
		return err
	}
	return writeJSON(k.w, struct{}{})
}

// putTargetTrackingAlarms creates the two alarms Application Auto Scaling keeps for a target
// tracking policy, in the upstream's CloudWatch: AlarmHigh (scale out) above the target for
// three datapoints, AlarmLow (scale in, unless DisableScaleIn) under 90 % of it for fifteen
// minutes, at the metric's period (10 s high-resolution, else a minute), as scaling.Model
// describes them.
func (c *ControlPlane) putTargetTrackingAlarms(k *call, p *scalingPolicy) ([]alarmRef, error) {
	model := scaling.DefaultModel()
	ic := strings.TrimPrefix(p.resourceID, "inference-component/")
	t := p.tt
	metric, namespace, stat := "", "AWS/SageMaker", "Average"
	period := model.InvocationsPeriod
	dims := []metricDimension{{"InferenceComponentName", ic}}
	if pre := t.PredefinedMetricSpecification; pre != nil {
		m := componentMetrics[*pre.PredefinedMetricType]
		metric, stat = m.metric, "Sum"
		if m.high {
			period, stat = model.ConcurrencyPeriod, model.ConcurrencyStatistic
		}
	} else {
		cm := t.CustomizedMetricSpecification
		metric, namespace, dims = *cm.MetricName, *cm.Namespace, cm.Dimensions
		if cm.Statistic != nil {
			stat = *cm.Statistic
		}
	}
	secs := int(period / time.Second)
	type spec struct {
		kind, op  string
		points    int
		threshold float64
	}
	specs := []spec{{"AlarmHigh", "GreaterThanThreshold", model.TTHighDatapoints, *t.TargetValue}}
	if t.DisableScaleIn == nil || !*t.DisableScaleIn {
		specs = append(specs, spec{"AlarmLow", "LessThanThreshold", max(1, int(model.TTLowWindow/period)), model.TTLowFraction * *t.TargetValue})
	}
	var refs []alarmRef
	for _, s := range specs {
		name := fmt.Sprintf("TargetTracking-%s-%s-%s", p.resourceID, s.kind, requestID())
		form := url.Values{
			"Action": {"PutMetricAlarm"}, "AlarmName": {name}, "MetricName": {metric}, "Namespace": {namespace},
			"Statistic": {stat}, "Period": {strconv.Itoa(secs)}, "EvaluationPeriods": {strconv.Itoa(s.points)},
			"DatapointsToAlarm": {strconv.Itoa(s.points)}, "Threshold": {strconv.FormatFloat(s.threshold, 'g', -1, 64)},
			"ComparisonOperator": {s.op}, "AlarmActions.member.1": {p.arn},
			"AlarmDescription": {"DO NOT EDIT OR DELETE. For TargetTrackingScaling policy " + p.arn + "."},
		}
		for i, d := range dims {
			form.Set(fmt.Sprintf("Dimensions.member.%d.Name", i+1), d.Name)
			form.Set(fmt.Sprintf("Dimensions.member.%d.Value", i+1), d.Value)
		}
		if err := c.cloudWatch(k, form); err != nil {
			var names []string
			for _, r := range refs {
				names = append(names, r.AlarmName)
			}
			_ = c.deleteAlarms(k, names)
			return nil, err
		}
		refs = append(refs, alarmRef{AlarmName: name, AlarmARN: fmt.Sprintf("arn:aws:cloudwatch:%s:%s:alarm:%s", k.region, ControlPlaneAccount, name)})
	}
	return refs, nil
}

func (c *ControlPlane) deleteAlarms(k *call, names []string) error {
	if len(names) == 0 {
		return nil
	}
	form := url.Values{"Action": {"DeleteAlarms"}}
	for i, n := range names {
		form.Set(fmt.Sprintf("AlarmNames.member.%d", i+1), n)
	}
	return c.cloudWatch(k, form)
}

// cloudWatch sends a CloudWatch query-protocol request to the upstream, with the caller's
// credential scoped to the service "monitoring" (moto routes by it and checks no signature).
func (c *ControlPlane) cloudWatch(k *call, form url.Values) error {
	form.Set("Version", "2010-08-01")
	req, err := http.NewRequestWithContext(k.r.Context(), http.MethodPost, c.upstream.String()+"/", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	date := k.r.Header.Get("X-Amz-Date")
	if _, err := time.Parse("20060102T150405Z", date); err != nil {
		date = c.now().UTC().Format("20060102T150405Z")
	}
	akid := "control-plane"
	if auth := k.r.Header.Get("Authorization"); strings.Contains(auth, "Credential=") {
		cred := auth[strings.Index(auth, "Credential=")+len("Credential="):]
		if id, _, ok := strings.Cut(cred, "/"); ok && id != "" {
			akid = id
		}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	req.Header.Set("X-Amz-Date", date)
	req.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s/%s/monitoring/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=%s",
		akid, date[:8], k.region, strings.Repeat("0", 64)))
	status, body, err := c.do(req)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("cloudwatch %s: upstream answered %d: %.300s", form.Get("Action"), status, body)
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// writePage answers a list operation with one page of items under key, and the token of the
// next page when there is one.
func writePage(k *call, key string, items []map[string]any, token *string, maxResults *int, def int) error {
	got, next, err := page(items, token, maxResults, def)
	if err != nil {
		return err
	}
	out := map[string]any{key: nonNil(got)}
	if next != nil {
		out["NextToken"] = *next
	}
	return writeJSON(k.w, out)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

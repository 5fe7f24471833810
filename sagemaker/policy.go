package sagemaker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/scaling"
)

// endpointPlaceholder is what `kokoro plan` writes where it did not know the endpoint.
const endpointPlaceholder = "${ENDPOINT_NAME}"

// ForEndpoint returns the plan's documents for endpoint: a plan made without --endpoint has a
// placeholder in its names, filled here; a plan made for another endpoint is refused, since
// its thresholds were measured for that one's configuration. An empty endpoint takes the
// plan's own.
func ForEndpoint(d scaling.Documents, endpoint string) (scaling.Documents, string, error) {
	if d.ScalableTarget == nil {
		return d, "", errors.New("the plan has no policy documents (a STOP finding withholds them): fix what `kokoro plan` reports first")
	}
	b, err := json.Marshal(d)
	if err != nil {
		return d, "", err
	}
	planned := strings.TrimPrefix(d.ScalableTarget.ResourceID, "endpoint/")
	planned, _, _ = strings.Cut(planned, "/")
	switch {
	case planned == endpointPlaceholder && endpoint == "":
		return d, "", errors.New("the plan names no endpoint: pass --endpoint")
	case planned == endpointPlaceholder:
		if err := ValidateName(endpoint); err != nil {
			return d, "", err
		}
		b = []byte(strings.ReplaceAll(string(b), endpointPlaceholder, endpoint))
	case endpoint != "" && endpoint != planned:
		return d, "", fmt.Errorf("the plan was made for endpoint %s, not %s: run `kokoro plan --endpoint %s` with %s's measurements", planned, endpoint, endpoint, endpoint)
	default:
		endpoint = planned
	}
	var out scaling.Documents
	if err := json.Unmarshal(b, &out); err != nil {
		return d, "", err
	}
	return out, endpoint, nil
}

// Change is one field where the deployed state differs from the plan.
type Change struct {
	Resource string `json:"resource"` // "scalable target", "policy NAME", "alarm NAME"
	Field    string `json:"field"`
	Live     string `json:"live"`
	Plan     string `json:"plan"`
}

func (c Change) String() string {
	return fmt.Sprintf("%s %s: deployed %s, plan %s", c.Resource, c.Field, c.Live, c.Plan)
}

// LiveScaling is what is deployed for a variant.
type LiveScaling struct {
	Target   *Target
	Policies []aastypes.ScalingPolicy
	Alarms   map[string]*cwtypes.MetricAlarm // the plan's own alarms (step policies'), by name
}

// Policy returns the named live policy.
func (l *LiveScaling) Policy(name string) (aastypes.ScalingPolicy, bool) {
	for _, p := range l.Policies {
		if aws.ToString(p.PolicyName) == name {
			return p, true
		}
	}
	return aastypes.ScalingPolicy{}, false
}

// ReadScaling reads the deployed scalable target, policies and scale-in alarm the documents
// describe. It changes nothing.
func (c *Control) ReadScaling(ctx context.Context, d scaling.Documents) (*LiveScaling, error) {
	rid := d.ScalableTarget.ResourceID
	t, err := c.scalableTarget(ctx, rid)
	if err != nil {
		return nil, err
	}
	live := &LiveScaling{Target: t}
	if live.Policies, err = c.policies(ctx, rid); err != nil {
		return nil, err
	}
	var names []string
	for _, a := range d.Alarms() {
		names = append(names, a.AlarmName)
	}
	if len(names) == 0 {
		return live, nil
	}
	out, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: names})
	if err != nil {
		return nil, fmt.Errorf("describe alarms %s: %w", strings.Join(names, ", "), c.explain(err))
	}
	live.Alarms = map[string]*cwtypes.MetricAlarm{}
	for i := range out.MetricAlarms {
		a := &out.MetricAlarms[i]
		live.Alarms[aws.ToString(a.AlarmName)] = a
	}
	return live, nil
}

// Diff compares what is deployed with the documents, field by field. Each step policy's alarm
// must act on the live policy; a policy on the target that the plan does not name is drift too.
func Diff(d scaling.Documents, live *LiveScaling) []Change {
	var ch []Change
	add := func(res, field string, l, p any) {
		ch = append(ch, Change{Resource: res, Field: field, Live: fmt.Sprint(l), Plan: fmt.Sprint(p)})
	}
	// Scalable target.
	st := d.ScalableTarget
	if live.Target == nil {
		add("scalable target "+st.ResourceID, "registration", "missing", "registered")
	} else {
		t := live.Target
		if t.MinCapacity != st.MinCapacity {
			add("scalable target", "MinCapacity", t.MinCapacity, st.MinCapacity)
		}
		if t.MaxCapacity != st.MaxCapacity {
			add("scalable target", "MaxCapacity", t.MaxCapacity, st.MaxCapacity)
		}
		if t.Suspended.Any() {
			add("scalable target", "SuspendedState", suspendedText(t.Suspended), "none (a bench run froze it? `kokoro thaw`)")
		}
	}
	// The policies.
	planned := map[string]bool{}
	if tt := d.TargetTracking; tt != nil {
		planned[tt.PolicyName] = true
		diffTargetTracking(tt, live, add)
	}
	arns := map[string]string{} // alarm name → the ARN of the live policy it must act on
	for _, pair := range []struct {
		p *scaling.ScalingPolicy
		a *scaling.MetricAlarm
	}{{d.StepScaleOut, d.ScaleOutAlarm}, {d.StepScaleIn, d.ScaleInAlarm}} {
		if pair.p == nil {
			continue
		}
		planned[pair.p.PolicyName] = true
		arn := diffStep(pair.p, live, add)
		if pair.a != nil {
			arns[pair.a.AlarmName] = arn
		}
	}
	// Extra policies fight the plan's: report every one.
	for _, p := range live.Policies {
		if n := aws.ToString(p.PolicyName); !planned[n] {
			add("policy "+n, "existence", "present ("+string(p.PolicyType)+")", "not in the plan")
		}
	}
	// The alarms.
	for _, al := range d.Alarms() {
		diffAlarm(al, live.Alarms[al.AlarmName], arns[al.AlarmName], add)
	}
	return ch
}

func diffTargetTracking(tt *scaling.ScalingPolicy, live *LiveScaling, add func(res, field string, l, p any)) {
	res := "policy " + tt.PolicyName
	p, ok := live.Policy(tt.PolicyName)
	if !ok {
		add(res, "existence", "missing", "present")
		return
	}
	want := tt.TargetTrackingScalingPolicyConfiguration
	if p.PolicyType != aastypes.PolicyType(tt.PolicyType) {
		add(res, "PolicyType", p.PolicyType, tt.PolicyType)
	}
	got := p.TargetTrackingScalingPolicyConfiguration
	if got == nil {
		add(res, "TargetTrackingScalingPolicyConfiguration", "missing", "present")
		return
	}
	if !same(aws.ToFloat64(got.TargetValue), want.TargetValue) {
		add(res, "TargetValue", aws.ToFloat64(got.TargetValue), want.TargetValue)
	}
	metric := ""
	if got.PredefinedMetricSpecification != nil {
		metric = string(got.PredefinedMetricSpecification.PredefinedMetricType)
	} else if got.CustomizedMetricSpecification != nil {
		metric = "(customized metric)"
	}
	if metric != want.PredefinedMetricSpecification.PredefinedMetricType {
		add(res, "PredefinedMetricType", metric, want.PredefinedMetricSpecification.PredefinedMetricType)
	}
	if v := int(aws.ToInt32(got.ScaleOutCooldown)); v != want.ScaleOutCooldown {
		add(res, "ScaleOutCooldown", v, want.ScaleOutCooldown)
	}
	if v := int(aws.ToInt32(got.ScaleInCooldown)); v != want.ScaleInCooldown {
		add(res, "ScaleInCooldown", v, want.ScaleInCooldown)
	}
	if v := aws.ToBool(got.DisableScaleIn); v != want.DisableScaleIn {
		add(res, "DisableScaleIn", v, want.DisableScaleIn)
	}
}

// diffStep compares a step policy and returns the live one's ARN ("" when it is missing).
func diffStep(sp *scaling.ScalingPolicy, live *LiveScaling, add func(res, field string, l, p any)) string {
	res := "policy " + sp.PolicyName
	p, ok := live.Policy(sp.PolicyName)
	if !ok {
		add(res, "existence", "missing", "present")
		return ""
	}
	want := sp.StepScalingPolicyConfiguration
	if p.PolicyType != aastypes.PolicyType(sp.PolicyType) {
		add(res, "PolicyType", p.PolicyType, sp.PolicyType)
	}
	got := p.StepScalingPolicyConfiguration
	if got == nil {
		add(res, "StepScalingPolicyConfiguration", "missing", "present")
		return aws.ToString(p.PolicyARN)
	}
	if string(got.AdjustmentType) != want.AdjustmentType {
		add(res, "AdjustmentType", got.AdjustmentType, want.AdjustmentType)
	}
	if v := int(aws.ToInt32(got.MinAdjustmentMagnitude)); v != want.MinAdjustmentMagnitude {
		add(res, "MinAdjustmentMagnitude", v, want.MinAdjustmentMagnitude)
	}
	if v := int(aws.ToInt32(got.Cooldown)); v != want.Cooldown {
		add(res, "Cooldown", v, want.Cooldown)
	}
	if string(got.MetricAggregationType) != want.MetricAggregationType {
		add(res, "MetricAggregationType", got.MetricAggregationType, want.MetricAggregationType)
	}
	if l, p := liveSteps(got.StepAdjustments), planSteps(want.StepAdjustments); l != p {
		add(res, "StepAdjustments", l, p)
	}
	return aws.ToString(p.PolicyARN)
}

func diffAlarm(al *scaling.MetricAlarm, a *cwtypes.MetricAlarm, arn string, add func(res, field string, l, p any)) {
	res := "alarm " + al.AlarmName
	if a == nil {
		add(res, "existence", "missing", "present")
		return
	}
	cmp := func(field string, l, p any) {
		if fmt.Sprint(l) != fmt.Sprint(p) {
			add(res, field, l, p)
		}
	}
	cmp("Namespace", aws.ToString(a.Namespace), al.Namespace)
	cmp("MetricName", aws.ToString(a.MetricName), al.MetricName)
	cmp("Dimensions", liveDims(a.Dimensions), planDims(al.Dimensions))
	cmp("Statistic", a.Statistic, al.Statistic)
	cmp("Period", aws.ToInt32(a.Period), al.Period)
	cmp("EvaluationPeriods", aws.ToInt32(a.EvaluationPeriods), al.EvaluationPeriods)
	cmp("DatapointsToAlarm", aws.ToInt32(a.DatapointsToAlarm), al.DatapointsToAlarm)
	if !same(aws.ToFloat64(a.Threshold), al.Threshold) {
		add(res, "Threshold", aws.ToFloat64(a.Threshold), al.Threshold)
	}
	cmp("ComparisonOperator", a.ComparisonOperator, al.ComparisonOperator)
	cmp("TreatMissingData", aws.ToString(a.TreatMissingData), al.TreatMissingData)
	cmp("ActionsEnabled", aws.ToBool(a.ActionsEnabled), al.ActionsEnabled)
	want := "[" + arn + "]"
	if arn == "" {
		want = "[the step policy's ARN]"
	}
	cmp("AlarmActions", fmt.Sprint(a.AlarmActions), want)
}

// same compares two thresholds up to the rounding JSON and the APIs may add.
func same(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func suspendedText(s Suspension) string {
	var parts []string
	if s.DynamicIn {
		parts = append(parts, "scale-in")
	}
	if s.DynamicOut {
		parts = append(parts, "scale-out")
	}
	if s.Scheduled {
		parts = append(parts, "scheduled")
	}
	return strings.Join(parts, ",")
}

func bound(p *float64) string {
	if p == nil {
		return "∞"
	}
	return fmt.Sprint(*p)
}

func liveSteps(s []aastypes.StepAdjustment) string {
	parts := make([]string, len(s))
	for i, a := range s {
		parts[i] = fmt.Sprintf("[%s,%s)→%d", bound(a.MetricIntervalLowerBound), bound(a.MetricIntervalUpperBound), aws.ToInt32(a.ScalingAdjustment))
	}
	return strings.Join(parts, " ")
}

func planSteps(s []scaling.StepAdjustment) string {
	parts := make([]string, len(s))
	for i, a := range s {
		parts[i] = fmt.Sprintf("[%s,%s)→%d", bound(a.MetricIntervalLowerBound), bound(a.MetricIntervalUpperBound), a.ScalingAdjustment)
	}
	return strings.Join(parts, " ")
}

func liveDims(ds []cwtypes.Dimension) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = aws.ToString(d.Name) + "=" + aws.ToString(d.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func planDims(ds []scaling.Dimension) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Name + "=" + d.Value
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// ApplyOptions control an apply.
type ApplyOptions struct {
	DryRun bool
	OnStep func(Step)
}

// Apply makes the deployed scaling match the documents: the scalable target, the target-
// tracking policy, each step policy and its alarm (which names the step policy's ARN, known
// only once the policy exists), and the removal of policies the plan does not name, with the
// alarms that acted on them. It
// returns the changes it found first; with none it calls nothing. A suspended target is
// refused: a measurement has frozen it, and un-suspending it would spoil that measurement.
func (c *Control) Apply(ctx context.Context, d scaling.Documents, o ApplyOptions) ([]Change, []Step, error) {
	live, err := c.ReadScaling(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	changes := Diff(d, live)
	if len(changes) == 0 {
		return nil, nil, nil
	}
	if live.Target != nil && live.Target.Suspended.Any() {
		return changes, nil, fmt.Errorf("scaling of %s is suspended (%s): a bench run froze it; let it finish or run `kokoro thaw`, then apply", d.ScalableTarget.ResourceID, suspendedText(live.Target.Suspended))
	}
	var steps []Step
	run := func(name string, call Call, do func() error) error {
		s := Step{Name: name, Call: &call}
		if o.DryRun {
			s.Note = "dry run: not called"
		} else if err := do(); err != nil {
			return fmt.Errorf("%s: %w", name, c.explain(err))
		}
		steps = append(steps, s)
		if o.OnStep != nil {
			o.OnStep(s)
		}
		return nil
	}
	st := d.ScalableTarget
	reg := registerInput(Target{ResourceID: st.ResourceID, MinCapacity: st.MinCapacity, MaxCapacity: st.MaxCapacity})
	if err := run("register scalable target", Call{Op: "application-autoscaling:RegisterScalableTarget", Input: reg}, func() error {
		_, err := c.Scaling.RegisterScalableTarget(ctx, reg)
		return err
	}); err != nil {
		return changes, steps, err
	}
	// Delete the policies the plan does not name, and those whose type it changes (a policy
	// of the same name of another type is a new policy).
	planned := map[string]string{}
	for _, p := range d.Policies() {
		planned[p.PolicyName] = p.PolicyType
	}
	for _, p := range live.Policies {
		if planned[aws.ToString(p.PolicyName)] == string(p.PolicyType) {
			continue
		}
		in := &aas.DeleteScalingPolicyInput{PolicyName: p.PolicyName, ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
			ScalableDimension: dimensionOf(st.ResourceID), ResourceId: aws.String(st.ResourceID)}
		if err := run("delete policy "+aws.ToString(p.PolicyName), Call{Op: "application-autoscaling:DeleteScalingPolicy", Input: in}, func() error {
			_, err := c.Scaling.DeleteScalingPolicy(ctx, in)
			return err
		}); err != nil {
			return changes, steps, err
		}
		// Deleting a step policy leaves its alarm, acting on nothing: delete the alarms that
		// acted on it and that the documents do not name.
		stale, err := c.alarmsActingOn(ctx, p, d)
		if err != nil {
			return changes, steps, err
		}
		if len(stale) == 0 {
			continue
		}
		del := &cloudwatch.DeleteAlarmsInput{AlarmNames: stale}
		if err := run("delete alarm "+strings.Join(stale, ", "), Call{Op: "cloudwatch:DeleteAlarms", Input: del}, func() error {
			_, err := c.CloudWatch.DeleteAlarms(ctx, del)
			return err
		}); err != nil {
			return changes, steps, err
		}
	}
	if d.TargetTracking != nil {
		ttIn := ttPolicyInput(d.TargetTracking)
		if err := run("put target-tracking policy", Call{Op: "application-autoscaling:PutScalingPolicy", Input: ttIn}, func() error {
			_, err := c.Scaling.PutScalingPolicy(ctx, ttIn)
			return err
		}); err != nil {
			return changes, steps, err
		}
	}
	// A step policy, then its alarm, which names the policy's ARN.
	for _, pair := range []struct {
		name        string
		p           *scaling.ScalingPolicy
		a           *scaling.MetricAlarm
		placeholder string
	}{{"scale-out", d.StepScaleOut, d.ScaleOutAlarm, scaling.StepScaleOutARNPlaceholder}, {"scale-in", d.StepScaleIn, d.ScaleInAlarm, scaling.StepPolicyARNPlaceholder}} {
		if pair.p == nil {
			continue
		}
		stepIn := stepPolicyInput(pair.p)
		arn := pair.placeholder
		if err := run("put step "+pair.name+" policy", Call{Op: "application-autoscaling:PutScalingPolicy", Input: stepIn}, func() error {
			out, err := c.Scaling.PutScalingPolicy(ctx, stepIn)
			if err == nil {
				arn = aws.ToString(out.PolicyARN)
			}
			return err
		}); err != nil {
			return changes, steps, err
		}
		if pair.a == nil {
			continue
		}
		alIn := alarmInput(pair.a, pair.placeholder, arn)
		if err := run("put "+pair.name+" alarm", Call{Op: "cloudwatch:PutMetricAlarm", Input: alIn}, func() error {
			_, err := c.CloudWatch.PutMetricAlarm(ctx, alIn)
			return err
		}); err != nil {
			return changes, steps, err
		}
	}
	return changes, steps, nil
}

// alarmsActingOn returns the alarms that act on step policy p and that d does not name: those
// the policy lists, and the alarm of the policy's own name (this package names a step
// policy's alarm after it).
func (c *Control) alarmsActingOn(ctx context.Context, p aastypes.ScalingPolicy, d scaling.Documents) ([]string, error) {
	if p.PolicyType != aastypes.PolicyTypeStepScaling {
		return nil, nil
	}
	keep := map[string]bool{}
	for _, a := range d.Alarms() {
		keep[a.AlarmName] = true
	}
	names := []string{aws.ToString(p.PolicyName)}
	for _, a := range p.Alarms {
		if n := aws.ToString(a.AlarmName); n != names[0] {
			names = append(names, n)
		}
	}
	out, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: names})
	if err != nil {
		return nil, fmt.Errorf("describe alarms %s: %w", strings.Join(names, ", "), c.explain(err))
	}
	var stale []string
	for _, a := range out.MetricAlarms {
		n := aws.ToString(a.AlarmName)
		if !keep[n] && slices.Contains(a.AlarmActions, aws.ToString(p.PolicyARN)) {
			stale = append(stale, n)
		}
	}
	return stale, nil
}

func ttPolicyInput(p *scaling.ScalingPolicy) *aas.PutScalingPolicyInput {
	cfg := p.TargetTrackingScalingPolicyConfiguration
	return &aas.PutScalingPolicyInput{
		PolicyName:        aws.String(p.PolicyName),
		ServiceNamespace:  aastypes.ServiceNamespace(p.ServiceNamespace),
		ResourceId:        aws.String(p.ResourceID),
		ScalableDimension: aastypes.ScalableDimension(p.ScalableDimension),
		PolicyType:        aastypes.PolicyType(p.PolicyType),
		TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{
			TargetValue:                   aws.Float64(cfg.TargetValue),
			PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{PredefinedMetricType: aastypes.MetricType(cfg.PredefinedMetricSpecification.PredefinedMetricType)},
			ScaleOutCooldown:              aws.Int32(int32(cfg.ScaleOutCooldown)),
			ScaleInCooldown:               aws.Int32(int32(cfg.ScaleInCooldown)),
			DisableScaleIn:                aws.Bool(cfg.DisableScaleIn),
		},
	}
}

func stepPolicyInput(p *scaling.ScalingPolicy) *aas.PutScalingPolicyInput {
	cfg := p.StepScalingPolicyConfiguration
	steps := make([]aastypes.StepAdjustment, len(cfg.StepAdjustments))
	for i, s := range cfg.StepAdjustments {
		steps[i] = aastypes.StepAdjustment{
			MetricIntervalLowerBound: s.MetricIntervalLowerBound,
			MetricIntervalUpperBound: s.MetricIntervalUpperBound,
			ScalingAdjustment:        aws.Int32(int32(s.ScalingAdjustment)),
		}
	}
	return &aas.PutScalingPolicyInput{
		PolicyName:        aws.String(p.PolicyName),
		ServiceNamespace:  aastypes.ServiceNamespace(p.ServiceNamespace),
		ResourceId:        aws.String(p.ResourceID),
		ScalableDimension: aastypes.ScalableDimension(p.ScalableDimension),
		PolicyType:        aastypes.PolicyType(p.PolicyType),
		StepScalingPolicyConfiguration: &aastypes.StepScalingPolicyConfiguration{
			AdjustmentType:         aastypes.AdjustmentType(cfg.AdjustmentType),
			StepAdjustments:        steps,
			Cooldown:               aws.Int32(int32(cfg.Cooldown)),
			MetricAggregationType:  aastypes.MetricAggregationType(cfg.MetricAggregationType),
			MinAdjustmentMagnitude: minMagnitude(cfg.MinAdjustmentMagnitude),
		},
	}
}

// alarmInput is the PutMetricAlarm request of a, its placeholder action replaced by the ARN.
func alarmInput(a *scaling.MetricAlarm, placeholder, stepARN string) *cloudwatch.PutMetricAlarmInput {
	dims := make([]cwtypes.Dimension, len(a.Dimensions))
	for i, d := range a.Dimensions {
		dims[i] = cwtypes.Dimension{Name: aws.String(d.Name), Value: aws.String(d.Value)}
	}
	actions := slices.Clone(a.AlarmActions)
	for i, act := range actions {
		if act == placeholder {
			actions[i] = stepARN
		}
	}
	return &cloudwatch.PutMetricAlarmInput{
		AlarmName:          aws.String(a.AlarmName),
		AlarmDescription:   aws.String(a.AlarmDescription),
		Namespace:          aws.String(a.Namespace),
		MetricName:         aws.String(a.MetricName),
		Dimensions:         dims,
		Statistic:          cwtypes.Statistic(a.Statistic),
		Period:             aws.Int32(int32(a.Period)),
		EvaluationPeriods:  aws.Int32(int32(a.EvaluationPeriods)),
		DatapointsToAlarm:  aws.Int32(int32(a.DatapointsToAlarm)),
		Threshold:          aws.Float64(a.Threshold),
		ComparisonOperator: cwtypes.ComparisonOperator(a.ComparisonOperator),
		TreatMissingData:   aws.String(a.TreatMissingData),
		ActionsEnabled:     aws.Bool(a.ActionsEnabled),
		AlarmActions:       actions,
	}
}

// minMagnitude is MinAdjustmentMagnitude for the API: unset when 0 (it is valid only with
// PercentChangeInCapacity).
func minMagnitude(n int) *int32 {
	if n == 0 {
		return nil
	}
	return aws.Int32(int32(n))
}

// ScaleOutAlarms names the alarms that scale the variant out: the step scale-out alarm of the
// plan, or those Application Auto Scaling created for the target-tracking policy
// (DescribeScalingPolicies lists them; their names are generated).
func (l *LiveScaling) ScaleOutAlarms(d scaling.Documents) []string {
	if d.ScaleOutAlarm != nil {
		return []string{d.ScaleOutAlarm.AlarmName}
	}
	if d.TargetTracking == nil {
		return nil
	}
	p, ok := l.Policy(d.TargetTracking.PolicyName)
	if !ok {
		return nil
	}
	var out []string
	for _, a := range p.Alarms {
		out = append(out, aws.ToString(a.AlarmName))
	}
	return out
}

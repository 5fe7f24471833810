package planner

import (
	"math"
	"strings"
	"testing"
)

// TestComponentFromCopies: a ladder of two copies per instance gives the proposal as an
// inference component's scaling: the per-instance target shared between the copies on the
// matching per-copy metric, the copies' bounds twice the instances', managed instance scaling
// between the proposal's; one copy gives none.
func TestComponentFromCopies(t *testing.T) {
	t.Parallel()
	in := refInputs(t)
	sc := refScenario()
	sc.SurgeTrials = 20
	one, err := Make(in, sc)
	if err != nil {
		t.Fatal(err)
	}
	if one.Component != nil {
		t.Fatalf("one copy: %+v, want no component", one.Component)
	}
	two := *in.Qmax
	two.Target.Copies = 2
	in.Qmax = &two
	in.TTotal = nil
	sc.AssumeTTotalS = one.Thresholds.TTotalS
	p, err := Make(in, sc)
	if err != nil {
		t.Fatal(err)
	}
	c, d := p.Component, p.Documents
	if c == nil || c.Skipped != "" || d.TargetTracking == nil {
		t.Fatalf("component %+v for documents %+v", c, d)
	}
	want := d.TargetTracking.TargetTrackingScalingPolicyConfiguration.TargetValue / 2
	got := c.TargetTracking.TargetTrackingScalingPolicyConfiguration
	metric := map[string]string{PredefinedMetricType: ComponentConcurrencyMetric, "SageMakerVariantInvocationsPerInstance": ComponentInvocationsMetric}[d.TargetTracking.TargetTrackingScalingPolicyConfiguration.PredefinedMetricSpecification.PredefinedMetricType]
	if math.Abs(got.TargetValue-want) > 1e-9 || got.PredefinedMetricSpecification.PredefinedMetricType != metric || got.DisableScaleIn {
		t.Errorf("per-copy policy %+v, want target %v on %s with scale-in", got, want, metric)
	}
	if c.ScalableTarget.ScalableDimension != ComponentDimension || !strings.HasPrefix(c.ScalableTarget.ResourceID, "inference-component/") ||
		c.ScalableTarget.MinCapacity != 2*d.ScalableTarget.MinCapacity || c.ScalableTarget.MaxCapacity != 2*d.ScalableTarget.MaxCapacity {
		t.Errorf("copies' target %+v for the instances' %+v", c.ScalableTarget, d.ScalableTarget)
	}
	if m := c.ManagedInstanceScaling; m.Status != "ENABLED" || m.MinInstanceCount != d.ScalableTarget.MinCapacity || m.MaxInstanceCount != d.ScalableTarget.MaxCapacity {
		t.Errorf("managed instance scaling %+v", m)
	}
	files, err := p.Files(Page{})
	if err != nil {
		t.Fatal(err)
	}
	var rep strings.Builder
	if err := p.WriteReport(&rep); err != nil {
		t.Fatal(err)
	}
	if _, ok := files[FileComponent]; !ok || !strings.Contains(rep.String(), "Inference component (2 copies") {
		t.Errorf("files %v, report without the component:\n%s", FileNames(files), rep.String())
	}
}

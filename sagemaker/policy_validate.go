package sagemaker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/scaling"
)

// Check is one finding of policy validation.
type Check struct {
	Name    string `json:"check"`
	Verdict string `json:"verdict"` // "ok", "warn" or "fail"
	Detail  string `json:"detail"`
}

// Verdicts of a Check.
const (
	CheckOK   = "ok"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// ScaleOutAlarmNames are the alarms of the target-tracking policy: those Application Auto
// Scaling lists on it, else those of its naming for the resource
// ("TargetTracking-endpoint/E/variant/V-AlarmHigh-…").
func (c *Control) ScaleOutAlarmNames(ctx context.Context, live *LiveScaling, d scaling.Documents) ([]string, error) {
	var names []string
	for _, n := range live.ScaleOutAlarms(d) {
		if strings.Contains(n, "AlarmHigh") {
			names = append(names, n)
		}
	}
	if len(names) > 0 {
		return names, nil
	}
	prefix := "TargetTracking-" + d.ScalableTarget.ResourceID + "-AlarmHigh-"
	out, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNamePrefix: aws.String(prefix)})
	if err != nil {
		return nil, fmt.Errorf("describe alarms %s…: %w", prefix, c.explain(err))
	}
	for _, a := range out.MetricAlarms {
		names = append(names, aws.ToString(a.AlarmName))
	}
	return names, nil
}

// Validate checks the deployed policy against the plan: no drift, the endpoint in service
// inside the target's limits, the container's queue bound the plan's, and the target-tracking
// alarms present. It changes nothing.
func (c *Control) Validate(ctx context.Context, d scaling.Documents, endpoint, variant string) ([]Check, *LiveScaling, error) {
	live, err := c.ReadScaling(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	var checks []Check
	add := func(name, verdict, format string, args ...any) {
		checks = append(checks, Check{Name: name, Verdict: verdict, Detail: fmt.Sprintf(format, args...)})
	}
	if ch := Diff(d, live); len(ch) == 0 {
		add("drift", CheckOK, "target, policies and alarm match the plan")
	} else {
		parts := make([]string, len(ch))
		for i, x := range ch {
			parts[i] = x.String()
		}
		add("drift", CheckFail, "%d difference(s): %s (`kokoro policy apply` repairs them)", len(ch), strings.Join(parts, "; "))
	}
	info, err := c.Describe(ctx, endpoint)
	if err != nil {
		return checks, live, err
	}
	v, ok := info.Variant(variant)
	switch {
	case info.Status != StatusInService:
		add("endpoint", CheckFail, "%s is %s", endpoint, info.Status)
	case !ok:
		add("endpoint", CheckFail, "no variant %s", variant)
	default:
		add("endpoint", CheckOK, "%s InService, %d instance(s) of %s", endpoint, v.Current, v.InstanceType)
	}
	// What the target scales: the variant's instances, or an inference component's copies.
	count, unit, env := v.Current, "instance(s)", v.Env
	if name, isComponent := strings.CutPrefix(d.ScalableTarget.ResourceID, scaling.ComponentResourcePrefix); isComponent {
		var ci *ComponentInfo
		for i := range info.Components {
			if info.Components[i].Name == name {
				ci = &info.Components[i]
			}
		}
		switch {
		case ci == nil:
			add("inference component", CheckFail, "%s has no inference component %s (`kokoro endpoint deploy --plan` makes it)", endpoint, name)
			ok = false
		case ci.Status != StatusInService:
			add("inference component", CheckFail, "%s is %s", name, ci.Status)
		default:
			add("inference component", CheckOK, "%s InService, %d copies of %s", name, ci.Current, ci.Model)
		}
		if ci != nil {
			count, unit, env = ci.Current, "copies", ci.Env
		}
	}
	if live.Target != nil && ok {
		if count < live.Target.MinCapacity || count > live.Target.MaxCapacity {
			add("capacity", CheckWarn, "%d %s, outside the target's %d–%d: Application Auto Scaling will move it", count, unit, live.Target.MinCapacity, live.Target.MaxCapacity)
		} else {
			add("capacity", CheckOK, "%d %s within %d–%d", count, unit, live.Target.MinCapacity, live.Target.MaxCapacity)
		}
	}
	for k, want := range d.ContainerEnv {
		switch got, has := env[k]; {
		case !has:
			add("container "+k, CheckFail, "the endpoint's container has no %s; the plan sets %s (`kokoro endpoint deploy --container-env container-env.json`)", k, want)
		case got != want:
			add("container "+k, CheckFail, "the endpoint's container has %s=%s, the plan %s (`kokoro endpoint deploy --container-env container-env.json`)", k, got, want)
		default:
			add("container "+k, CheckOK, "%s=%s as planned", k, got)
		}
	}
	names, err := c.ScaleOutAlarmNames(ctx, live, d)
	if err != nil {
		return checks, live, err
	}
	if len(names) == 0 {
		add("scale-out alarm", CheckWarn, "no alarm of the target-tracking policy found: Application Auto Scaling creates them with the policy; without one nothing scales out")
	} else {
		states, err := c.Alarms(ctx, names)
		if err != nil {
			return checks, live, err
		}
		for _, s := range states {
			add("scale-out alarm", CheckOK, "%s is %s", s.Name, s.State)
		}
	}
	return checks, live, nil
}

// ScalingObs is one reading of a variant while a probe drives it.
type ScalingObs struct {
	At               time.Time
	Desired, Current int
	Status           string
	Alarms           []AlarmState
}

// WatchScaling reads the counts of what scales — the variant's instances, or with a component
// name that inference component's copies — and the named alarms every interval until ctx
// ends, handing each reading to on. Read errors end the watch.
func (c *Control) WatchScaling(ctx context.Context, endpoint, variant, component string, alarms []string, every time.Duration, on func(ScalingObs)) error {
	var readErr error
	_ = ctxtime.PollUntil(ctx, every, time.Time{}, func() (bool, error) {
		var o ScalingObs
		if component != "" {
			ci, err := c.DescribeComponent(ctx, component)
			if err != nil {
				readErr = err
				return false, err
			}
			o = ScalingObs{At: time.Now().UTC(), Status: ci.Status, Desired: ci.Desired, Current: ci.Current}
		} else {
			info, err := c.endpointStatus(ctx, endpoint)
			if err != nil {
				readErr = err
				return false, err
			}
			o = ScalingObs{At: time.Now().UTC(), Status: info.Status}
			if v, ok := info.Variant(variant); ok {
				o.Desired, o.Current = v.Desired, v.Current
			}
		}
		var err error
		if o.Alarms, err = c.Alarms(ctx, alarms); err != nil {
			readErr = err
			return false, err
		}
		on(o)
		return false, nil
	})
	// The watch ends when ctx does; only a failed read is an error.
	return readErr
}

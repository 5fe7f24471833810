package sagemaker

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
)

// PlanRestore reads what is deployed now and returns the calls Restore would make to put st
// back, each with the fields it changes: the desired instance count, the scalable target's
// limits and suspended state, and the recorded policies that went missing. It changes
// nothing: it is `kokoro thaw --dry-run`. No calls means the variant is already as recorded.
func (c *Control) PlanRestore(ctx context.Context, st FreezeState) ([]Call, error) {
	var calls []Call
	if st.Pin > 0 || st.RestoreCount {
		info, err := c.endpointStatus(ctx, st.Endpoint)
		if err != nil {
			return nil, err
		}
		v, ok := info.Variant(st.Variant)
		if !ok {
			return nil, noVariant(info, st.Variant)
		}
		if v.Desired != st.DesiredInstanceCount {
			in := &sm.UpdateEndpointWeightsAndCapacitiesInput{
				EndpointName: aws.String(st.Endpoint),
				DesiredWeightsAndCapacities: []smtypes.DesiredWeightAndCapacity{{
					VariantName: aws.String(st.Variant), DesiredInstanceCount: aws.Int32(int32(st.DesiredInstanceCount)),
				}},
			}
			calls = append(calls, Call{Op: "sagemaker:UpdateEndpointWeightsAndCapacities", Input: in,
				Changes: []string{fmt.Sprintf("variant %s DesiredInstanceCount %d → %d", st.Variant, v.Desired, st.DesiredInstanceCount)}})
		}
	}
	if st.Target == nil {
		return calls, nil
	}
	rec := *st.Target
	live, err := c.scalableTarget(ctx, rec.ResourceID)
	if err != nil {
		return nil, err
	}
	var ch []string
	if live == nil {
		ch = append(ch, "registered again (it is gone)", fmt.Sprintf("MinCapacity %d", rec.MinCapacity), fmt.Sprintf("MaxCapacity %d", rec.MaxCapacity),
			"suspended "+suspensionText(rec.Suspended))
	} else {
		if live.MinCapacity != rec.MinCapacity {
			ch = append(ch, fmt.Sprintf("MinCapacity %d → %d", live.MinCapacity, rec.MinCapacity))
		}
		if live.MaxCapacity != rec.MaxCapacity {
			ch = append(ch, fmt.Sprintf("MaxCapacity %d → %d", live.MaxCapacity, rec.MaxCapacity))
		}
		if live.Suspended != rec.Suspended {
			ch = append(ch, fmt.Sprintf("suspended %s → %s", suspensionText(live.Suspended), suspensionText(rec.Suspended)))
		}
	}
	if len(ch) > 0 {
		calls = append(calls, Call{Op: "application-autoscaling:RegisterScalableTarget", Input: registerInput(rec), Changes: ch})
	}
	if len(st.Policies) == 0 {
		return calls, nil
	}
	pols, err := c.policies(ctx, rec.ResourceID)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, p := range pols {
		have[aws.ToString(p.PolicyName)] = true
	}
	for _, p := range st.Policies {
		if !have[aws.ToString(p.PolicyName)] {
			calls = append(calls, Call{Op: "application-autoscaling:PutScalingPolicy", Input: putPolicyInput(p),
				Changes: []string{"put back (" + string(p.PolicyType) + " on " + rec.ResourceID + ")"}})
		}
	}
	return calls, nil
}

// suspensionText names the kinds of scaling suspended, "none" when none is.
func suspensionText(s Suspension) string {
	if !s.Any() {
		return "none"
	}
	return suspendedText(s)
}

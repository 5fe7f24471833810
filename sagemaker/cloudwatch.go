package sagemaker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
	"github.com/kokoro-sm/kokoro/scaling"
)

// ConcurrencyPeriod is the resolution of ConcurrentRequestsPerModel kokoro reads: the
// high-resolution period the predefined scaling metric is evaluated at.
const ConcurrencyPeriod = 10 * time.Second

// Datapoint is one period of a metric.
type Datapoint struct {
	At    time.Time // start of the period
	Value float64
}

// ConcurrencySeries reads ConcurrentRequestsPerModel (AWS/SageMaker, EndpointName and
// VariantName, statistic Maximum, 10 s periods) between from and to, oldest first.
func (c *Control) ConcurrencySeries(ctx context.Context, endpoint, variant string, from, to time.Time) ([]Datapoint, error) {
	from = from.Truncate(ConcurrencyPeriod)
	in := &cloudwatch.GetMetricDataInput{
		StartTime: aws.Time(from),
		EndTime:   aws.Time(to),
		ScanBy:    cwtypes.ScanByTimestampAscending,
		MetricDataQueries: []cwtypes.MetricDataQuery{{
			Id: aws.String("concurrency"),
			MetricStat: &cwtypes.MetricStat{
				Metric: &cwtypes.Metric{
					Namespace:  aws.String(scaling.MetricNamespace),
					MetricName: aws.String(scaling.MetricConcurrency),
					Dimensions: []cwtypes.Dimension{
						{Name: aws.String("EndpointName"), Value: aws.String(endpoint)},
						{Name: aws.String("VariantName"), Value: aws.String(variant)},
					},
				},
				Period: aws.Int32(int32(ConcurrencyPeriod / time.Second)),
				Stat:   aws.String("Maximum"),
			},
		}},
	}
	var out []Datapoint
	for {
		res, err := c.CloudWatch.GetMetricData(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("read %s of %s/%s: %w", scaling.MetricConcurrency, endpoint, variant, c.explain(err))
		}
		for _, r := range res.MetricDataResults {
			for i := range min(len(r.Timestamps), len(r.Values)) {
				out = append(out, Datapoint{At: r.Timestamps[i], Value: r.Values[i]})
			}
		}
		if aws.ToString(res.NextToken) == "" {
			break
		}
		in.NextToken = res.NextToken
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// ConcurrencyStats summarises ConcurrentRequestsPerModel over [from, to): the mean and the
// peak of the periods that lie wholly inside it, and how many there were. CloudWatch
// publishes a period some time after it ends, so the read is repeated until the last whole
// period of the window is there or wait has passed; a window with no data returns n = 0.
func (c *Control) ConcurrencyStats(ctx context.Context, endpoint, variant string, from, to time.Time, wait time.Duration) (mean, peak float64, n int, err error) {
	// The last period that ends inside the window.
	last := to.Truncate(ConcurrencyPeriod).Add(-ConcurrencyPeriod)
	if last.Before(from) {
		// No whole period fits in the window (a rung shorter than 10 s): nothing to read, and
		// CloudWatch refuses a query whose start and end round to the same second.
		return 0, 0, 0, nil
	}
	err = ctxtime.PollUntil(ctx, ConcurrencyPeriod, time.Now().Add(wait), func() (bool, error) {
		pts, err := c.ConcurrencySeries(ctx, endpoint, variant, from, to)
		if err != nil {
			return false, err
		}
		var sum float64
		n, peak, mean = 0, 0, 0
		complete := false
		for _, p := range pts {
			if p.At.Before(from) || p.At.Add(ConcurrencyPeriod).After(to) {
				continue
			}
			sum += p.Value
			peak = max(peak, p.Value)
			n++
			if !p.At.Before(last) {
				complete = true
			}
		}
		if n > 0 {
			mean = sum / float64(n)
		}
		return complete, nil
	})
	if err != nil && !errors.Is(err, ctxtime.ErrDeadline) {
		return 0, 0, 0, err
	}
	return mean, peak, n, nil
}

// AlarmState is one alarm's state as CloudWatch reports it.
type AlarmState struct {
	Name    string
	State   string // OK, ALARM, INSUFFICIENT_DATA
	Since   time.Time
	Reason  string
	Actions []string
}

// Alarms reads the named alarms' states; names that do not exist are left out.
func (c *Control) Alarms(ctx context.Context, names []string) ([]AlarmState, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var out []AlarmState
	for i := 0; i < len(names); i += 100 {
		res, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: names[i:min(len(names), i+100)]})
		if err != nil {
			return nil, fmt.Errorf("describe alarms: %w", c.explain(err))
		}
		for _, a := range res.MetricAlarms {
			out = append(out, AlarmState{
				Name: aws.ToString(a.AlarmName), State: string(a.StateValue), Since: aws.ToTime(a.StateUpdatedTimestamp),
				Reason: aws.ToString(a.StateReason), Actions: a.AlarmActions,
			})
		}
	}
	return out, nil
}

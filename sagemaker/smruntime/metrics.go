package smruntime

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// What SageMaker publishes for a real-time endpoint's concurrency (SageMaker developer guide,
// "Amazon SageMaker AI metrics in Amazon CloudWatch": ConcurrentRequestsPerModel, namespace
// AWS/SageMaker, dimensions EndpointName and VariantName, high-resolution at 10 s).
const (
	MetricNamespace          = "AWS/SageMaker"
	MetricConcurrentRequests = "ConcurrentRequestsPerModel"
	MetricPeriod             = 10 * time.Second
)

// ConcurrencyStat is one period of requests in flight on one instance: the samples taken in
// the period as CloudWatch's statistic set.
type ConcurrencyStat struct {
	Endpoint, Variant string
	At                time.Time // start of the period
	SampleCount       float64
	Sum, Min, Max     float64
}

// MetricPublisher puts ConcurrentRequestsPerModel datapoints through CloudWatch's
// PutMetricData, as SageMaker does for a deployed endpoint; `kokoro emulate` publishes with it.
type MetricPublisher struct {
	c *cloudwatch.Client
}

// NewMetricPublisher builds a publisher; endpointURL overrides CloudWatch's address (moto in
// the tests, or any CloudWatch-compatible API).
func NewMetricPublisher(cfg aws.Config, endpointURL string) *MetricPublisher {
	return &MetricPublisher{c: cloudwatch.NewFromConfig(cfg, func(o *cloudwatch.Options) {
		o.Protocol = awsconf.CloudWatchProtocol() // the one CloudWatch protocol moto speaks too
		if endpointURL != "" {
			o.BaseEndpoint = aws.String(endpointURL)
		}
	})}
}

// PutConcurrency publishes the statistics, one high-resolution datum each.
func (p *MetricPublisher) PutConcurrency(ctx context.Context, stats []ConcurrencyStat) error {
	// PutMetricData takes at most 1000 data per call.
	for len(stats) > 0 {
		n := min(len(stats), 1000)
		data := make([]cwtypes.MetricDatum, n)
		for i, s := range stats[:n] {
			data[i] = cwtypes.MetricDatum{
				MetricName: aws.String(MetricConcurrentRequests),
				Dimensions: []cwtypes.Dimension{
					{Name: aws.String("EndpointName"), Value: aws.String(s.Endpoint)},
					{Name: aws.String("VariantName"), Value: aws.String(s.Variant)},
				},
				Timestamp: aws.Time(s.At),
				StatisticValues: &cwtypes.StatisticSet{
					SampleCount: aws.Float64(s.SampleCount), Sum: aws.Float64(s.Sum),
					Minimum: aws.Float64(s.Min), Maximum: aws.Float64(s.Max),
				},
				StorageResolution: aws.Int32(1),
				Unit:              cwtypes.StandardUnitNone,
			}
		}
		if _, err := p.c.PutMetricData(ctx, &cloudwatch.PutMetricDataInput{Namespace: aws.String(MetricNamespace), MetricData: data}); err != nil {
			return fmt.Errorf("put %s: %w", MetricConcurrentRequests, err)
		}
		stats = stats[n:]
	}
	return nil
}

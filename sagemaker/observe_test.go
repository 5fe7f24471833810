package sagemaker

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	logtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs/types"

	"github.com/kokoro-sm/kokoro/planner"
)

// putConcurrency publishes ConcurrentRequestsPerModel datapoints as SageMaker would.
func putConcurrency(t *testing.T, c *Control, endpoint string, at time.Time, values ...float64) {
	t.Helper()
	var data []cwtypes.MetricDatum
	for i, v := range values {
		data = append(data, cwtypes.MetricDatum{
			MetricName: aws.String(planner.MetricName), Value: aws.Float64(v), Timestamp: aws.Time(at.Add(time.Duration(i) * ConcurrencyPeriod)),
			StorageResolution: aws.Int32(1),
			Dimensions:        []cwtypes.Dimension{{Name: aws.String("EndpointName"), Value: aws.String(endpoint)}, {Name: aws.String("VariantName"), Value: aws.String(DefaultVariant)}},
		})
	}
	if _, err := c.CloudWatch.(*cloudwatch.Client).PutMetricData(ctxT(t), &cloudwatch.PutMetricDataInput{Namespace: aws.String(planner.MetricNamespace), MetricData: data}); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrencyStats(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	t0 := time.Now().Add(-10 * time.Minute).Truncate(time.Minute)
	// Six periods inside the window, one before and one after it, and another endpoint's.
	putConcurrency(t, c, "tts-cw", t0.Add(-ConcurrencyPeriod), 100)
	putConcurrency(t, c, "tts-cw", t0, 4, 6, 5, 7, 3, 5)
	putConcurrency(t, c, "tts-cw", t0.Add(6*ConcurrencyPeriod), 100)
	putConcurrency(t, c, "other", t0, 50, 50)
	mean, peak, n, err := c.ConcurrencyStats(ctx, "tts-cw", DefaultVariant, t0, t0.Add(6*ConcurrencyPeriod), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 || mean != 5 || peak != 7 {
		t.Fatalf("mean %v peak %v over %d periods; want 5, 7 over 6", mean, peak, n)
	}
	// A window with nothing published yet waits, then reports no data.
	_, _, n, err = c.ConcurrencyStats(ctx, "tts-none", DefaultVariant, t0, t0.Add(time.Minute), 20*time.Millisecond)
	if err != nil || n != 0 {
		t.Fatalf("empty window: %d periods, %v", n, err)
	}
	// A window shorter than a period holds no whole one, even with data around it: no read
	// (CloudWatch refuses a start and end in the same second), no data.
	from := t0.Add(ConcurrencyPeriod + 200*time.Millisecond)
	if _, _, n, err = c.ConcurrencyStats(ctx, "tts-cw", DefaultVariant, from, from.Add(300*time.Millisecond), time.Second); err != nil || n != 0 {
		t.Fatalf("a 300 ms window: %d periods, %v; want none and no error", n, err)
	}
}

func TestLogStreams(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	if s, err := c.LogStreams(ctx, "tts-logs", DefaultVariant); err != nil || len(s) != 0 {
		t.Fatalf("no log group yet: %v %v, want an empty list", s, err)
	}
	logs := c.Logs.(*cloudwatchlogs.Client)
	group := LogGroup("tts-logs")
	if _, err := logs.CreateLogGroup(ctx, &cloudwatchlogs.CreateLogGroupInput{LogGroupName: aws.String(group)}); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now().Add(-time.Minute).Truncate(time.Millisecond).UTC()
	for _, s := range []string{"AllTraffic/i-0aaa", "AllTraffic/i-0bbb", "Other/i-0ccc"} {
		if _, err := logs.CreateLogStream(ctx, &cloudwatchlogs.CreateLogStreamInput{LogGroupName: aws.String(group), LogStreamName: aws.String(s)}); err != nil {
			t.Fatal(err)
		}
	}
	var events []logtypes.InputLogEvent
	for i, m := range []string{"booting", "=== STAGE framework_init t=… ===", "serving"} {
		events = append(events, logtypes.InputLogEvent{Message: aws.String(m), Timestamp: aws.Int64(t0.Add(time.Duration(i) * time.Second).UnixMilli())})
	}
	if _, err := logs.PutLogEvents(ctx, &cloudwatchlogs.PutLogEventsInput{LogGroupName: aws.String(group), LogStreamName: aws.String("AllTraffic/i-0bbb"), LogEvents: events}); err != nil {
		t.Fatal(err)
	}
	streams, err := c.LogStreams(ctx, "tts-logs", DefaultVariant)
	if err != nil {
		t.Fatal(err)
	}
	if len(streams) != 2 {
		t.Fatalf("streams %+v, want the variant's two", streams)
	}
	for _, s := range streams {
		if s.Instance == "i-0bbb" && !s.FirstEvent.Equal(t0) {
			t.Fatalf("first event %v, want %v", s.FirstEvent, t0)
		}
	}
	got, err := c.LogEvents(ctx, "tts-logs", "AllTraffic/i-0bbb", 0)
	if err != nil || len(got) != 3 || got[1].Message != "=== STAGE framework_init t=… ===" || !got[2].At.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("events %+v %v", got, err)
	}
}

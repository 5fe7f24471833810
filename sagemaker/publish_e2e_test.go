package sagemaker_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// TestEmulatorPublishesConcurrencyToCloudWatch: three invocations held open on one instance
// reach moto's CloudWatch as ConcurrentRequestsPerModel with a Maximum of 3, under the
// endpoint's and variant's dimensions, read back through the SDK as a scaling policy's alarm
// would read it.
func TestEmulatorPublishesConcurrencyToCloudWatch(t *testing.T) {
	t.Parallel()
	motoURL := testenv.Moto(t)
	cfg := aws.Config{Region: "us-east-1", Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret"}, nil
	})}

	sink := &watchedSink{MetricSink: smruntime.NewMetricPublisher(cfg, motoURL), want: 3, seen: make(chan struct{})}
	release := make(chan struct{})
	var held sync.WaitGroup
	container := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held.Done()
		<-release
		_, _ = io.WriteString(w, "RIFF")
	}))
	defer container.Close()

	em, err := emulate.New(emulate.Config{
		EndpointName: "ep", Region: "us-east-1",
		Variants:     []emulate.Variant{{Name: "AllTraffic", Instances: []string{container.URL}}},
		Metrics:      sink,
		MetricPeriod: 500 * time.Millisecond, SampleEvery: 50 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	emuURL, stop, err := em.StartLocal()
	if err != nil {
		t.Fatal(err)
	}

	client, err := smruntime.NewStreamClient(cfg, smruntime.Options{Endpoint: smruntime.Endpoint{Name: "ep"}, EndpointURL: emuURL})
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now().UTC()
	held.Add(3)
	var calls sync.WaitGroup
	for range 3 {
		calls.Go(func() { _, _ = client.Invoke(context.Background(), []byte(`{}`)) })
	}
	held.Wait()
	// The three stay in flight until the sampler has seen them and their period is in
	// CloudWatch; the ceiling only catches a publisher that never puts it.
	select {
	case <-sink.seen:
	case <-time.After(30 * time.Second):
		t.Error("no period with three in flight was published within 30 s")
	}
	close(release)
	calls.Wait()
	if err := stop(); err != nil { // closing flushes the last period
		t.Fatal(err)
	}

	cw := cloudwatch.NewFromConfig(cfg, func(o *cloudwatch.Options) {
		o.BaseEndpoint = aws.String(motoURL)
		o.Protocol = awsconf.CloudWatchProtocol()
	})
	out, err := cw.GetMetricStatistics(context.Background(), &cloudwatch.GetMetricStatisticsInput{
		Namespace: aws.String(smruntime.MetricNamespace), MetricName: aws.String(smruntime.MetricConcurrentRequests),
		Dimensions: []cwtypes.Dimension{
			{Name: aws.String("EndpointName"), Value: aws.String("ep")},
			{Name: aws.String("VariantName"), Value: aws.String("AllTraffic")},
		},
		StartTime: aws.Time(begin.Add(-time.Minute)), EndTime: aws.Time(time.Now().Add(time.Minute)), Period: aws.Int32(10),
		Statistics: []cwtypes.Statistic{cwtypes.StatisticMaximum},
	})
	if err != nil {
		t.Fatal(err)
	}
	var peak float64
	for _, d := range out.Datapoints {
		peak = max(peak, aws.ToFloat64(d.Maximum))
	}
	if len(out.Datapoints) == 0 || peak != 3 {
		t.Errorf("ConcurrentRequestsPerModel datapoints %d, Maximum %v; want 3", len(out.Datapoints), peak)
	}
}

// watchedSink passes each period's statistics on to MetricSink and closes seen once a put of
// a period whose Maximum reached want has succeeded.
type watchedSink struct {
	emulate.MetricSink
	want float64
	once sync.Once
	seen chan struct{}
}

func (s *watchedSink) PutConcurrency(ctx context.Context, stats []smruntime.ConcurrencyStat) error {
	err := s.MetricSink.PutConcurrency(ctx, stats)
	for _, st := range stats {
		if err == nil && st.Max >= s.want {
			s.once.Do(func() { close(s.seen) })
		}
	}
	return err
}

// testWriter sends the emulator's log lines (a failed PutMetricData, say) to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

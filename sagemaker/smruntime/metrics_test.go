package smruntime

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwschemas "github.com/aws/aws-sdk-go-v2/service/cloudwatch/schemas"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"
	"github.com/aws/smithy-go/transport/http/protocol/awsquery"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

func TestPublishConcurrencyToMoto(t *testing.T) {
	t.Parallel()
	url := testenv.Moto(t)
	cfg := testAWSConfig()
	p := NewMetricPublisher(cfg, url)
	at := time.Now().UTC().Truncate(10 * time.Second).Add(-time.Minute)
	err := p.PutConcurrency(context.Background(), []ConcurrencyStat{
		{Endpoint: "ep", Variant: "AllTraffic", At: at, SampleCount: 10, Sum: 25, Min: 1, Max: 4},
		{Endpoint: "ep", Variant: "AllTraffic", At: at, SampleCount: 10, Sum: 10, Min: 0, Max: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := cloudwatch.NewFromConfig(cfg, func(o *cloudwatch.Options) {
		o.BaseEndpoint = aws.String(url)
		o.Protocol = awsquery.New(cwschemas.GraniteServiceVersion20100801)
	})
	out, err := c.GetMetricStatistics(context.Background(), &cloudwatch.GetMetricStatisticsInput{
		Namespace: aws.String(MetricNamespace), MetricName: aws.String(MetricConcurrentRequests),
		Dimensions: []cwtypes.Dimension{{Name: aws.String("EndpointName"), Value: aws.String("ep")}, {Name: aws.String("VariantName"), Value: aws.String("AllTraffic")}},
		StartTime:  aws.Time(at.Add(-time.Minute)), EndTime: aws.Time(at.Add(time.Minute)), Period: aws.Int32(10),
		Statistics: []cwtypes.Statistic{cwtypes.StatisticMaximum, cwtypes.StatisticSampleCount},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", out.Datapoints)
	if len(out.Datapoints) != 1 || *out.Datapoints[0].Maximum != 4 {
		t.Errorf("datapoints %+v", out.Datapoints)
	}
}

func testAWSConfig() aws.Config {
	return aws.Config{
		Region: "us-east-1",
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret"}, nil
		}),
	}
}

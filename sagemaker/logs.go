package sagemaker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	logtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs/types"
)

// LogGroup is the CloudWatch Logs group SageMaker writes an endpoint's containers to.
func LogGroup(endpoint string) string { return "/aws/sagemaker/Endpoints/" + endpoint }

// LogStream is one instance's stream in the endpoint's log group: SageMaker names it
// VARIANT/INSTANCE-ID.
type LogStream struct {
	Name       string
	Instance   string
	FirstEvent time.Time // zero while the stream has no event
	Created    time.Time
}

// LogEvent is one line of a container's log.
type LogEvent struct {
	At      time.Time
	Message string
}

// LogStreams lists the variant's log streams. A log group that does not exist yet (no
// instance has logged) is an empty list, not an error.
func (c *Control) LogStreams(ctx context.Context, endpoint, variant string) ([]LogStream, error) {
	var out []LogStream
	in := &cloudwatchlogs.DescribeLogStreamsInput{
		LogGroupName:        aws.String(LogGroup(endpoint)),
		LogStreamNamePrefix: aws.String(variant + "/"),
	}
	for {
		res, err := c.Logs.DescribeLogStreams(ctx, in)
		if err != nil {
			var nf *logtypes.ResourceNotFoundException
			if errors.As(err, &nf) {
				return nil, nil
			}
			return nil, fmt.Errorf("list log streams of %s: %w", LogGroup(endpoint), c.explain(err))
		}
		for _, s := range res.LogStreams {
			name := aws.ToString(s.LogStreamName)
			ls := LogStream{Name: name, Created: ms(s.CreationTime), FirstEvent: ms(s.FirstEventTimestamp)}
			if _, inst, ok := strings.Cut(name, "/"); ok {
				ls.Instance = inst
			}
			out = append(out, ls)
		}
		if aws.ToString(res.NextToken) == "" {
			return out, nil
		}
		in.NextToken = res.NextToken
	}
}

// LogEvents reads a stream from its start, up to limit events (0: all).
func (c *Control) LogEvents(ctx context.Context, endpoint, stream string, limit int) ([]LogEvent, error) {
	var out []LogEvent
	in := &cloudwatchlogs.GetLogEventsInput{
		LogGroupName:  aws.String(LogGroup(endpoint)),
		LogStreamName: aws.String(stream),
		StartFromHead: aws.Bool(true),
	}
	for {
		res, err := c.Logs.GetLogEvents(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("read log stream %s: %w", stream, c.explain(err))
		}
		for _, e := range res.Events {
			out = append(out, LogEvent{At: ms(e.Timestamp), Message: aws.ToString(e.Message)})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
		// GetLogEvents signals the end by returning the token it was given.
		if len(res.Events) == 0 || res.NextForwardToken == nil || aws.ToString(res.NextForwardToken) == aws.ToString(in.NextToken) {
			return out, nil
		}
		in.NextToken = res.NextForwardToken
	}
}

func ms(v *int64) time.Time {
	if v == nil || *v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(*v).UTC()
}

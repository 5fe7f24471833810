package awsconf

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
)

// checkOneLine fails unless err is an *Error of kind with a one-line message containing want.
func checkOneLine(t *testing.T, err, kind error, want ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, kind) {
		t.Fatalf("got %T %v, want an *Error of kind %v", err, err, kind)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("message spans lines: %q", err.Error())
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("message %q does not say %q", err.Error(), w)
		}
	}
}

// AWS's own JSON error bodies name the code, the action and the principal.
func TestExplainCodes(t *testing.T) {
	t.Parallel()
	op := func(code, msg string) error {
		return fmt.Errorf("wrapped: %w", &smithy.OperationError{ServiceID: "Application Auto Scaling", OperationName: "PutScalingPolicy",
			Err: &smithy.GenericAPIError{Code: code, Message: msg}})
	}
	for _, tc := range []struct {
		err  error
		kind error
		want []string
	}{
		{op("AccessDeniedException", "User: arn:aws:sts::1:assumed-role/dev/x is not authorized to perform: application-autoscaling:PutScalingPolicy on resource: *"),
			ErrAccessDenied, []string{"application-autoscaling:PutScalingPolicy", "arn:aws:sts::1:assumed-role/dev/x"}},
		{op("UnrecognizedClientException", "The security token included in the request is invalid"), ErrBadCredentials, []string{"sso login"}},
		{op("ExpiredTokenException", "expired"), ErrBadCredentials, []string{"ExpiredTokenException"}},
		{op("ThrottlingException", "Rate exceeded"), ErrThrottled, []string{"application-autoscaling:PutScalingPolicy"}},
		{op("LimitExceededException", "policies per target"), ErrQuota, []string{"Service Quotas"}},
		{op("ObjectNotFoundException", "No scalable target registered"), ErrNotFound, []string{"--region"}},
	} {
		checkOneLine(t, Explain(tc.err, "us-east-1"), tc.kind, tc.want...)
	}
}

func TestUnknownRegion(t *testing.T) {
	t.Parallel()
	err := &smithy.OperationError{ServiceID: "SageMaker", OperationName: "DescribeEndpoint",
		Err: fmt.Errorf("send request: %w", &net.DNSError{Err: "no such host", Name: "api.sagemaker.us-nowhere-1.amazonaws.com", IsNotFound: true})}
	checkOneLine(t, Explain(err, "us-nowhere-1"), ErrRegion, "us-nowhere-1", "--region")
	other := errors.New("plain")
	if Explain(other, "r") != other || Explain(nil, "r") != nil {
		t.Fatal("Explain changed an error it does not know")
	}
}

func TestRetryDelayJittered(t *testing.T) {
	t.Parallel()
	hi := Retry{Base: 100 * time.Millisecond, Max: time.Second, Rand: func() float64 { return 0.999999 }}
	lo := hi
	lo.Rand = func() float64 { return 0 }
	for attempt, ceil := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 40: time.Second} {
		if d := hi.Delay(attempt); d > ceil || d < ceil*99/100 {
			t.Errorf("attempt %d: delay %v, want just under %v", attempt, d, ceil)
		}
		if d := lo.Delay(attempt); d != 0 {
			t.Errorf("attempt %d: delay %v with a zero draw, want 0 (full jitter)", attempt, d)
		}
	}
}

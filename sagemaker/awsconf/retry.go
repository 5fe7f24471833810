package awsconf

import (
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// Retry bounds the retries of control-plane calls. Throttling (ThrottlingException,
// TooManyRequests, …), 5xx and Application Auto Scaling's ConcurrentUpdateException are
// retried; every other error returns at once, and so does an address that refuses the
// connection or does not answer within its deadline. Data-plane calls inside a measurement never go
// through this: a retried request is not a measurement.
type Retry struct {
	// MaxAttempts counts the first call; 0 means 8.
	MaxAttempts int
	// Base and Max bound the backoff: before retry k the call waits a uniformly random time
	// in [0, min(Max, Base·2^k)) ("full jitter", so that many clients throttled together do
	// not retry together). 0 means 500 ms and 20 s.
	Base, Max time.Duration
	// Rand returns a number in [0, 1); nil uses math/rand/v2.
	Rand func() float64
}

// Defaults of Retry.
const (
	DefaultRetryAttempts = 8
	DefaultRetryBase     = 500 * time.Millisecond
	DefaultRetryMax      = 20 * time.Second
)

func (r Retry) withDefaults() Retry {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = DefaultRetryAttempts
	}
	if r.Base <= 0 {
		r.Base = DefaultRetryBase
	}
	if r.Max <= 0 {
		r.Max = DefaultRetryMax
	}
	if r.Rand == nil {
		r.Rand = rand.Float64
	}
	return r
}

// Delay is the wait before retry attempt (1 = the first retry).
func (r Retry) Delay(attempt int) time.Duration {
	r = r.withDefaults()
	ceil := r.Max
	if attempt < 30 {
		ceil = min(r.Max, r.Base<<(attempt-1))
	}
	return time.Duration(r.Rand() * float64(ceil))
}

// Retryer is the SDK retryer of these bounds, for aws.Config.Retryer.
func (r Retry) Retryer() aws.Retryer {
	r = r.withDefaults()
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = r.MaxAttempts
		o.MaxBackoff = r.Max
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, _ error) (time.Duration, error) {
			return r.Delay(attempt), nil
		})
		o.Retryables = append(o.Retryables, retry.RetryableErrorCode{
			Codes: map[string]struct{}{"ConcurrentUpdateException": {}},
		})
		// An address that refuses connections or stays silent past its deadline is not
		// retried: another attempt would be refused too, or wait as long again, and the
		// user should hear about the address at once (deadlines.go).
		o.Retryables = append([]retry.IsErrorRetryable{retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			if Unreachable(err) {
				return aws.FalseTernary
			}
			return aws.UnknownTernary
		})}, o.Retryables...)
		// The SDK's client-side retry quota would turn a long throttled wait into
		// "retry quota exceeded" after a few minutes of polling; the attempt bound above is
		// the limit that matters here.
		o.RateLimiter = ratelimit.None
	})
}

package awsconf

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/smithy-go"
)

// Kinds of failure a cloud user meets, for errors.Is on an *Error.
var (
	ErrNoCredentials  = errors.New("no aws credentials")
	ErrBadCredentials = errors.New("aws credentials rejected")
	ErrRegion         = errors.New("region unreachable")
	ErrAccessDenied   = errors.New("access denied")
	ErrNotFound       = errors.New("not found")
	ErrNotInService   = errors.New("endpoint not in service")
	ErrThrottled      = errors.New("throttled")
	ErrQuota          = errors.New("quota exceeded")
)

// Error is a failure explained in one line: what happened and what to do about it. Kind is
// one of the Err* sentinels; Err is the SDK's error, kept for errors.As.
type Error struct {
	Kind error
	Msg  string
	Err  error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns both the kind and the cause, so errors.Is matches either.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// iamPrefix maps the SDK's service ids to the service prefixes of IAM actions.
var iamPrefix = map[string]string{
	"SageMaker":                "sagemaker",
	"Application Auto Scaling": "application-autoscaling",
	"CloudWatch":               "cloudwatch",
	"CloudWatch Logs":          "logs",
	"SageMaker Runtime":        "sagemaker",
}

// Action names the IAM action of a failed SDK call ("sagemaker:DescribeEndpoint"), or "" when
// err did not come from one.
func Action(err error) string {
	var oe *smithy.OperationError
	if !errors.As(err, &oe) {
		return ""
	}
	p, ok := iamPrefix[oe.ServiceID]
	if !ok {
		p = strings.ToLower(strings.ReplaceAll(oe.ServiceID, " ", "-"))
	}
	return p + ":" + oe.OperationName
}

// Explain turns an error from a control-plane call into the one-line message a user can act
// on. Errors it does not recognise, and errors already explained, are returned unchanged.
// region is named in messages where a wrong region is a likely cause.
func Explain(err error, region string) error { return ExplainAt(err, region, Where{}, Deadlines{}) }

// ExplainAt is Explain with the address the call went to and its deadlines, which the messages
// of an unreachable or silent address name.
func ExplainAt(err error, region string, w Where, d Deadlines) error {
	if err == nil {
		return nil
	}
	var done *Error
	if errors.As(err, &done) {
		return err
	}
	if e := ExplainNetwork(err, w, d); e != nil {
		return e
	}
	action := Action(err)
	var se *v4.SigningError
	// The SDK resolves credentials inside the call; a failure there carries no type of its
	// own, only its wording ("get identity: get credentials: …").
	if errors.As(err, &se) || strings.Contains(err.Error(), "get identity: ") {
		return NoCredentials(err)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &Error{Kind: ErrRegion, Err: err, Msg: fmt.Sprintf("cannot resolve %s: region %q has no such service endpoint (or there is no network): check --region / AWS_REGION", dns.Name, region)}
	}
	var api smithy.APIError
	if !errors.As(err, &api) {
		// An error body the SDK could not read (moto answers JSON-protocol calls with XML
		// errors) still has its HTTP status: 403 is a refusal of these credentials.
		var re *smithyhttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusForbidden {
			return &Error{Kind: ErrAccessDenied, Err: err, Msg: fmt.Sprintf("AWS refused %s (HTTP 403): the credentials lack this IAM permission or were rejected; grant it (README: IAM actions per command) or check --profile", orUnknown(action))}
		}
		return err
	}
	code, msg := api.ErrorCode(), api.ErrorMessage()
	switch {
	case code == "AccessDeniedException" || code == "AccessDenied" || code == "UnauthorizedOperation" ||
		strings.Contains(msg, "is not authorized to perform"):
		if a := deniedAction(msg); a != "" {
			action = a
		}
		who := principal(msg)
		if who != "" {
			who = " to " + who
		}
		return &Error{Kind: ErrAccessDenied, Err: err, Msg: fmt.Sprintf("missing IAM permission %s: grant it%s (README: IAM actions per command)", orUnknown(action), who)}
	case code == "UnrecognizedClientException" || code == "InvalidClientTokenId" || code == "InvalidSignatureException" ||
		code == "SignatureDoesNotMatch" || code == "ExpiredTokenException" || code == "ExpiredToken":
		return &Error{Kind: ErrBadCredentials, Err: err, Msg: fmt.Sprintf("AWS rejected the credentials (%s): refresh them (`aws sso login`, new access keys) or pick another --profile", code)}
	case isThrottle(code):
		return &Error{Kind: ErrThrottled, Err: err, Msg: fmt.Sprintf("AWS kept throttling %s after %d attempts with backoff: wait a minute and retry, or ask for a higher rate in Service Quotas", orUnknown(action), DefaultRetryAttempts)}
	case code == "ResourceLimitExceeded" || code == "LimitExceededException" || code == "LimitExceeded" ||
		code == "ServiceQuotaExceededException":
		return &Error{Kind: ErrQuota, Err: err, Msg: fmt.Sprintf("AWS quota exceeded (%s): %s — request an increase in the Service Quotas console for region %s, or use fewer or smaller instances", orUnknown(action), OneLine(msg), region)}
	case code == "ObjectNotFoundException" || code == "ResourceNotFoundException" || code == "ResourceNotFound" ||
		strings.HasPrefix(msg, "Could not find"):
		return &Error{Kind: ErrNotFound, Err: err, Msg: fmt.Sprintf("%s in region %s: check the name and --region", strings.TrimSuffix(OneLine(msg), "."), region)}
	}
	return err
}

// NoCredentials is the error of a call that found no credentials to sign with.
func NoCredentials(err error) error {
	return &Error{Kind: ErrNoCredentials, Err: err, Msg: "no AWS credentials found: set AWS_PROFILE (or pass --profile), run `aws configure` or `aws sso login`, or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"}
}

// CheckCredentials resolves the credentials once, so that a command without any fails before
// its first change with a message saying how to provide them.
func CheckCredentials(ctx context.Context, cfg aws.Config) error {
	if cfg.Credentials == nil {
		return NoCredentials(errors.New("no credentials provider"))
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return NoCredentials(err)
	}
	return nil
}

func isThrottle(code string) bool {
	switch code {
	case "ThrottlingException", "Throttling", "ThrottledException", "TooManyRequestsException",
		"RequestLimitExceeded", "RequestThrottled", "RequestThrottledException", "SlowDown":
		return true
	}
	return false
}

// deniedAction reads the action out of IAM's "… is not authorized to perform: svc:Action on
// resource …" message.
func deniedAction(msg string) string {
	_, rest, ok := strings.Cut(msg, "perform: ")
	if !ok {
		return ""
	}
	if f := strings.Fields(rest); len(f) > 0 {
		return strings.TrimRight(f[0], ".,")
	}
	return ""
}

// principal reads "User: arn:…" out of IAM's message.
func principal(msg string) string {
	_, rest, ok := strings.Cut(msg, "User: ")
	if !ok {
		return ""
	}
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown action)"
	}
	return s
}

// OneLine folds s (an AWS message, a failure reason) onto one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

package smruntime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/sagemakerruntime/types"
	"github.com/aws/smithy-go"
)

// InvokeError is the SageMaker runtime's verdict on one invocation: an error response before
// the stream (ModelError, ThrottlingException, ValidationError, …) or an error event inside it
// (ModelStreamError, InternalStreamFailure). Failures below the protocol (a reset connection,
// missing credentials) are not InvokeErrors.
type InvokeError struct {
	Code   string // the service's error code: "ModelError", "ThrottlingException", …
	Status int    // HTTP status of the error response; 0 for an event inside a stream
	// ContainerStatus and ContainerBody are a ModelError's OriginalStatusCode and
	// OriginalMessage: what the container itself answered.
	ContainerStatus int
	ContainerBody   string
	StreamCode      string // a ModelStreamError's ErrorCode (ModelInvocationTimeExceeded, StreamBroken)
	Message         string
	LogStreamARN    string
	MidStream       bool // the error arrived as an event after the stream had begun
	err             error
}

func (e *InvokeError) Error() string {
	var b strings.Builder
	b.WriteString("sagemaker ")
	b.WriteString(e.Code)
	if e.StreamCode != "" {
		b.WriteString(" (" + e.StreamCode + ")")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " [%d]", e.Status)
	}
	if e.MidStream {
		b.WriteString(" mid-stream")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Code == "ModelError" && e.ContainerBody != "" && !strings.Contains(e.Message, e.ContainerBody) {
		fmt.Fprintf(&b, " (container %d: %s)", e.ContainerStatus, e.ContainerBody)
	}
	return b.String()
}

func (e *InvokeError) Unwrap() error { return e.err }

// SageMakerFault gives the bench what it classifies an outcome by: the service's error code,
// the HTTP status, and for a ModelError the container's own status and body.
func (e *InvokeError) SageMakerFault() (code string, status, containerStatus int, containerBody string) {
	return e.Code, e.Status, e.ContainerStatus, e.ContainerBody
}

// fromSDK turns an error of the SDK's sagemakerruntime client into an *InvokeError when the
// service said something, and leaves any other error (network, credentials) as it is.
func fromSDK(err error, midStream bool) error {
	if err == nil {
		return nil
	}
	ie := &InvokeError{MidStream: midStream, err: err}
	var (
		me  *types.ModelError
		mse *types.ModelStreamError
		isf *types.InternalStreamFailure
		api smithy.APIError
	)
	switch {
	case errors.As(err, &me):
		ie.Code, ie.Message = "ModelError", me.ErrorMessage()
		if me.OriginalStatusCode != nil {
			ie.ContainerStatus = int(*me.OriginalStatusCode)
		}
		if me.OriginalMessage != nil {
			ie.ContainerBody = *me.OriginalMessage
		}
		if me.LogStreamArn != nil {
			ie.LogStreamARN = *me.LogStreamArn
		}
	case errors.As(err, &mse):
		ie.Code, ie.Message = ExceptionModelStreamError, mse.ErrorMessage()
		if mse.ErrorCode_ != nil {
			ie.StreamCode = *mse.ErrorCode_
		}
	case errors.As(err, &isf):
		ie.Code, ie.Message = ExceptionInternalStreamFailure, isf.ErrorMessage()
	case errors.As(err, &api):
		ie.Code, ie.Message = api.ErrorCode(), api.ErrorMessage()
	default:
		return err
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		ie.Status = re.HTTPStatusCode()
	}
	return ie
}

// errorResponse reads a restJson1 error response (the service models' protocol): the code
// from the X-Amzn-ErrorType header or the body's __type/code, the members from the JSON body.
func errorResponse(resp *http.Response) *InvokeError {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var body struct {
		Type               string `json:"__type"`
		Code               string `json:"code"`
		Message            string `json:"Message"`
		LowerMessage       string `json:"message"`
		ErrorCode          string `json:"ErrorCode"`
		OriginalStatusCode int    `json:"OriginalStatusCode"`
		OriginalMessage    string `json:"OriginalMessage"`
		LogStreamArn       string `json:"LogStreamArn"`
	}
	parsed := json.Unmarshal(raw, &body) == nil
	ie := &InvokeError{Status: resp.StatusCode}
	ie.Code = restJSONCode(resp.Header.Get("X-Amzn-ErrorType"))
	if ie.Code == "" {
		ie.Code = restJSONCode(body.Type)
	}
	if ie.Code == "" {
		ie.Code = restJSONCode(body.Code)
	}
	if ie.Code == "" {
		ie.Code = http.StatusText(resp.StatusCode)
	}
	if parsed {
		ie.Message = body.Message
		if ie.Message == "" {
			ie.Message = body.LowerMessage
		}
		ie.ContainerStatus, ie.ContainerBody, ie.LogStreamARN = body.OriginalStatusCode, body.OriginalMessage, body.LogStreamArn
		if ie.Code == ExceptionModelStreamError {
			ie.StreamCode = body.ErrorCode
		}
	} else {
		ie.Message = strings.TrimSpace(string(raw))
	}
	return ie
}

// restJSONCode strips what restJson1 allows around an error code: a namespace before '#' and
// anything after ':'.
func restJSONCode(s string) string {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

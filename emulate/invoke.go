package emulate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// maxBody is InvokeEndpoint's payload limit (6 MB, API reference: "Body ... Length
// Constraints: Maximum length of 6291456").
const maxBody = 6291456

// forwardedHeaders are the request headers SageMaker passes on to the container; it strips
// every other one ("Amazon SageMaker strips all POST headers except those supported by the
// API").
var forwardedHeaders = []string{"Content-Type", "Accept", headerCustomAttributes, headerInferenceID, headerTargetContainer}

// forward sends the invocation to the container's /invocations. The request lives under ctx,
// which carries the invocation timeout.
func (e *Emulator) forward(ctx context.Context, r *http.Request, in *instance, body []byte) (*http.Response, error) {
	u := *in.base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/invocations"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for _, h := range forwardedHeaders {
		if v := r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	// InvokeEndpointWithResponseStream names Accept X-Amzn-SageMaker-Accept (its model's
	// httpHeader); the container gets it as Accept either way.
	if v := r.Header.Get(headerStreamAccept); v != "" {
		req.Header.Set("Accept", v)
	}
	return e.client.Do(req)
}

// begin runs the checks every invocation shares and reads the body. It returns false after
// answering the error itself.
func (e *Emulator) begin(w http.ResponseWriter, r *http.Request) (*variant, *instance, []byte, bool) {
	if !e.checkAuth(w, r, false) {
		return nil, nil, nil, false
	}
	v, in, ok := e.route(w, r, "ValidationError")
	if !ok {
		return nil, nil, nil, false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "ValidationError", "reading the request body: "+err.Error())
		return nil, nil, nil, false
	}
	if len(body) > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, "ValidationError", fmt.Sprintf("Request body over the %d-byte limit.", maxBody))
		return nil, nil, nil, false
	}
	if e.throttled(w) {
		return nil, nil, nil, false
	}
	return v, in, body, true
}

// handleInvoke serves InvokeEndpoint: the container's whole answer, or a ModelError.
func (e *Emulator) handleInvoke(w http.ResponseWriter, r *http.Request) {
	v, in, body, ok := e.begin(w, r)
	if !ok {
		return
	}
	release := in.acquire()
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), e.cfg.InvocationTimeout)
	defer cancel()
	resp, err := e.forward(ctx, r, in, body)
	var out []byte
	if err == nil {
		out, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e.writeModelError(w, 0, msgInvokeTimeout)
			return
		}
		e.log.Warn("container failed", "instance", in.base.String(), "err", err)
		e.writeModelError(w, 0, "The container closed the connection: "+err.Error())
		return
	}
	if resp.StatusCode/100 != 2 {
		e.writeModelError(w, resp.StatusCode, string(out))
		return
	}
	h := w.Header()
	h.Set("Content-Type", resp.Header.Get("Content-Type"))
	h.Set(headerInvokedVariant, v.name)
	if ca := resp.Header.Get(headerCustomAttributes); ca != "" {
		h.Set(headerCustomAttributes, ca)
	}
	h.Set(headerRequestID, requestID())
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// handleResponseStream serves InvokeEndpointWithResponseStream: each read of the container's
// response becomes one PayloadPart event, flushed at once. A container that fails before its
// first byte is a ModelError; one that fails after it ends the stream with ModelStreamError.
func (e *Emulator) handleResponseStream(w http.ResponseWriter, r *http.Request) {
	v, in, body, ok := e.begin(w, r)
	if !ok {
		return
	}
	release := in.acquire()
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), e.cfg.InvocationTimeout)
	defer cancel()
	resp, err := e.forward(ctx, r, in, body)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			e.writeModelError(w, 0, msgInvokeTimeout)
			return
		}
		e.writeModelError(w, 0, "The container closed the connection: "+err.Error())
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		out, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		e.writeModelError(w, resp.StatusCode, string(out))
		return
	}
	h := w.Header()
	h.Set("Content-Type", smruntime.EventStreamContentType)
	h.Set(headerResponseType, resp.Header.Get("Content-Type"))
	h.Set(headerInvokedVariant, v.name)
	h.Set(headerRequestID, requestID())
	w.WriteHeader(http.StatusOK)
	ew := smruntime.NewEventWriter(w, http.NewResponseController(w).Flush)
	failAfterFirst := e.draw(e.cfg.Faults.StreamFailure)
	buf := make([]byte, 32<<10)
	for parts := 0; ; {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if err := ew.Part(smruntime.Part{Bytes: buf[:n]}); err != nil {
				return // the client went away
			}
			parts++
			if failAfterFirst {
				_ = ew.Exception(smruntime.StreamException{Type: smruntime.ExceptionInternalStreamFailure, Message: msgInternalStreamFailure})
				return
			}
		}
		if errors.Is(rerr, io.EOF) {
			return
		}
		if rerr != nil {
			if r.Context().Err() != nil {
				return // the client went away
			}
			se := smruntime.StreamException{Type: smruntime.ExceptionModelStreamError, ErrorCode: smruntime.StreamErrorBroken, Message: msgStreamBroken}
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				se.ErrorCode, se.Message = smruntime.StreamErrorTimeout, msgStreamTimeout
			} else {
				e.log.Warn("container stream broken", "instance", in.base.String(), "parts", parts, "err", rerr)
			}
			_ = ew.Exception(se)
			return
		}
	}
}

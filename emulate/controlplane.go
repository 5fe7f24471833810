package emulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ControlPlaneAccount is the account id in the ARNs the control plane builds: moto's.
const ControlPlaneAccount = "123456789012"

// Target prefixes of the two AWS JSON 1.1 APIs the control plane serves in part.
const (
	targetSageMaker = "SageMaker."
	targetScaling   = "AnyScaleFrontendService."
)

// maxControlBody bounds a control-plane request body; the operations served here take a few
// kilobytes.
const maxControlBody = 1 << 20

// ControlPlaneOptions configures a ControlPlane.
type ControlPlaneOptions struct {
	// Settle is how long Creating/Updating/Deleting states last before InService/gone;
	// 0 means a resource is in its final state at once.
	Settle time.Duration
	// Logger receives one line per request the upstream could not answer; nil discards.
	Logger *slog.Logger
}

// ControlPlane is an http.Handler for the SageMaker and Application Auto Scaling APIs (AWS JSON
// 1.1) that serves inference components itself: endpoint configs whose variants name no model,
// endpoints on them, inference components, and scalable targets and scaling policies on the
// dimension sagemaker:inference-component:DesiredCopyCount (whose target-tracking alarms it
// creates in the upstream's CloudWatch). Every other request goes to the upstream unchanged;
// lists and descriptions that span both sides are the upstream's answer with ours appended.
//
// A name exists on one side only: creating a config or endpoint checks the upstream first.
type ControlPlane struct {
	upstream *url.URL
	proxy    *httputil.ReverseProxy
	client   *http.Client
	settle   time.Duration
	log      *slog.Logger
	now      func() time.Time

	mu         sync.Mutex
	configs    map[string]*endpointConfig
	endpoints  map[string]*icEndpoint
	components map[string]*component
	targets    map[string]*scalableTarget // by ResourceId
	policies   map[string]*scalingPolicy  // by ResourceId + "\x00" + PolicyName
}

// NewControlPlane returns a control plane forwarding to upstream (an AWS API such as moto's
// server, "http://127.0.0.1:5000").
func NewControlPlane(upstream string, o ControlPlaneOptions) (*ControlPlane, error) {
	u, err := url.Parse(strings.TrimSuffix(upstream, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("control plane: upstream %q is not an http(s) URL", upstream)
	}
	if o.Settle < 0 {
		return nil, fmt.Errorf("control plane: negative settle time %v", o.Settle)
	}
	c := &ControlPlane{
		upstream: u, client: &http.Client{Timeout: 30 * time.Second}, settle: o.Settle, log: o.Logger, now: time.Now,
		configs: map[string]*endpointConfig{}, endpoints: map[string]*icEndpoint{}, components: map[string]*component{},
		targets: map[string]*scalableTarget{}, policies: map[string]*scalingPolicy{},
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.proxy = httputil.NewSingleHostReverseProxy(u)
	c.proxy.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		c.log.Warn("control plane: upstream failed", "target", r.Header.Get("X-Amz-Target"), "err", err)
		w.WriteHeader(http.StatusBadGateway)
	}
	return c, nil
}

// call is one request to an operation the control plane serves in part.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	op     string
	body   []byte
	region string
}

type handlerFunc func(c *ControlPlane, k *call) error

// sageMakerOps and scalingOps are the operations served here, each with the required members
// of its input shape (checked before anything else, as the service's validation does).
var sageMakerOps = map[string]struct {
	required []string
	handle   handlerFunc
}{
	"CreateEndpointConfig":                  {[]string{"EndpointConfigName", "ProductionVariants"}, (*ControlPlane).createEndpointConfig},
	"DescribeEndpointConfig":                {[]string{"EndpointConfigName"}, (*ControlPlane).describeEndpointConfig},
	"DeleteEndpointConfig":                  {[]string{"EndpointConfigName"}, (*ControlPlane).deleteEndpointConfig},
	"ListEndpointConfigs":                   {nil, (*ControlPlane).listEndpointConfigs},
	"CreateEndpoint":                        {[]string{"EndpointName", "EndpointConfigName"}, (*ControlPlane).createEndpoint},
	"DescribeEndpoint":                      {[]string{"EndpointName"}, (*ControlPlane).describeEndpoint},
	"UpdateEndpoint":                        {[]string{"EndpointName", "EndpointConfigName"}, (*ControlPlane).updateEndpoint},
	"DeleteEndpoint":                        {[]string{"EndpointName"}, (*ControlPlane).deleteEndpoint},
	"ListEndpoints":                         {nil, (*ControlPlane).listEndpoints},
	"CreateInferenceComponent":              {[]string{"InferenceComponentName", "EndpointName"}, (*ControlPlane).createComponent},
	"DescribeInferenceComponent":            {[]string{"InferenceComponentName"}, (*ControlPlane).describeComponent},
	"UpdateInferenceComponent":              {[]string{"InferenceComponentName"}, (*ControlPlane).updateComponent},
	"UpdateInferenceComponentRuntimeConfig": {[]string{"InferenceComponentName", "DesiredRuntimeConfig"}, (*ControlPlane).updateComponentRuntime},
	"DeleteInferenceComponent":              {[]string{"InferenceComponentName"}, (*ControlPlane).deleteComponent},
	"ListInferenceComponents":               {nil, (*ControlPlane).listComponents},
}

// ServeHTTP serves the operations above and forwards every other request to the upstream.
func (c *ControlPlane) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	var required []string
	var handle handlerFunc
	op := ""
	switch {
	case r.Method != http.MethodPost:
	case strings.HasPrefix(target, targetSageMaker):
		op = strings.TrimPrefix(target, targetSageMaker)
		if s, ok := sageMakerOps[op]; ok {
			required, handle = s.required, s.handle
		}
	case strings.HasPrefix(target, targetScaling):
		op = strings.TrimPrefix(target, targetScaling)
		if s, ok := scalingOps[op]; ok {
			required, handle = s.required, s.handle
		}
	}
	if handle == nil {
		c.proxy.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxControlBody))
	if err != nil {
		writeJSONError(w, http.StatusRequestEntityTooLarge, "SerializationException", "request body too large or unreadable")
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil || top == nil {
		writeJSONError(w, http.StatusBadRequest, "SerializationException", "the request body is not a JSON object")
		return
	}
	for _, m := range required {
		if v, ok := top[m]; !ok || string(v) == "null" {
			writeJSONError(w, http.StatusBadRequest, "ValidationException",
				fmt.Sprintf("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", lowerFirst(m)))
			return
		}
	}
	k := &call{w: w, r: r, op: op, body: body, region: requestRegion(r)}
	if err := handle(c, k); err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			writeJSONError(w, http.StatusBadRequest, ae.code, ae.msg)
			return
		}
		c.log.Warn("control plane: upstream failed", "op", op, "err", err)
		writeJSONError(w, http.StatusInternalServerError, "InternalFailure", "the upstream API did not answer: "+err.Error())
	}
}

// apiError is a 400 answer with an error code of the API.
type apiError struct{ code, msg string }

func (e *apiError) Error() string { return e.code + ": " + e.msg }

func invalid(format string, args ...any) error {
	return &apiError{"ValidationException", fmt.Sprintf(format, args...)}
}

func writeJSONError(w http.ResponseWriter, status int, code, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.1")
	h.Set(headerRequestID, requestID())
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}

func writeJSON(w http.ResponseWriter, v any) error {
	h := w.Header()
	h.Set("Content-Type", "application/x-amz-json-1.1")
	h.Set(headerRequestID, requestID())
	return json.NewEncoder(w).Encode(v)
}

// decode reads the body into v; a member of the wrong JSON type is the service's
// SerializationException.
func (k *call) decode(v any) error {
	if err := json.Unmarshal(k.body, v); err != nil {
		return &apiError{"SerializationException", "cannot read the request: " + err.Error()}
	}
	return nil
}

// forward sends the request on to the upstream as it came.
func (c *ControlPlane) forward(k *call) error {
	k.r.Body = io.NopCloser(bytes.NewReader(k.body))
	k.r.ContentLength = int64(len(k.body))
	c.proxy.ServeHTTP(k.w, k.r)
	return nil
}

// upstreamJSON calls operation target on the upstream with the caller's credentials (moto
// reads the account and region from them and checks no signature) and returns its status
// and body.
func (c *ControlPlane) upstreamJSON(k *call, target string, in any) (int, []byte, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(k.r.Context(), http.MethodPost, c.upstream.String()+"/", bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	for _, h := range []string{"Authorization", "X-Amz-Date", "X-Amz-Security-Token"} {
		if v := k.r.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", target)
	return c.do(req)
}

func (c *ControlPlane) do(req *http.Request) (int, []byte, error) {
	resp, err := c.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, body, err
}

// upstreamExists reports whether the upstream describes the named resource (a 200 to
// Describe<Kind>), and fails on its 5xx.
func (c *ControlPlane) upstreamExists(k *call, op, member, name string) (bool, error) {
	status, body, err := c.upstreamJSON(k, targetSageMaker+op, map[string]string{member: name})
	if err != nil {
		return false, err
	}
	if status >= 500 {
		return false, fmt.Errorf("%s: upstream answered %d: %.200s", op, status, body)
	}
	return status == http.StatusOK, nil
}

// mergeList forwards a list request and appends items (already filtered) to the member
// named list of the upstream's answer, sorted by sortKey.
func (c *ControlPlane) mergeList(k *call, list string, items []map[string]any, sortBy, order string) error {
	status, body, err := c.upstreamJSON(k, k.r.Header.Get("X-Amz-Target"), json.RawMessage(k.body))
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		k.w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		k.w.WriteHeader(status)
		_, _ = k.w.Write(body)
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil || out == nil {
		return fmt.Errorf("%s: upstream answer is not a JSON object: %.200s", k.op, body)
	}
	theirs, _ := out[list].([]any)
	for _, it := range items {
		theirs = append(theirs, it)
	}
	if sortBy != "" {
		sortItems(theirs, sortBy, order)
	}
	if theirs == nil {
		theirs = []any{}
	}
	out[list] = theirs
	return writeJSON(k.w, out)
}

// sortItems orders list items by a member: a string, or a timestamp as epoch seconds or an
// ISO 8601 string (moto writes either).
func sortItems(items []any, key, order string) {
	val := func(i int) (float64, string) {
		m, _ := items[i].(map[string]any)
		switch v := m[key].(type) {
		case float64:
			return v, ""
		case string:
			if t, err := time.Parse(time.RFC3339Nano, strings.Replace(v, " ", "T", 1)); err == nil {
				return float64(t.UnixNano()) / 1e9, ""
			}
			if t, err := time.Parse("2006-01-02T15:04:05.999999", strings.Replace(v, " ", "T", 1)); err == nil {
				return float64(t.UnixNano()) / 1e9, ""
			}
			return 0, v
		}
		return 0, ""
	}
	sort.SliceStable(items, func(i, j int) bool {
		if order == "Descending" {
			i, j = j, i
		}
		fi, si := val(i)
		fj, sj := val(j)
		return fi < fj || (fi == fj && si < sj)
	})
}

// requestRegion is the region of the request's credential scope
// (Credential=AKID/DATE/REGION/SERVICE/aws4_request), us-east-1 without one.
func requestRegion(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if i := strings.Index(auth, "Credential="); i >= 0 {
		cred := auth[i+len("Credential="):]
		if j := strings.IndexAny(cred, ", "); j >= 0 {
			cred = cred[:j]
		}
		if p := strings.Split(cred, "/"); len(p) == 5 && p[2] != "" {
			return p[2]
		}
	}
	return "us-east-1"
}

func arn(region, kind, name string) string {
	return fmt.Sprintf("arn:aws:sagemaker:%s:%s:%s/%s", region, ControlPlaneAccount, kind, name)
}

// epoch is a JSON 1.1 timestamp: seconds since 1970 as a number.
func epoch(t time.Time) float64 { return float64(t.UnixMilli()) / 1000 }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// Patterns and lengths of the API model's names.
var (
	reResourceName = regexp.MustCompile(`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$`) // EndpointName, EndpointConfigName, VariantName
	reModelName    = regexp.MustCompile(`^[a-zA-Z0-9]([\-a-zA-Z0-9]*[a-zA-Z0-9])?$`)
	reNameContains = regexp.MustCompile(`^[a-zA-Z0-9-]+$`)
	reRoleArn      = regexp.MustCompile(`^arn:aws[a-z\-]*:iam::\d{12}:role/?[a-zA-Z_0-9+=,.@\-_/]+$`)
	reInstanceType = regexp.MustCompile(`^ml\.[a-z0-9-]+\.[a-z0-9]+$`)
)

// checkName validates a name member against its pattern and the model's 63 characters.
func checkName(member, v string, re *regexp.Regexp) error {
	if len(v) > 63 || !re.MatchString(v) {
		return invalid("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy regular expression pattern: %s and length at most 63",
			v, lowerFirst(member), strings.Trim(re.String(), "^$"))
	}
	return nil
}

func checkNameContains(v *string) error {
	if v == nil {
		return nil
	}
	if len(*v) > 63 || !reNameContains.MatchString(*v) {
		return invalid("1 validation error detected: Value '%s' at 'nameContains' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9-]+", *v)
	}
	return nil
}

func checkEnum(member string, v *string, allowed ...string) error {
	if v == nil {
		return nil
	}
	for _, a := range allowed {
		if *v == a {
			return nil
		}
	}
	return invalid("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]",
		*v, lowerFirst(member), strings.Join(allowed, ", "))
}

// settled reports whether a change made at t has finished by now.
func (c *ControlPlane) settled(t time.Time) bool { return !c.now().Before(t.Add(c.settle)) }

// sweep drops the resources whose deletion has finished. Callers hold mu.
func (c *ControlPlane) sweep() {
	for n, e := range c.endpoints {
		if !e.deleting.IsZero() && c.settled(e.deleting) {
			delete(c.endpoints, n)
		}
	}
	for n, ic := range c.components {
		if !ic.deleting.IsZero() && c.settled(ic.deleting) {
			delete(c.components, n)
		}
	}
}

// page cuts items at a NextToken (the offset it encodes) and MaxResults.
func page[T any](items []T, token *string, maxResults *int, def int) ([]T, *string, error) {
	start := 0
	if token != nil && *token != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(*token, "offset-"))
		if err != nil || n < 0 || n > len(items) || !strings.HasPrefix(*token, "offset-") {
			return nil, nil, invalid("Invalid pagination token %q", *token)
		}
		start = n
	}
	size := def
	if maxResults != nil {
		if *maxResults < 1 || *maxResults > 100 {
			return nil, nil, invalid("1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 100", *maxResults)
		}
		size = *maxResults
	}
	end := min(len(items), start+size)
	var next *string
	if end < len(items) {
		s := "offset-" + strconv.Itoa(end)
		next = &s
	}
	return items[start:end], next, nil
}

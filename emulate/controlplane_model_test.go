package emulate

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// apiModel is the part of a botocore service model (service-2.json) the oracle reads.
type apiModel struct {
	Operations map[string]struct {
		Input, Output *struct{ Shape string }
	}
	Shapes map[string]modelShape
}

type modelShape struct {
	Type     string
	Required []string
	Members  map[string]struct{ Shape string }
	Member   struct{ Shape string }
	Value    struct{ Shape string }
	Enum     []string
}

// loadModels reads the SageMaker and Application Auto Scaling models botocore ships in the
// test virtual environment, keyed by X-Amz-Target prefix.
func loadModels(t *testing.T) map[string]*apiModel {
	t.Helper()
	venv := filepath.Dir(testenv.VenvBin(t, "moto_server"))
	out := map[string]*apiModel{}
	for prefix, dir := range map[string]string{targetSageMaker: "sagemaker/2017-07-24", targetScaling: "application-autoscaling/2016-02-06"} {
		paths, _ := filepath.Glob(filepath.Join(venv, "lib", "python3.*", "site-packages", "botocore", "data", dir, "service-2.json.gz"))
		if len(paths) == 0 {
			t.Fatalf("no botocore model %s under %s", dir, venv)
		}
		f, err := os.Open(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		var m apiModel
		if err := json.NewDecoder(zr).Decode(&m); err != nil {
			t.Fatalf("%s: %v", paths[0], err)
		}
		f.Close()
		out[prefix] = &m
	}
	return out
}

// served lists the operations the control plane answers itself, by target.
func served() []string {
	var ops []string
	for op := range sageMakerOps {
		ops = append(ops, targetSageMaker+op)
	}
	for op := range scalingOps {
		ops = append(ops, targetScaling+op)
	}
	slices.Sort(ops)
	return ops
}

// sample is a value of a shape's type that the front routes to itself: the component
// dimension where an enum offers it.
func sample(m *apiModel, shape string) any {
	s := m.Shapes[shape]
	switch s.Type {
	case "string":
		if slices.Contains(s.Enum, ComponentDimension) {
			return ComponentDimension
		}
		if slices.Contains(s.Enum, "sagemaker") {
			return "sagemaker"
		}
		if len(s.Enum) > 0 {
			return s.Enum[0]
		}
		return "x"
	case "list":
		return []any{}
	case "structure", "map":
		return map[string]any{}
	case "boolean":
		return false
	case "timestamp":
		return 0
	}
	return 1
}

// TestControlPlaneRequiresModelMembers: for every operation served here, leaving out any
// member its input shape requires is a ValidationException, whatever else is wrong.
func TestControlPlaneRequiresModelMembers(t *testing.T) {
	t.Parallel()
	models := loadModels(t)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "{}") }))
	t.Cleanup(upstream.Close)
	cp, err := NewControlPlane(upstream.URL, ControlPlaneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cp)
	t.Cleanup(srv.Close)
	for _, target := range served() {
		prefix, op, _ := strings.Cut(target, ".")
		m := models[prefix+"."]
		o, ok := m.Operations[op]
		if !ok || o.Input == nil {
			t.Errorf("%s: not in the API model", target)
			continue
		}
		in := m.Shapes[o.Input.Shape]
		for _, miss := range in.Required {
			body := map[string]any{}
			for _, r := range in.Required {
				if r != miss {
					body[r] = sample(m, in.Members[r].Shape)
				}
			}
			b, _ := json.Marshal(body)
			st, out := rawCall(t, srv.URL, target, string(b))
			if st != http.StatusBadRequest || out["__type"] != "ValidationException" {
				t.Errorf("%s without %s: %d %v, want 400 ValidationException", target, miss, st, out)
			}
		}
	}
}

// recorder keeps the answers the front gives to the operations it serves.
type recorder struct {
	next http.Handler
	mu   sync.Mutex
	got  []recorded
}

type recorded struct {
	target string
	status int
	body   []byte
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	if !slices.Contains(served(), target) {
		rc.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	rc.next.ServeHTTP(rec, r)
	rc.mu.Lock()
	rc.got = append(rc.got, recorded{target, rec.Code, bytes.Clone(rec.Body.Bytes())})
	rc.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// conforms reports how v departs from shape: members the shape does not have, required ones
// missing, values of the wrong JSON type, strings outside the shape's enum.
func conforms(m *apiModel, shape, path string, v any) []string {
	if v == nil {
		return nil
	}
	s, ok := m.Shapes[shape]
	if !ok {
		return []string{path + ": unknown shape " + shape}
	}
	bad := func(format string, args ...any) []string { return []string{path + ": " + fmt.Sprintf(format, args...)} }
	switch s.Type {
	case "structure":
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("%T is not a structure %s", v, shape)
		}
		var errs []string
		for _, r := range s.Required {
			if obj[r] == nil {
				errs = append(errs, fmt.Sprintf("%s: required member %s missing", path, r))
			}
		}
		for k, x := range obj {
			mem, ok := s.Members[k]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: member %s is not in %s", path, k, shape))
				continue
			}
			errs = append(errs, conforms(m, mem.Shape, path+"."+k, x)...)
		}
		return errs
	case "list":
		arr, ok := v.([]any)
		if !ok {
			return bad("%T is not a list", v)
		}
		var errs []string
		for i, x := range arr {
			errs = append(errs, conforms(m, s.Member.Shape, fmt.Sprintf("%s[%d]", path, i), x)...)
		}
		return errs
	case "map":
		obj, ok := v.(map[string]any)
		if !ok {
			return bad("%T is not a map", v)
		}
		var errs []string
		for k, x := range obj {
			errs = append(errs, conforms(m, s.Value.Shape, path+"."+k, x)...)
		}
		return errs
	case "string":
		str, ok := v.(string)
		if !ok {
			return bad("%T is not a string", v)
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, str) {
			return bad("%q is not in the enum of %s", str, shape)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return bad("%T is not a boolean", v)
		}
	case "timestamp", "integer", "long", "float", "double":
		if _, ok := v.(float64); !ok {
			return bad("%T is not a number (%s)", v, s.Type)
		}
	}
	return nil
}

// TestControlPlaneAnswersFollowModel drives every served operation to a success through the
// front over moto and checks each answer against the API model's output shape: no member the
// shape lacks, every required one present, enum values from the enum.
func TestControlPlaneAnswersFollowModel(t *testing.T) {
	t.Parallel()
	models := loadModels(t)
	moto := testenv.Moto(t)
	cp, err := NewControlPlane(moto, ControlPlaneOptions{Settle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{next: cp}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("testing", "testing", ""), BaseEndpoint: aws.String(srv.URL)}
	f := &controlFront{url: srv.URL, moto: moto, cp: cp, cfg: cfg, sm: sagemaker.NewFromConfig(cfg), scaling: aas.NewFromConfig(cfg)}
	ctx := cpCtx(t)
	now := time.Now()
	var mu sync.Mutex
	cp.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func() { mu.Lock(); now = now.Add(2 * time.Hour); mu.Unlock() }

	f.hostingSetup(t, ctx, "m", "cfg", "ep")
	must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("ep")}))(t, "DescribeEndpoint (Creating)")
	advance()
	must(f.sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg-b"), ExecutionRoleArn: aws.String(cpRole),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("AllTraffic"), InstanceType: smtypes.ProductionVariantInstanceType("ml.g5.2xlarge"),
			InitialInstanceCount: aws.Int32(1)}}}))(t, "CreateEndpointConfig")
	must(f.sm.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String("cfg")}))(t, "DescribeEndpointConfig")
	must(f.sm.ListEndpointConfigs(ctx, &sagemaker.ListEndpointConfigsInput{}))(t, "ListEndpointConfigs")
	must(f.sm.UpdateEndpoint(ctx, &sagemaker.UpdateEndpointInput{EndpointName: aws.String("ep"), EndpointConfigName: aws.String("cfg-b")}))(t, "UpdateEndpoint")
	must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("ep")}))(t, "DescribeEndpoint (Updating)")
	must(f.sm.ListEndpoints(ctx, &sagemaker.ListEndpointsInput{}))(t, "ListEndpoints")
	advance()
	must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("ep")}))(t, "DescribeEndpoint (InService)")
	f.createComponent(t, ctx, "ic", "ep", "m", 2)
	must(f.sm.CreateInferenceComponent(ctx, &sagemaker.CreateInferenceComponentInput{InferenceComponentName: aws.String("ic-image"), EndpointName: aws.String("ep"),
		Specification: &smtypes.InferenceComponentSpecification{Container: &smtypes.InferenceComponentContainerSpecification{Image: aws.String(cpImage),
			Environment: map[string]string{"SLOTS": "2"}, ArtifactUrl: aws.String("s3://bucket/model.tar.gz")},
			ComputeResourceRequirements: &smtypes.InferenceComponentComputeResourceRequirements{MinMemoryRequiredInMb: aws.Int32(1024), MaxMemoryRequiredInMb: aws.Int32(2048)}},
		RuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(1)}}))(t, "CreateInferenceComponent (container)")
	must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe (Creating)")
	advance()
	must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic-image")}))(t, "Describe (InService)")
	must(f.sm.UpdateInferenceComponent(ctx, &sagemaker.UpdateInferenceComponentInput{InferenceComponentName: aws.String("ic-image"),
		RuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(3)}}))(t, "UpdateInferenceComponent")
	must(f.sm.UpdateInferenceComponentRuntimeConfig(ctx, &sagemaker.UpdateInferenceComponentRuntimeConfigInput{InferenceComponentName: aws.String("ic"),
		DesiredRuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(3)}}))(t, "UpdateInferenceComponentRuntimeConfig")
	must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe (Updating)")
	must(f.sm.ListInferenceComponents(ctx, &sagemaker.ListInferenceComponentsInput{MaxResults: aws.Int32(1)}))(t, "ListInferenceComponents")

	dim := aastypes.ScalableDimensionSageMakerInferenceComponentDesiredCopyCount
	ns := aastypes.ServiceNamespaceSagemaker
	rid := aws.String("inference-component/ic")
	must(f.scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{ServiceNamespace: ns, ResourceId: rid, ScalableDimension: dim,
		MinCapacity: aws.Int32(1), MaxCapacity: aws.Int32(4)}))(t, "RegisterScalableTarget")
	must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: ns, ScalableDimension: dim}))(t, "DescribeScalableTargets")
	must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: ns}))(t, "DescribeScalableTargets (merged)")
	must(f.scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{PolicyName: aws.String("tt"), ServiceNamespace: ns, ResourceId: rid, ScalableDimension: dim,
		PolicyType: aastypes.PolicyTypeTargetTrackingScaling, TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{
			TargetValue: aws.Float64(100), PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{
				PredefinedMetricType: aastypes.MetricTypeSageMakerInferenceComponentInvocationsPerCopy}}}))(t, "PutScalingPolicy (target tracking)")
	must(f.scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{PolicyName: aws.String("step"), ServiceNamespace: ns, ResourceId: rid, ScalableDimension: dim,
		PolicyType: aastypes.PolicyTypeStepScaling, StepScalingPolicyConfiguration: &aastypes.StepScalingPolicyConfiguration{
			AdjustmentType: aastypes.AdjustmentTypeChangeInCapacity, Cooldown: aws.Int32(60),
			StepAdjustments: []aastypes.StepAdjustment{{MetricIntervalLowerBound: aws.Float64(0), ScalingAdjustment: aws.Int32(1)}}}}))(t, "PutScalingPolicy (step)")
	must(f.scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{ServiceNamespace: ns, ScalableDimension: dim}))(t, "DescribeScalingPolicies")
	must(f.scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{ServiceNamespace: ns}))(t, "DescribeScalingPolicies (merged)")
	must(f.scaling.DeleteScalingPolicy(ctx, &aas.DeleteScalingPolicyInput{PolicyName: aws.String("tt"), ServiceNamespace: ns, ResourceId: rid, ScalableDimension: dim}))(t, "DeleteScalingPolicy")
	must(f.scaling.DeregisterScalableTarget(ctx, &aas.DeregisterScalableTargetInput{ServiceNamespace: ns, ResourceId: rid, ScalableDimension: dim}))(t, "DeregisterScalableTarget")
	advance()
	must(f.sm.DeleteInferenceComponent(ctx, &sagemaker.DeleteInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "DeleteInferenceComponent")
	must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe (Deleting)")
	must(f.sm.ListInferenceComponents(ctx, &sagemaker.ListInferenceComponentsInput{StatusEquals: smtypes.InferenceComponentStatusDeleting}))(t, "ListInferenceComponents (Deleting)")
	must(f.sm.DeleteInferenceComponent(ctx, &sagemaker.DeleteInferenceComponentInput{InferenceComponentName: aws.String("ic-image")}))(t, "DeleteInferenceComponent")
	advance()
	must(f.sm.DeleteEndpoint(ctx, &sagemaker.DeleteEndpointInput{EndpointName: aws.String("ep")}))(t, "DeleteEndpoint")
	must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("ep")}))(t, "DescribeEndpoint (Deleting)")
	must(f.sm.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String("cfg")}))(t, "DeleteEndpointConfig")

	seen := map[string]bool{}
	for _, r := range rec.got {
		if r.status != http.StatusOK {
			t.Errorf("%s answered %d: %s", r.target, r.status, r.body)
			continue
		}
		seen[r.target] = true
		prefix, op, _ := strings.Cut(r.target, ".")
		m := models[prefix+"."]
		o := m.Operations[op]
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Errorf("%s: answer is not JSON: %s", r.target, r.body)
			continue
		}
		if o.Output == nil {
			if obj, ok := v.(map[string]any); !ok || len(obj) != 0 {
				t.Errorf("%s has no output shape but answered %s", r.target, r.body)
			}
			continue
		}
		for _, e := range conforms(m, o.Output.Shape, op, v) {
			t.Errorf("%s", e)
		}
	}
	for _, target := range served() {
		if !seen[target] {
			t.Errorf("%s was not driven to a success: the oracle did not see its answer", target)
		}
	}
}

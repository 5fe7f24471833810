package sagemaker

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Call is one control-plane request, shown by --dry-run and in step reports.
type Call struct {
	Op    string `json:"op"` // IAM action, "sagemaker:CreateModel"
	Input any    `json:"-"`  // the SDK input, for the call itself
	// Changes, when set, say what the call changes on a resource that exists ("MaxCapacity 1 →
	// 4"), in place of every field of the input.
	Changes []string `json:"changes,omitempty"`
}

// resourceField is the input field that names the resource each operation acts on.
var resourceField = map[string]string{
	"sagemaker:CreateModel":                            "ModelName",
	"sagemaker:DeleteModel":                            "ModelName",
	"sagemaker:CreateEndpointConfig":                   "EndpointConfigName",
	"sagemaker:DeleteEndpointConfig":                   "EndpointConfigName",
	"sagemaker:CreateEndpoint":                         "EndpointName",
	"sagemaker:UpdateEndpoint":                         "EndpointName",
	"sagemaker:DeleteEndpoint":                         "EndpointName",
	"sagemaker:UpdateEndpointWeightsAndCapacities":     "EndpointName",
	"application-autoscaling:RegisterScalableTarget":   "ResourceId",
	"application-autoscaling:DeregisterScalableTarget": "ResourceId",
	"application-autoscaling:PutScalingPolicy":         "PolicyName",
	"application-autoscaling:DeleteScalingPolicy":      "PolicyName",
	"cloudwatch:PutMetricAlarm":                        "AlarmName",
	"cloudwatch:DeleteAlarms":                          "AlarmNames",
}

// constantFields are the same on every call kokoro makes; printing them says nothing.
var constantFields = map[string]bool{"ServiceNamespace": true, "ScalableDimension": true}

// Resource is what the call acts on: the value of its naming field ("" when it has none).
func (c Call) Resource() string {
	r, _ := c.describe()
	return r
}

// String renders the call as one readable line: the operation, the resource, and the fields
// it sets (or, with Changes, what it changes), absent fields left out.
func (c Call) String() string {
	res, fields := c.describe()
	if len(c.Changes) > 0 {
		fields = c.Changes
	}
	s := c.Op
	if res != "" {
		s += " " + res
	}
	if len(fields) > 0 {
		s += ": " + strings.Join(fields, ", ")
	}
	return s
}

func (c Call) describe() (resource string, fields []string) {
	v := reflect.ValueOf(c.Input)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return "", nil
	}
	key := resourceField[c.Op]
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || constantFields[f.Name] {
			continue
		}
		if f.Name == key {
			resource = strings.Join(flatten("", v.Field(i)), ", ")
			continue
		}
		fields = append(fields, flatten(f.Name, v.Field(i))...)
	}
	return resource, fields
}

// flatten renders a value as name=value items: pointers followed, nil and empty values left
// out, structs and lists of one element by dotted names, maps and tags as key=value.
func flatten(name string, v reflect.Value) []string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	item := func(s string) []string {
		if name == "" {
			return []string{s}
		}
		return []string{name + "=" + s}
	}
	join := func(child string) string {
		if name == "" {
			return child
		}
		return name + "." + child
	}
	switch v.Kind() {
	case reflect.String:
		if v.Len() == 0 {
			return nil
		}
		return item(v.String())
	case reflect.Bool:
		return item(fmt.Sprint(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return item(fmt.Sprint(v.Int()))
	case reflect.Float32, reflect.Float64:
		return item(fmt.Sprintf("%g", v.Float()))
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, fmt.Sprint(k.Interface()))
		}
		sort.Strings(keys)
		var out []string
		for _, k := range keys {
			out = append(out, flatten(join(k), v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))...)
		}
		return out
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			return nil
		}
		if tag, ok := keyValue(v); ok {
			return item(tag)
		}
		var out []string
		for i := range v.Len() {
			n := name
			if v.Len() > 1 {
				n = fmt.Sprintf("%s[%d]", name, i)
			}
			out = append(out, flatten(n, v.Index(i))...)
		}
		return out
	case reflect.Struct:
		var out []string
		t := v.Type()
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				out = append(out, flatten(join(f.Name), v.Field(i))...)
			}
		}
		return out
	}
	return item(fmt.Sprint(v.Interface()))
}

// keyValue renders a list of {Key, Value} structs (tags, dimensions) as "k=v k=v".
func keyValue(v reflect.Value) (string, bool) {
	var parts []string
	for i := range v.Len() {
		e := v.Index(i)
		for e.Kind() == reflect.Pointer && !e.IsNil() {
			e = e.Elem()
		}
		if e.Kind() != reflect.Struct {
			return "", false
		}
		k, val := e.FieldByName("Key"), e.FieldByName("Value")
		if !k.IsValid() {
			k = e.FieldByName("Name")
		}
		if !k.IsValid() || !val.IsValid() {
			return "", false
		}
		ks, vs := flatten("", k), flatten("", val)
		if len(ks) != 1 {
			return "", false
		}
		parts = append(parts, ks[0]+"="+strings.Join(vs, ""))
	}
	return strings.Join(parts, " "), true
}

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// unknownFieldError is a request field that the route's body does not have.
type unknownFieldError struct {
	name  string
	known []string
}

func (e *unknownFieldError) Error() string {
	return fmt.Sprintf("unknown field %s; the fields are %s (a server started with --allow-unknown-fields ignores the others)",
		clip(e.name), strings.Join(e.known, ", "))
}

func (e *unknownFieldError) Is(target error) bool { return target == errUnknownField }

// checkFields refuses the first key of the JSON object b (in sorted order) that is none of
// the JSON fields of *v, matched without regard to case as encoding/json matches them.
func checkFields(b []byte, v any) error {
	var keys map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&keys); err != nil {
		return fmt.Errorf("%w: %v", errBadJSON, err)
	}
	known := jsonFields(reflect.TypeOf(v).Elem())
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		if !slices.ContainsFunc(known, func(f string) bool { return strings.EqualFold(f, k) }) {
			return &unknownFieldError{name: k, known: known}
		}
	}
	return nil
}

// jsonFields lists the names encoding/json gives a struct type's fields, in their order.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

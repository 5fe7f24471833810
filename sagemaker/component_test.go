package sagemaker

import (
	"strings"
	"testing"
)

// TestComponentSpecValidate: each limit of the component's shape is refused with its reason
// before any call; a valid one passes and changes the deploy's resource name.
func TestComponentSpecValidate(t *testing.T) {
	t.Parallel()
	ok := ComponentSpec{CopiesPerInstance: 2, MinInstances: 1, MaxInstances: 4}
	for _, tc := range []struct {
		name string
		edit func(*ComponentSpec)
		want string
	}{
		{"no copies", func(c *ComponentSpec) { c.CopiesPerInstance = 0 }, "copies per instance"},
		{"no maximum", func(c *ComponentSpec) { c.MaxInstances = 0 }, "maximum 0"},
		{"minimum above maximum", func(c *ComponentSpec) { c.MinInstances = 5 }, "minimum 5"},
		{"negative minimum", func(c *ComponentSpec) { c.MinInstances = -1 }, "minimum -1"},
		{"memory", func(c *ComponentSpec) { c.MemoryMB = 64 }, "128 MB"},
		{"cores", func(c *ComponentSpec) { c.Cores = 0.1 }, "0.25"},
		{"part of an accelerator", func(c *ComponentSpec) { c.Accelerators = 0.5 }, "whole accelerators"},
		{"name", func(c *ComponentSpec) { c.Name = "-bad" }, "inference component name"},
	} {
		c := ok
		tc.edit(&c)
		spec := testSpec("tts-comp")
		spec.Component = &c
		if err := spec.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	spec := testSpec("tts-comp")
	plain := spec.ResourceName()
	spec.Component = &ok
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	if spec.ResourceName() == plain || !ownedBy(spec.ResourceName(), "tts-comp") {
		t.Errorf("resource name %s with a component, %s without", spec.ResourceName(), plain)
	}
	if ok.InitialCopies() != 2 || (ComponentSpec{CopiesPerInstance: 3}).InitialCopies() != 3 {
		t.Error("initial copies: every initial instance (at least one) full")
	}
	long := strings.Repeat("a", 63)
	if n := ComponentName(long); len(n) > 63 || ValidateName(n) != nil {
		t.Errorf("component name %q of a 63-character endpoint", n)
	}
}

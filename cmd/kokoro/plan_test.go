package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/workflow"
)

const (
	planRefQmax   = "../../planner/testdata/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json"
	planRefTTotal = "../../planner/testdata/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json"
)

// The command line refuses what its flags declare: --qmax is required and --ttotal excludes
// --assume-t-total, for plan and plan replay alike. The job's own refusals are in workflow.
func TestPlanUsageErrors(t *testing.T) {
	t.Parallel()
	cases := [][]string{
		{"--ttotal", planRefTTotal, "--peak-rps", "1"},                                                   // no --qmax
		{"--qmax", planRefQmax, "--ttotal", planRefTTotal, "--assume-t-total", "100", "--peak-rps", "1"}, // both
	}
	for _, args := range cases {
		for _, sub := range [][]string{nil, {"replay"}} {
			cmd := newPlanCmd()
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetErr(&out)
			cmd.SetArgs(append(sub, args...))
			err := cmd.Execute()
			var ee *workflow.ExitError
			if err == nil || errors.As(err, &ee) || !strings.Contains(err.Error(), "flag") {
				t.Errorf("%v %v: err = %v, want a usage error (exit 2) naming the flags", sub, args, err)
			}
		}
	}
}

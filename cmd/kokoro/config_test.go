package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// Every flag of `kokoro serve` comes from a row of the table, and every row with a flag is one.
func TestServeFlagsAreTheTable(t *testing.T) {
	t.Parallel()
	rows := map[string]bool{}
	for _, set := range [][]workflow.Setting{workflow.ServeSettings(), workflow.EngineSettings()} {
		for _, s := range set {
			if s.Flag != "" {
				rows[s.Flag] = true
			}
			if s.Flag == "" && (s.Env == "" || s.Shown == "") {
				t.Errorf("row %+v has neither a flag nor a variable with its default", s)
			}
		}
	}
	seen := map[string]bool{}
	newServeCmd().Flags().VisitAll(func(f *pflag.Flag) {
		if f.Deprecated != "" {
			return
		}
		seen[f.Name] = true
		if !rows[f.Name] {
			t.Errorf("--%s has no row in the configuration table", f.Name)
		}
	})
	for flag := range rows {
		if !seen[flag] {
			t.Errorf("row --%s is not a flag of serve", flag)
		}
	}
}

// The earlier spelling of a renamed flag still works, with a warning.
func TestDeprecatedFlagSpelling(t *testing.T) {
	t.Parallel()
	cmd := newServeCmd()
	if err := cmd.Flags().Parse([]string{"--first-chunk-ids", "40"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := cmd.Flags().GetInt("first-chunk-max-ids"); v != 40 {
		t.Errorf("--first-chunk-ids 40 set first-chunk-max-ids to %d", v)
	}
	if f := cmd.Flags().Lookup("first-chunk-ids"); f == nil || f.Deprecated == "" || !f.Hidden {
		t.Errorf("--first-chunk-ids should be a hidden, deprecated alias: %+v", f)
	}
}

// --aws-timeout is bound from its row: its help is the row's, naming the variable, and the
// variable sets its default.
func TestAWSTimeoutIsItsRow(t *testing.T) {
	t.Setenv("KOKORO_AWS_TIMEOUT", "42s")
	row := workflow.LookupSetting("aws-timeout")
	f := newThawCmd().Flags().Lookup("aws-timeout")
	if f == nil || f.Usage != row.Usage() || f.DefValue != "42s" || !strings.Contains(f.Usage, row.Env) {
		t.Errorf("--aws-timeout %+v; want the row's help %q and the default 42s from %s", f, row.Usage(), row.Env)
	}
}

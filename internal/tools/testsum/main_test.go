package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func events(t *testing.T, lines ...string) *tally {
	t.Helper()
	ta := newTally()
	var out strings.Builder
	for _, l := range lines {
		var e event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		ta.add(e, &out)
	}
	return ta
}

// TestTallyCountsWhatGoTestReports: tests (subtests included) count once each, a package seen
// in both passes counts once and fails if either pass failed, and skips, failures and build
// failures each decide the verdict.
func TestTallyCountsWhatGoTestReports(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		lines  []string
		noSkip bool
		want   string
	}{
		{"two passes of one package", []string{
			`{"Action":"pass","Package":"m/kokoro/a","Test":"TestX","Elapsed":0.1}`,
			`{"Action":"pass","Package":"m/kokoro/a","Test":"TestX/sub","Elapsed":0.1}`,
			`{"Action":"pass","Package":"m/kokoro/a","Elapsed":0.2}`,
			`{"Action":"pass","Package":"m/kokoro/a","Test":"TestRealY","Elapsed":1}`,
			`{"Action":"pass","Package":"m/kokoro/a","Elapsed":1}`,
			`{"Action":"skip","Package":"m/kokoro/b","Elapsed":0}`,
		}, true, "PASS: 2 packages (1 with tests), 3 tests, 0 failed, 0 skipped, 0 build failures"},
		{"a failure in the second pass", []string{
			`{"Action":"pass","Package":"m/kokoro/a","Elapsed":0.2}`,
			`{"Action":"output","Package":"m/kokoro/a","Test":"TestRealY","Output":"boom\n"}`,
			`{"Action":"fail","Package":"m/kokoro/a","Test":"TestRealY","Elapsed":1}`,
			`{"Action":"fail","Package":"m/kokoro/a","Elapsed":1}`,
		}, true, "FAIL: 1 packages (1 with tests), 1 tests, 1 failed, 0 skipped, 0 build failures"},
		{"a binary that died inside a test", []string{
			`{"Action":"run","Package":"m/kokoro/a","Test":"TestW"}`,
			`{"Action":"output","Package":"m/kokoro/a","Test":"TestW","Output":"race: limit on 8128 simultaneously alive goroutines is exceeded, dying\n"}`,
			`{"Action":"output","Package":"m/kokoro/a","Output":"FAIL\tm/kokoro/a\t10.7s\n"}`,
			`{"Action":"fail","Package":"m/kokoro/a","Elapsed":10.7}`,
		}, true, "FAIL: 1 packages (1 with tests), 0 tests, 1 failed, 0 skipped, 0 build failures"},
		{"a skip", []string{
			`{"Action":"skip","Package":"m/kokoro/a","Test":"TestZ","Elapsed":0}`,
			`{"Action":"pass","Package":"m/kokoro/a","Elapsed":0.2}`,
		}, true, "FAIL: 1 packages (1 with tests), 1 tests, 0 failed, 1 skipped, 0 build failures"},
		{"a skip allowed", []string{
			`{"Action":"skip","Package":"m/kokoro/a","Test":"TestZ","Elapsed":0}`,
			`{"Action":"pass","Package":"m/kokoro/a","Elapsed":0.2}`,
		}, false, "PASS: 1 packages (1 with tests), 1 tests, 0 failed, 1 skipped, 0 build failures"},
		{"a build failure", []string{
			`{"ImportPath":"m/kokoro/c [m/kokoro/c.test]","Action":"build-output","Output":"x.go:1: undefined: y\n"}`,
			`{"ImportPath":"m/kokoro/c [m/kokoro/c.test]","Action":"build-fail"}`,
			`{"Action":"fail","Package":"m/kokoro/c","Elapsed":0}`,
		}, true, "FAIL: 1 packages (1 with tests), 0 tests, 0 failed, 0 skipped, 1 build failures"},
		{"nothing at all", nil, true, "FAIL: 0 packages (0 with tests), 0 tests, 0 failed, 0 skipped, 0 build failures"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := events(t, c.lines...).summary(90*time.Second, c.noSkip)
			if want := c.want + ", wall 1m30s"; got != want {
				t.Errorf("summary\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestSlowest: the slowest packages (both passes summed) and top-level tests, longest first.
func TestSlowest(t *testing.T) {
	t.Parallel()
	ta := events(t,
		`{"Action":"pass","Package":"m/kokoro/a","Test":"TestX","Elapsed":3}`,
		`{"Action":"pass","Package":"m/kokoro/a","Test":"TestX/sub","Elapsed":3}`,
		`{"Action":"pass","Package":"m/kokoro/a","Test":"TestY","Elapsed":7}`,
		`{"Action":"pass","Package":"m/kokoro/a","Elapsed":10}`,
		`{"Action":"pass","Package":"m/kokoro/b","Test":"TestZ","Elapsed":5}`,
		`{"Action":"pass","Package":"m/kokoro/b","Elapsed":5}`,
		`{"Action":"pass","Package":"m/kokoro/b","Elapsed":6}`,
	)
	if got, want := slowestOf(ta.testTime, 2), "a TestY 7s, b TestZ 5s"; got != want {
		t.Errorf("slowest tests %q, want %q", got, want)
	}
	pkgs := map[string]float64{}
	for p, s := range ta.elapsed {
		pkgs[short(p)] = s
	}
	if got, want := slowestOf(pkgs, 5), "b 11s, a 10s"; got != want {
		t.Errorf("slowest packages %q, want %q", got, want)
	}
}

// TestUnfinishedTestsAreShown: when a package fails with tests that never ended, what those
// tests printed is shown under their names, since it is the only account of the failure.
func TestUnfinishedTestsAreShown(t *testing.T) {
	t.Parallel()
	ta := newTally()
	var out strings.Builder
	for _, l := range []string{
		`{"Action":"run","Package":"m/kokoro/a","Test":"TestV"}`,
		`{"Action":"output","Package":"m/kokoro/a","Test":"TestV","Output":"fine\n"}`,
		`{"Action":"pass","Package":"m/kokoro/a","Test":"TestV"}`,
		`{"Action":"output","Package":"m/kokoro/a","Test":"TestW","Output":"dying here\n"}`,
		`{"Action":"output","Package":"m/kokoro/b","Test":"TestU","Output":"other package\n"}`,
		`{"Action":"fail","Package":"m/kokoro/a","Elapsed":10.7}`,
	} {
		var e event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		ta.add(e, &out)
	}
	got := out.String()
	if !strings.Contains(got, "--- UNFINISHED a TestW\ndying here\n") {
		t.Errorf("output lacks the unfinished test's lines:\n%s", got)
	}
	if strings.Contains(got, "fine") || strings.Contains(got, "other package") {
		t.Errorf("output shows a passed test or another package's test:\n%s", got)
	}
	if len(ta.unfinished) != 1 || ta.unfinished[0] != "a TestW" {
		t.Errorf("unfinished = %q, want [a TestW]", ta.unfinished)
	}
}

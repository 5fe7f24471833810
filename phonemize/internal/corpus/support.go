package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// FakeEspeak writes a stand-in for espeak-ng: a bash script that answers each line of standard
// input (or its last argument, when given text on the command line) with the line in capitals,
// the way espeak-ng answers with phonemes. onLine runs first for every input line, with the
// line in $l and $mode set to "pipe" (the long-lived helper) or "args" (a one-shot process), so
// that a case can hang, crash or answer garbage on cue. It counts its starts in a file beside it.
func FakeEspeak(t *testing.T, onLine string) (bin, starts string) {
	t.Helper()
	dir := t.TempDir()
	starts = filepath.Join(dir, "starts")
	script := `#!/bin/bash
echo start >> "` + starts + `"
answer() { l=$1; ` + onLine + `
  echo "${l^^}"; }
if [ "${@: -2:1}" = "--" ]; then mode=args; answer "${@: -1}"; exit 0; fi
mode=pipe
while IFS= read -r line; do answer "$line"; done
`
	bin = filepath.Join(dir, "espeak-ng")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, starts
}

// CountStarts is how many times the stand-in at starts was started.
func CountStarts(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count(string(b), "start")
}

// SideBySide runs each of two measurements once per round, the order alternating from round to
// round, and logs every round, each side's median with its range, and the median and range of
// the per-round ratio slow/fast: both sides of the comparison come from one run, close in time.
// Each measurement returns the time of one unit of work (a file set, a word).
func SideBySide(b *testing.B, rounds int, unit string, fastName string, fast func() time.Duration, slowName string, slow func() time.Duration) {
	b.Helper()
	var fs, ss, ratio []float64
	for r := range rounds {
		var f, s time.Duration
		if r%2 == 0 {
			f, s = fast(), slow()
		} else {
			s, f = slow(), fast()
		}
		fs, ss = append(fs, f.Seconds()), append(ss, s.Seconds())
		ratio = append(ratio, s.Seconds()/f.Seconds())
		b.Logf("round %d: %s %v, %s %v per %s (×%.1f)", r+1, fastName, f, slowName, s, unit, s.Seconds()/f.Seconds())
	}
	med := func(xs []float64) (m, lo, hi float64) {
		ys := slices.Clone(xs)
		sort.Float64s(ys)
		n := len(ys)
		m = ys[n/2]
		if n%2 == 0 {
			m = (ys[n/2-1] + ys[n/2]) / 2
		}
		return m, ys[0], ys[n-1]
	}
	fm, flo, fhi := med(fs)
	sm, slo, shi := med(ss)
	rm, rlo, rhi := med(ratio)
	b.Logf("per %s, median [min, max] over %d rounds: %s %s [%s, %s]; %s %s [%s, %s]; %s/%s ×%.1f [%.1f, %.1f]",
		unit, rounds, fastName, dur(fm), dur(flo), dur(fhi), slowName, dur(sm), dur(slo), dur(shi), slowName, fastName, rm, rlo, rhi)
	b.Logf("host: %s", loadNote())
	per := strings.ReplaceAll(unit, " ", "") // a metric's unit has no spaces
	b.ReportMetric(fm*1e6, fastName+"-µs/"+per)
	b.ReportMetric(sm*1e6, slowName+"-µs/"+per)
	b.ReportMetric(rm, "ratio")
}

func dur(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(100 * time.Nanosecond).String()
}

func loadNote() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	return "load average " + strings.Join(strings.Fields(string(b))[:3], " ")
}

// FuzzSeeds are the seeds of the fuzz targets that read English text.
func FuzzSeeds() []string {
	return []string{
		"Hello, world.", "Dr. Smith paid $5.50 for 3 apples in 1984.", "[Kokoro](/kˈOkəɹO/) is fast.",
		"3:30pm — 5-10% of 1,000,000!", "e-mail me@x.io or see https://a.b/c?d=e", "I read; you read.",
		"ÀÉÎõü çà et là", "東京 and Zürich", "'''\"\"\"...", "[x](-2) [y](#&#) [z](/)", "-5 -.5 .5 5.",
		"A.B.C. U.S.A. vs. e.g.", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "\u0000\uFFFD\u200B",
		"$$$ £1.999 €0.01 $0.00", "1st 2nd 3rd 4th 11th 21st 101st", "O'Neil's rock'n'roll McDonald's iPhone",
	}
}

// RequireEspeak fails or skips a test that needs espeak-ng when bin, the binary found, is "":
// it fails under `make test` (KOKORO_REQUIRE_ASSETS=1), which installs espeak-ng, and skips
// elsewhere with a message naming the setup step.
func RequireEspeak(t testing.TB, bin string) {
	t.Helper()
	if bin != "" {
		return
	}
	if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
		t.Fatal("espeak-ng not found on PATH: `make setup` installs it (apt-get install espeak-ng)")
	}
	t.Skip("espeak-ng not installed: run `make setup`")
}

// CaseName is a table case's subtest name: its text, cut to 40 characters.
func CaseName(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40])
	}
	return s
}

// Command testsum reads the JSON events of one or more `go test -json` runs, from the files (or
// named pipes) given as arguments, all at once, or from standard input,
// prints what a person reads of a test run (each package's result, the output of each failed
// test, build errors) and ends with one line that sums up the whole run: packages, tests,
// failures, skips and the wall time since -start. It exits 1 when a test or package failed,
// when a build failed, when it saw no package at all, or, with -no-skip, when a test skipped.
//
// `make test` (scripts/test/test.sh) pipes both of its passes through it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	Elapsed    float64
	ImportPath string
}

// tally is what testsum learns from the events.
type tally struct {
	packages   map[string]string // package → "ok", "FAIL" or "no tests"
	elapsed    map[string]float64
	testTime   map[string]float64 // "package Test" → seconds, top-level tests only
	tests      int
	failed     []string
	skipped    []string
	unfinished []string // tests of a failed package that never reported an end
	buildFails []string
	output     map[string][]string // package/test → its output lines, kept until it passes
	buildOut   map[string][]string
}

func newTally() *tally {
	return &tally{packages: map[string]string{}, elapsed: map[string]float64{}, testTime: map[string]float64{},
		output: map[string][]string{}, buildOut: map[string][]string{}}
}

func short(pkg string) string {
	if i := strings.Index(pkg, "/kokoro/"); i >= 0 {
		return pkg[i+len("/kokoro/"):]
	}
	return pkg
}

// add takes one event and writes what a reader should see of it now.
func (t *tally) add(e event, w io.Writer) {
	switch e.Action {
	case "build-output":
		t.buildOut[e.ImportPath] = append(t.buildOut[e.ImportPath], e.Output)
		return
	case "build-fail":
		t.buildFails = append(t.buildFails, e.ImportPath)
		fmt.Fprintf(w, "BUILD FAILED %s\n%s", e.ImportPath, strings.Join(t.buildOut[e.ImportPath], ""))
		return
	}
	key := e.Package + "\x00" + e.Test
	switch e.Action {
	case "output":
		t.output[key] = append(t.output[key], e.Output)
	case "pass":
		delete(t.output, key)
		if e.Test != "" {
			t.tests++
			if !strings.Contains(e.Test, "/") {
				t.testTime[short(e.Package)+" "+e.Test] = e.Elapsed
			}
			return
		}
		if _, seen := t.packages[e.Package]; !seen || t.packages[e.Package] == "no tests" {
			t.packages[e.Package] = "ok"
		}
		t.elapsed[e.Package] += e.Elapsed
		fmt.Fprintf(w, "ok    %-34s %6.1fs\n", short(e.Package), e.Elapsed)
	case "skip":
		if e.Test != "" {
			t.tests++
			t.skipped = append(t.skipped, short(e.Package)+" "+e.Test)
			fmt.Fprintf(w, "SKIP  %s %s\n%s", short(e.Package), e.Test, strings.Join(t.output[key], ""))
			delete(t.output, key)
			return
		}
		if _, seen := t.packages[e.Package]; !seen {
			t.packages[e.Package] = "no tests"
		}
	case "fail":
		if e.Test != "" {
			t.tests++
			t.failed = append(t.failed, short(e.Package)+" "+e.Test)
			fmt.Fprintf(w, "--- FAIL %s %s (%.1fs)\n%s", short(e.Package), e.Test, e.Elapsed, strings.Join(t.output[key], ""))
			delete(t.output, key)
			return
		}
		t.packages[e.Package] = "FAIL"
		t.elapsed[e.Package] += e.Elapsed
		// Tests that started and never ended: the binary died under them (the race detector's
		// goroutine limit, a crash in C, a kill) or their "--- FAIL" line was glued to output
		// without a newline. What they printed is the only account of why the package failed.
		var open []string
		for k := range t.output {
			if pkg, test, _ := strings.Cut(k, "\x00"); pkg == e.Package && test != "" {
				open = append(open, test)
			}
		}
		sort.Strings(open)
		for _, test := range open {
			k := e.Package + "\x00" + test
			t.unfinished = append(t.unfinished, short(e.Package)+" "+test)
			fmt.Fprintf(w, "--- UNFINISHED %s %s\n%s", short(e.Package), test, strings.Join(t.output[k], ""))
			delete(t.output, k)
		}
		// Output outside any test: a panic, a timeout, TestMain's own failure.
		fmt.Fprintf(w, "FAIL  %-34s %6.1fs\n%s", short(e.Package), e.Elapsed, strings.Join(t.output[key], ""))
		delete(t.output, key)
	}
}

// slowestOf lists the n longest of times, longest first: "name 12s, name 3s".
func slowestOf(times map[string]float64, n int) string {
	names := make([]string, 0, len(times))
	for k := range times {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if times[names[i]] != times[names[j]] {
			return times[names[i]] > times[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, 0, n)
	for _, k := range names[:min(n, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %.0fs", k, times[k]))
	}
	return strings.Join(parts, ", ")
}

func (t *tally) ok(noSkip bool) bool {
	for _, v := range t.packages {
		if v == "FAIL" {
			return false
		}
	}
	return len(t.packages) > 0 && len(t.failed) == 0 && len(t.buildFails) == 0 && !(noSkip && len(t.skipped) > 0)
}

// summary is the last line of the run.
func (t *tally) summary(wall time.Duration, noSkip bool) string {
	verdict := "PASS"
	if !t.ok(noSkip) {
		verdict = "FAIL"
	}
	withTests := 0
	for _, v := range t.packages {
		if v != "no tests" {
			withTests++
		}
	}
	return fmt.Sprintf("%s: %d packages (%d with tests), %d tests, %d failed, %d skipped, %d build failures, wall %s",
		verdict, len(t.packages), withTests, t.tests, len(t.failed)+len(t.unfinished), len(t.skipped), len(t.buildFails), wall.Round(time.Second))
}

func main() {
	start := flag.String("start", "", "unix time (seconds, fractions allowed) the run began; default: when testsum started")
	noSkip := flag.Bool("no-skip", false, "a skipped test fails the run")
	slowest := flag.Int("slowest", 5, "list this many of the slowest packages, and of the slowest tests, before the summary")
	flag.Parse()
	began := time.Now()
	if *start != "" {
		s, err := strconv.ParseFloat(*start, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testsum: -start %q: %v\n", *start, err)
			os.Exit(2)
		}
		began = time.Unix(0, int64(s*1e9))
	}
	inputs := []io.Reader{os.Stdin}
	if flag.NArg() > 0 {
		inputs = inputs[:0]
		for _, name := range flag.Args() {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintf(os.Stderr, "testsum: %v\n", err)
				os.Exit(2)
			}
			defer f.Close()
			inputs = append(inputs, f)
		}
	}
	// Each input is read line by line on its own goroutine; whole lines meet in one channel,
	// so runs that go on at the same time never interleave inside an event.
	lines := make(chan []byte)
	errs := make(chan error, len(inputs))
	for _, r := range inputs {
		go func() {
			in := bufio.NewScanner(r)
			in.Buffer(make([]byte, 1<<20), 64<<20)
			for in.Scan() {
				lines <- append([]byte(nil), in.Bytes()...)
			}
			errs <- in.Err()
		}()
	}
	t := newTally()
	for open := len(inputs); open > 0; {
		select {
		case line := <-lines:
			var e event
			if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
				// Not an event: what go printed outside test2json (a setup error).
				fmt.Printf("%s\n", line)
				continue
			}
			t.add(e, os.Stdout)
		case err := <-errs:
			open--
			if err != nil {
				fmt.Fprintf(os.Stderr, "testsum: reading events: %v\n", err)
				os.Exit(2)
			}
		}
	}
	pkgs := make(map[string]float64, len(t.elapsed))
	for p, s := range t.elapsed {
		pkgs[short(p)] = s
	}
	if s := slowestOf(pkgs, *slowest); s != "" {
		fmt.Printf("slowest packages: %s\n", s)
	}
	if s := slowestOf(t.testTime, *slowest); s != "" {
		fmt.Printf("slowest tests: %s\n", s)
	}
	for _, s := range t.unfinished {
		fmt.Printf("never ended (counted as failed): %s\n", s)
	}
	for _, s := range t.skipped {
		fmt.Printf("skipped: %s\n", s)
	}
	fmt.Println(t.summary(time.Since(began), *noSkip))
	if !t.ok(*noSkip) {
		os.Exit(1)
	}
}

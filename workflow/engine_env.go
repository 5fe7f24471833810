package workflow

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// EngineEnv is an in-process server's configuration as the container environment that would
// set it: the settings that decide its speed as much as the machine does. It goes into the
// fingerprint of what the server measures (`bench qmax --self`, `kokoro emulate --serve`) the
// way a SageMaker endpoint's container environment does. Every engine row of the table with a
// Fingerprint is in it, and the admission bound; the shape is recorded as the engine resolves
// it (the adaptive default is slots 0 in the flags), so that two runs of different shapes never
// share a fingerprint.
func EngineEnv(e tts.LoadConfig, maxQueueDepth int) map[string]string {
	provider, _ := model.ParseProvider(e.Provider)
	shape, cores := e.Shape(provider, e.Assets.ORTLib, runtime.NumCPU())
	r := Resolved{Config: e, Shape: shape, Cores: cores}
	env := map[string]string{LookupSetting("max-queue-depth").Env: strconv.Itoa(maxQueueDepth)}
	for _, s := range EngineSettings() {
		if s.Fingerprint != nil {
			env[s.Env] = s.Fingerprint(r)
		}
	}
	return env
}

// ParseInts reads a list of positive integers separated by commas ("2,1,1"); empty is none.
func ParseInts(v string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: want positive integers separated by commas", v)
		}
		out = append(out, n)
	}
	return out, nil
}

// FormatInts writes a list of integers as its flag takes it: "2,1,1".
func FormatInts(l []int) string {
	parts := make([]string, len(l))
	for i, n := range l {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

// ToggleText writes a toggle as its flag takes it: auto, on or off.
func ToggleText(t model.Toggle) string {
	if t == model.ToggleAuto {
		return "auto"
	}
	return string(t)
}

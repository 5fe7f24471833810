package main

// The configuration table's rows are workflow.Setting; this file binds them to flags, with the
// default taken from the row's variable when the environment sets it.

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// deprecatedFlags are earlier spellings still accepted, with a warning naming the new one.
var deprecatedFlags = map[string]string{"first-chunk-ids": "first-chunk-max-ids"}

// The bind functions register the row's flag on f, bound to p, with the default taken from the
// environment when it is set there, else from the row (or def, for a row found at run time).

func bindString(f *pflag.FlagSet, p *string, flag string, def ...string) {
	s := workflow.LookupSetting(flag)
	d, _ := s.Default.(string)
	if len(def) > 0 {
		d = def[0]
	}
	f.StringVar(p, flag, envString(s.Env, d), s.Usage())
	bindDeprecated(f, flag, func(name string) { f.StringVar(p, name, envString(s.Env, d), s.Usage()) })
}

func bindInt(f *pflag.FlagSet, p *int, flag string) {
	s := workflow.LookupSetting(flag)
	f.IntVar(p, flag, envInt(s.Env, s.Default.(int)), s.Usage())
	bindDeprecated(f, flag, func(name string) { f.IntVar(p, name, envInt(s.Env, s.Default.(int)), s.Usage()) })
}

// bindValue registers a flag of a custom type; a variable that does not parse is reported and
// ignored, as the other kinds do.
func bindValue(f *pflag.FlagSet, v pflag.Value, flag string) {
	s := workflow.LookupSetting(flag)
	if d, ok := os.LookupEnv(s.Env); ok && d != "" {
		if err := v.Set(d); err != nil {
			fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: %v\n", s.Env, d, err)
		}
	}
	f.Var(v, flag, s.Usage())
}

func bindFloat(f *pflag.FlagSet, p *float64, flag string) {
	s := workflow.LookupSetting(flag)
	f.Float64Var(p, flag, envFloat(s.Env, s.Default.(float64)), s.Usage())
}

func bindDuration(f *pflag.FlagSet, p *time.Duration, flag string) {
	s := workflow.LookupSetting(flag)
	f.DurationVar(p, flag, envDuration(s.Env, s.Default.(time.Duration)), s.Usage())
}

func bindBool(f *pflag.FlagSet, p *bool, flag string) {
	s := workflow.LookupSetting(flag)
	def := s.Default.(bool)
	if v, ok := os.LookupEnv(s.Env); ok && v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not true or false\n", s.Env, v)
		} else {
			def = b
		}
	}
	f.BoolVar(p, flag, def, s.Usage())
}

// bindDeprecated registers the earlier spellings of flag, hidden from --help.
func bindDeprecated(f *pflag.FlagSet, flag string, bind func(name string)) {
	for old, now := range deprecatedFlags {
		if now == flag {
			bind(old)
			_ = f.MarkDeprecated(old, "use --"+now)
		}
	}
}

func envString(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not an integer\n", key, v)
		return def
	}
	return n
}

func envFloat(key string, def float64) float64 {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return def
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not a number\n", key, v)
		return def
	}
	return n
}

// envDuration reads seconds ("25", "2.5") or a Go duration ("25s", "1m").
func envDuration(key string, def time.Duration) time.Duration {
	v, ok := os.LookupEnv(key)
	if !ok || v == "" {
		return def
	}
	if sec, err := strconv.ParseFloat(v, 64); err == nil && sec >= 0 {
		return time.Duration(sec * float64(time.Second))
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: not seconds or a duration\n", key, v)
		return def
	}
	return d
}

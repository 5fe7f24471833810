package workflow

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// deprecatedFlags are earlier spellings still accepted, with a warning naming the new one.
var deprecatedFlags = map[string]string{"first-chunk-ids": "first-chunk-max-ids"}

// Bind registers the table row whose flag is flag on fl, bound to p, with the row's help and
// its default: the row's variable when the environment sets it, else the row's Default (or def,
// for a row whose default is found at run time). p is a *string, *int, *float64, *bool,
// *time.Duration, *[]string, *[]int, *model.Toggle or *chunk.FirstAt. A variable that does not
// parse is reported and ignored. Bind panics on a flag with no row or a p of another type: both
// are mistakes in the program, not in its input.
func Bind(fl *pflag.FlagSet, p any, flag string, def ...string) {
	s := LookupSetting(flag)
	bind := func(name string) {
		env, set := os.LookupEnv(s.Env)
		set = set && env != "" && s.Env != ""
		ignore := func(why string) { fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: %s\n", s.Env, env, why) }
		switch p := p.(type) {
		case *string:
			d, _ := s.Default.(string)
			if len(def) > 0 {
				d = def[0]
			}
			if set {
				d = env
			}
			usage := s.Usage()
			if d == "" && s.Default == nil && s.Shown != "" {
				usage += " (default: " + s.Shown + ")" // found when the job runs
			}
			fl.StringVar(p, name, d, usage)
		case *int:
			d := s.Default.(int)
			if set {
				if n, err := strconv.Atoi(env); err != nil {
					ignore("not an integer")
				} else {
					d = n
				}
			}
			fl.IntVar(p, name, d, s.Usage())
		case *float64:
			d := s.Default.(float64)
			if set {
				if n, err := strconv.ParseFloat(env, 64); err != nil {
					ignore("not a number")
				} else {
					d = n
				}
			}
			fl.Float64Var(p, name, d, s.Usage())
		case *bool:
			d := s.Default.(bool)
			if set {
				if b, err := strconv.ParseBool(env); err != nil {
					ignore("not true or false")
				} else {
					d = b
				}
			}
			fl.BoolVar(p, name, d, s.Usage())
		case *time.Duration:
			d := s.Default.(time.Duration)
			if set {
				if v, ok := parseSeconds(env); !ok {
					ignore("not seconds or a duration")
				} else {
					d = v
				}
			}
			fl.DurationVar(p, name, d, s.Usage())
		default:
			v := flagValue(p)
			if set {
				if err := v.Set(env); err != nil {
					ignore(err.Error())
				}
			}
			fl.Var(v, name, s.Usage())
		}
	}
	bind(flag)
	for old, now := range deprecatedFlags {
		if now == flag {
			bind(old)
			_ = fl.MarkDeprecated(old, "use --"+now)
		}
	}
}

// BindEngine binds the engine's rows (EngineSettings) to c; the asset paths default to what
// internal/assets resolves from the environment.
func BindEngine(fl *pflag.FlagSet, c *tts.LoadConfig) {
	a := assets.Resolve(os.Getenv)
	Bind(fl, &c.Assets.Model, "model", a.Model)
	Bind(fl, &c.Assets.Voices, "voices-dir", a.Voices)
	Bind(fl, &c.Assets.Lexicon, "lexicon-dir", a.Lexicon)
	Bind(fl, &c.Assets.ORTLib, "ort-lib", a.ORTLib)
	c.Assets.Dir = a.Dir
	Bind(fl, &c.Provider, "provider")
	Bind(fl, &c.Slots, "slots")
	Bind(fl, &c.Threads, "threads")
	Bind(fl, &c.SlotThreads, "slot-threads")
	Bind(fl, &c.Cores, "cores")
	Bind(fl, &c.Session.CPUArena, "cpu-arena")
	Bind(fl, &c.Session.Spinning, "spinning")
	Bind(fl, &c.Session.GraphOpt, "graph-opt")
	Bind(fl, &c.MaxTextChars, "max-text-chars")
	Bind(fl, &c.DecoderWindows, "decoder-windows")
	Bind(fl, &c.FirstChunkMaxIDs, "first-chunk-max-ids")
	Bind(fl, &c.FirstChunkMinIDs, "first-chunk-min-ids")
	Bind(fl, &c.FirstChunkAt, "first-chunk-at")
	Bind(fl, &c.ChunkContext, "chunk-context")
	Bind(fl, &c.MaxChunkIDs, "max-chunk-ids")
	Bind(fl, &c.Ramp, "chunk-ramp")
	Bind(fl, &c.DefaultVoice, "default-voice")
	Bind(fl, &c.Espeak, "espeak")
	Bind(fl, &c.PreloadLangs, "preload-langs")
}

// parseSeconds reads seconds ("25", "2.5") or a Go duration ("25s", "1m"), not negative.
func parseSeconds(v string) (time.Duration, bool) {
	if sec, err := strconv.ParseFloat(v, 64); err == nil {
		return time.Duration(sec * float64(time.Second)), sec >= 0
	}
	d, err := time.ParseDuration(v)
	return d, err == nil && d >= 0
}

// flagValue is the pflag.Value of a table row's typed field.
func flagValue(p any) pflag.Value {
	switch p := p.(type) {
	case *[]string:
		return (*stringList)(p)
	case *[]int:
		return (*intList)(p)
	case *model.Toggle:
		return (*toggle)(p)
	case *chunk.FirstAt:
		return (*firstAt)(p)
	}
	panic(fmt.Sprintf("workflow.Bind: no flag type for %T", p))
}

// stringList is a flag of comma-separated words ("ja,zh"); empty is none.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	*l = nil
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func (l *stringList) Type() string { return "list" }

// intList is a flag of comma-separated integers ("2,1,1"); empty is none.
type intList []int

func (l *intList) String() string { return FormatInts(*l) }

func (l *intList) Set(v string) error {
	out, err := ParseInts(v)
	if err != nil {
		return err
	}
	*l = out
	return nil
}

func (l *intList) Type() string { return "ints" }

// toggle is a flag of auto, on or off.
type toggle model.Toggle

func (t *toggle) String() string { return ToggleText(model.Toggle(*t)) }

func (t *toggle) Set(v string) error {
	m, err := model.ParseToggle(v)
	if err != nil {
		return err
	}
	*t = toggle(m)
	return nil
}

func (t *toggle) Type() string { return "auto|on|off" }

// firstAt is a flag of punctuation, phrase or word.
type firstAt chunk.FirstAt

func (f *firstAt) String() string { return chunk.FirstAt(*f).String() }

func (f *firstAt) Set(v string) error {
	a, err := chunk.ParseFirstAt(v)
	if err != nil {
		return err
	}
	*f = firstAt(a)
	return nil
}

func (f *firstAt) Type() string { return "punctuation|phrase|word" }

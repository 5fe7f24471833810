package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/api"
)

// setting is one row of the configuration table: a flag, the environment variable that sets its
// default (SageMaker passes a container's configuration as environment), the default, and what
// it means. The flags of `kokoro serve` (and the engine flags `synth` and `bench qmax --self`
// share) are bound from these rows, so --help shows them, and the README's table of them is
// checked against them by a test (TestREADMEConfigurationTable).
type setting struct {
	Flag    string // without dashes; "" for a variable with no flag
	Env     string // "" for a flag with no variable
	Default any    // typed default; nil when it is found at run time (Shown says how)
	Shown   string // the default as the table shows it; "" = Default printed
	Meaning string
}

// engineSettings configure the synthesis engine (tts.LoadConfig).
var engineSettings = []setting{
	{Flag: "model", Env: "KOKORO_MODEL", Shown: "$KOKORO_ASSETS/model/model.onnx", Meaning: "ONNX model file"},
	{Flag: "voices-dir", Env: "KOKORO_VOICES", Shown: "$KOKORO_ASSETS/voices", Meaning: "voice packs directory"},
	{Flag: "lexicon-dir", Env: "KOKORO_LEXICON", Shown: "$KOKORO_ASSETS/lexicon", Meaning: "lexicon directory"},
	{Flag: "ort-lib", Env: "KOKORO_ORT_LIB", Shown: "$KOKORO_ASSETS/lib/libonnxruntime.so.1", Meaning: "libonnxruntime.so"},
	{Env: "KOKORO_ASSETS", Shown: "assets/ in the working directory, a parent, or beside the binary",
		Meaning: "the directory the model, voices, lexicon and ONNX Runtime paths default to"},
	{Flag: "provider", Env: "PROVIDER", Default: "auto", Meaning: "execution provider: auto, cpu or cuda"},
	{Flag: "slots", Env: "SLOTS", Default: 0,
		Meaning: "model slots: independent sessions run in parallel; 0 = adaptive: on CPU one session on all cores for a lone request beside one per core (two threads each above 4 cores) for a busy queue, on CUDA 2"},
	{Flag: "threads", Env: "THREADS", Default: 0, Meaning: "intra-op threads per slot on CPU with --slots N; 0 = cores/slots"},
	{Flag: "slot-threads", Env: "SLOT_THREADS", Default: "", Shown: "none",
		Meaning: "each slot's intra-op threads, e.g. 2,1,1 (what kokoro tune prints); replaces --slots and --threads, the slots share --cores"},
	{Flag: "cores", Env: "CORES", Default: 0,
		Meaning: "cores the adaptive or --slot-threads slots share: a slot runs only when its threads fit in the cores left; 0 = all CPUs"},
	{Flag: "cpu-arena", Env: "ORT_CPU_ARENA", Default: "auto",
		Meaning: "ONNX Runtime's CPU memory arena, one shared by all slots: auto (on), on or off (less memory held, more CPU per chunk)"},
	{Flag: "spinning", Env: "ORT_SPINNING", Default: "auto",
		Meaning: "intra-op threads spin between parallel sections: auto (only with a single slot), on or off"},
	{Flag: "graph-opt", Env: "ORT_GRAPH_OPT", Default: "all", Meaning: "ONNX Runtime graph optimization level: none, basic, extended or all"},
	{Flag: "max-text-chars", Env: "MAX_TEXT_CHARS", Default: 10000, Meaning: "longest accepted text in characters; 0 = unlimited"},
	{Flag: "decoder-windows", Env: "DECODER_WINDOWS", Default: "auto",
		Meaning: "hear each sentence whole and send its audio in decoder windows, where the model splits into predictor and decoder: first audio after one window, and the chunk settings above do not apply; auto (on with CUDA), on or off (docs/performance.md: on CPU the first audio comes at about 0.4x the time, heard a little worse)"},
	{Flag: "first-chunk-max-ids", Env: "FIRST_CHUNK_MAX_IDS", Default: 0,
		Meaning: "most phoneme ids in the first chunk (a longer first phrase is cut between words); 0 = the chunker's default, 80"},
	{Flag: "first-chunk-min-ids", Env: "FIRST_CHUNK_MIN_IDS", Default: 0,
		Meaning: "fewest phoneme ids before punctuation may end the first chunk, which is the text's first phrase while the slots keep up; 0 = the chunker's default, 12"},
	{Flag: "first-chunk-at", Env: "FIRST_CHUNK_AT", Default: "punctuation",
		Meaning: "weakest boundary the first chunk may end on: punctuation; phrase (also before a word such as and, at, which); word (also between two words that do not split a phrase); auto (word for a request that finds the engine idle and --chunk-context on, else punctuation). phrase and word make first audio earlier (README, Performance); their --first-chunk-max-ids default is 30"},
	{Flag: "chunk-context", Env: "CHUNK_CONTEXT", Default: "auto",
		Meaning: "for a request that finds the engine idle, a chunk cut between two words is synthesized with the word across the cut and its audio cut in the space between, where the model tells where each phoneme's audio lies (Kokoro's exports do): auto or on, or off"},
	{Flag: "max-chunk-ids", Env: "MAX_CHUNK_IDS", Default: 0,
		Meaning: "phoneme ids in later chunks, times the speed under 1; 0 = 200 on CPU (finer scheduling, same real-time factor), 510 on CUDA"},
	{Flag: "chunk-ramp", Env: "CHUNK_RAMP", Default: 0.0,
		Meaning: "a later chunk has at most this many times the ids before it, so it is ready before they have played; 0 = cut to what the model, at its measured speed, makes while the audio before it plays; below 0 = no ramp"},
	{Flag: "default-voice", Env: "DEFAULT_VOICE", Default: api.DefaultVoice, Meaning: "voice used when a request names none"},
	{Flag: "espeak", Env: "KOKORO_ESPEAK", Default: "", Shown: "espeak-ng on PATH",
		Meaning: "espeak-ng for words no lexicon knows: empty = from PATH, off, or a path"},
	{Flag: "preload-langs", Env: "PRELOAD_LANGS", Default: "",
		Meaning: "languages whose dictionaries are read during the warm-up instead of by their first request, e.g. ja,zh (Japanese takes about 5 s and 141 MB, Mandarin 1 s and 36 MB); empty = on first use"},
}

// serveSettings configure the server around the engine (serveConfig).
var serveSettings = []setting{
	{Flag: "host", Env: "HOST", Default: "0.0.0.0", Meaning: "address to listen on"},
	{Flag: "port", Env: "PORT", Default: 8080, Meaning: "port to listen on"},
	{Flag: "max-queue-depth", Env: "MAX_QUEUE_DEPTH", Default: 0,
		Meaning: "requests in the system (queued + executing) before new ones get 503 queue_saturated; 0 = unbounded"},
	{Flag: "max-request-age", Env: "MAX_REQUEST_AGE_S", Default: 56.0,
		Meaning: "seconds after which a request_timestamp is stale (408); 0 = never"},
	{Flag: "drain-timeout", Env: "DRAIN_TIMEOUT", Default: 25 * time.Second,
		Meaning: "shutdown budget after SIGTERM: work finishes until 3 s before it, then what is left is cut (SageMaker allows 30 s); the variable takes seconds or a duration"},
	{Flag: "log-level", Env: "LOG_LEVEL", Default: "info", Meaning: "debug, info, warn or error"},
	{Flag: "openai-voices", Env: "OPENAI_VOICES", Default: "", Shown: "docs/server.md",
		Meaning: "OpenAI voice names mapped to Kokoro voices, over the defaults: alloy=af_heart,echo=am_adam"},
	{Env: envContainerStart, Shown: "the process start",
		Meaning: "unix seconds the stage markers' elapsed_s counts from; the container entrypoint exports it"},
}

// envContainerStart is read directly by `kokoro serve`: it has no flag.
const envContainerStart = "CONTAINER_START_EPOCH"

// deprecatedFlags are earlier spellings still accepted, with a warning naming the new one.
var deprecatedFlags = map[string]string{"first-chunk-ids": "first-chunk-max-ids"}

func lookupSetting(flag string) setting {
	for _, rows := range [][]setting{engineSettings, serveSettings} {
		for _, s := range rows {
			if s.Flag == flag {
				return s
			}
		}
	}
	panic(fmt.Sprintf("no configuration row for --%s", flag)) // a programming error, caught by every test
}

// usage is the flag's help line: its meaning and the variable that sets it.
func (s setting) usage() string {
	if s.Env == "" {
		return s.Meaning
	}
	return fmt.Sprintf("%s (env %s)", s.Meaning, s.Env)
}

// The bind functions register the row's flag on f, bound to p, with the default taken from the
// environment when it is set there, else from the row (or def, for a row found at run time).

func bindString(f *pflag.FlagSet, p *string, flag string, def ...string) {
	s := lookupSetting(flag)
	d, _ := s.Default.(string)
	if len(def) > 0 {
		d = def[0]
	}
	f.StringVar(p, flag, envString(s.Env, d), s.usage())
	bindDeprecated(f, flag, func(name string) { f.StringVar(p, name, envString(s.Env, d), s.usage()) })
}

func bindInt(f *pflag.FlagSet, p *int, flag string) {
	s := lookupSetting(flag)
	f.IntVar(p, flag, envInt(s.Env, s.Default.(int)), s.usage())
	bindDeprecated(f, flag, func(name string) { f.IntVar(p, name, envInt(s.Env, s.Default.(int)), s.usage()) })
}

// bindValue registers a flag of a custom type; a variable that does not parse is reported and
// ignored, as the other kinds do.
func bindValue(f *pflag.FlagSet, v pflag.Value, flag string) {
	s := lookupSetting(flag)
	if d, ok := os.LookupEnv(s.Env); ok && d != "" {
		if err := v.Set(d); err != nil {
			fmt.Fprintf(os.Stderr, "kokoro: ignoring %s=%q: %v\n", s.Env, d, err)
		}
	}
	f.Var(v, flag, s.usage())
}

func bindFloat(f *pflag.FlagSet, p *float64, flag string) {
	s := lookupSetting(flag)
	f.Float64Var(p, flag, envFloat(s.Env, s.Default.(float64)), s.usage())
}

func bindDuration(f *pflag.FlagSet, p *time.Duration, flag string) {
	s := lookupSetting(flag)
	f.DurationVar(p, flag, envDuration(s.Env, s.Default.(time.Duration)), s.usage())
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

// envOnlyHelp lists the rows that have no flag, for a command's long help.
func envOnlyHelp(rows ...[]setting) string {
	var parts []string
	for _, set := range rows {
		for _, s := range set {
			if s.Flag == "" {
				parts = append(parts, fmt.Sprintf("%s: %s (default: %s)", s.Env, s.Meaning, s.Shown))
			}
		}
	}
	return "Environment without a flag: " + strings.Join(parts, "; ") + "."
}

// markdownTable renders rows as the README's configuration table.
func markdownTable(rows ...[]setting) string {
	var b strings.Builder
	b.WriteString("| flag | environment | default | meaning |\n|---|---|---|---|\n")
	for _, set := range rows {
		for _, s := range set {
			flag, env, def := "", "", s.Shown
			if s.Flag != "" {
				flag = "`--" + s.Flag + "`"
			}
			if s.Env != "" {
				env = "`" + s.Env + "`"
			}
			if def == "" {
				def = fmt.Sprint(s.Default)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", flag, env, def, s.Meaning)
		}
	}
	return b.String()
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

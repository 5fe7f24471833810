package workflow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/tts"
)

// Setting is one row of the configuration table: a flag, the environment variable that sets its
// default (SageMaker passes a container's configuration as environment), the default, and what
// it means. The flags of `kokoro serve` (and the engine flags `synth` and `bench qmax --self`
// share) are bound from these rows, so --help shows them, and the README's table of them is
// checked against them by a test (TestREADMEConfigurationTable).
type Setting struct {
	Flag    string // without dashes; "" for a variable with no flag
	Env     string // "" for a flag with no variable
	Default any    // typed default; nil when it is found at run time (Shown says how)
	Shown   string // the default as the table shows it; "" = Default printed
	Meaning string

	// Fingerprint writes an engine setting's value as the engine resolves it on this machine,
	// for the fingerprint of what an in-process server measures (EngineEnv): two runs that
	// differ in it never share a benchmark artifact's slug. NotFingerprinted says instead why
	// a row stays out of it; every engine row has one of the two.
	Fingerprint      func(Resolved) string
	NotFingerprinted string
}

// Resolved is an engine configuration as the engine resolves it on this machine: the slot
// shape the adaptive default (slots 0) becomes, and the cores the slots share.
type Resolved struct {
	Config tts.LoadConfig
	Shape  []int
	Cores  int
}

// assetPath is why the asset paths stay out of the fingerprint.
const assetPath = "a path on this machine: the model file is fingerprinted by its SHA-256, the runtime by the build and host"

// EngineSettings are the rows that configure the synthesis engine (tts.LoadConfig).
func EngineSettings() []Setting {
	return []Setting{
		{Flag: "model", Env: "KOKORO_MODEL", Shown: "$KOKORO_ASSETS/model/model.onnx", Meaning: "ONNX model file",
			NotFingerprinted: assetPath},
		{Flag: "voices-dir", Env: "KOKORO_VOICES", Shown: "$KOKORO_ASSETS/voices", Meaning: "voice packs directory",
			NotFingerprinted: assetPath},
		{Flag: "lexicon-dir", Env: "KOKORO_LEXICON", Shown: "$KOKORO_ASSETS/lexicon", Meaning: "lexicon directory",
			NotFingerprinted: assetPath},
		{Flag: "ort-lib", Env: "KOKORO_ORT_LIB", Shown: "$KOKORO_ASSETS/lib/libonnxruntime.so.1", Meaning: "libonnxruntime.so",
			NotFingerprinted: assetPath},
		{Env: "KOKORO_ASSETS", Shown: "assets/ in the working directory, a parent, or beside the binary",
			Meaning:          "the directory the model, voices, lexicon and ONNX Runtime paths default to",
			NotFingerprinted: assetPath},
		{Flag: "provider", Env: "PROVIDER", Default: "auto", Meaning: "execution provider: auto, cpu or cuda",
			Fingerprint: func(r Resolved) string { return r.Config.Provider }},
		{Flag: "slots", Env: "SLOTS", Default: 0,
			Meaning:     "model slots: independent sessions run in parallel; 0 = adaptive: on CPU one session on all cores for a lone request beside one per core (two threads each above 4 cores) for a busy queue, on CUDA 2",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(len(r.Shape)) }},
		{Flag: "threads", Env: "THREADS", Default: 0, Meaning: "intra-op threads per slot on CPU with --slots N; 0 = cores/slots",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(slices.Max(r.Shape)) }},
		{Flag: "slot-threads", Env: "SLOT_THREADS", Default: "", Shown: "none",
			Meaning:     "each slot's intra-op threads, e.g. 2,1,1 (what kokoro tune prints); replaces --slots and --threads, the slots share --cores",
			Fingerprint: func(r Resolved) string { return FormatInts(r.Shape) }},
		{Flag: "cores", Env: "CORES", Default: 0,
			Meaning:     "cores the adaptive or --slot-threads slots share: a slot runs only when its threads fit in the cores left; 0 = all CPUs",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(r.Cores) }},
		{Flag: "cpu-arena", Env: "ORT_CPU_ARENA", Default: "auto",
			Meaning:     "ONNX Runtime's CPU memory arena, one shared by all slots: auto (on), on or off (less memory held, more CPU per chunk)",
			Fingerprint: func(r Resolved) string { return ToggleText(r.Config.Session.CPUArena) }},
		{Flag: "spinning", Env: "ORT_SPINNING", Default: "auto",
			Meaning:     "intra-op threads spin between parallel sections: auto (only with a single slot), on or off",
			Fingerprint: func(r Resolved) string { return ToggleText(r.Config.Session.Spinning) }},
		{Flag: "graph-opt", Env: "ORT_GRAPH_OPT", Default: "all", Meaning: "ONNX Runtime graph optimization level: none, basic, extended or all",
			Fingerprint: func(r Resolved) string { return r.Config.Session.GraphOpt }},
		{Flag: "max-text-chars", Env: "MAX_TEXT_CHARS", Default: 10000, Meaning: "longest accepted text in characters; 0 = unlimited",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(r.Config.MaxTextChars) }},
		{Flag: "decoder-windows", Env: "DECODER_WINDOWS", Default: "auto",
			Meaning:     "hear each sentence whole and send its audio in decoder windows, where the model splits into predictor and decoder: first audio after one window, and the chunk settings below do not apply; auto (on with CUDA), on or off (on CPU first audio came at about 0.4x the time and was heard a little worse: docs/performance.md)",
			Fingerprint: func(r Resolved) string { return ToggleText(r.Config.DecoderWindows) }},
		{Flag: "first-chunk-max-ids", Env: "FIRST_CHUNK_MAX_IDS", Default: 0,
			Meaning:     "most phoneme ids in the first chunk (a longer first phrase is cut between words); 0 = the chunker's default, 80",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(r.Config.FirstChunkMaxIDs) }},
		{Flag: "first-chunk-min-ids", Env: "FIRST_CHUNK_MIN_IDS", Default: 0,
			Meaning:     "fewest phoneme ids before punctuation may end the first chunk, which is the text's first phrase while the slots keep up; 0 = the chunker's default, 12",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(r.Config.FirstChunkMinIDs) }},
		{Flag: "first-chunk-at", Env: "FIRST_CHUNK_AT", Default: "punctuation",
			Meaning:     "weakest boundary the first chunk may end on: punctuation; phrase (also before a word such as and, at, which); word (also between two words that do not split a phrase); auto (word for a request that finds the engine idle and --chunk-context on, else punctuation). phrase and word make first audio earlier (README, Performance); their --first-chunk-max-ids default is 30",
			Fingerprint: func(r Resolved) string { return r.Config.FirstChunkAt.String() }},
		{Flag: "chunk-context", Env: "CHUNK_CONTEXT", Default: "auto",
			Meaning:     "for a request that finds the engine idle, a chunk cut between two words is synthesized with the word across the cut and its audio cut in the space between, where the model tells where each phoneme's audio lies (Kokoro's exports do): auto or on, or off",
			Fingerprint: func(r Resolved) string { return ToggleText(r.Config.ChunkContext) }},
		{Flag: "max-chunk-ids", Env: "MAX_CHUNK_IDS", Default: 0,
			Meaning:     "phoneme ids in later chunks, times the speed under 1; 0 = 200 on CPU (finer scheduling, same real-time factor), 510 on CUDA",
			Fingerprint: func(r Resolved) string { return strconv.Itoa(r.Config.MaxChunkIDs) }},
		{Flag: "chunk-ramp", Env: "CHUNK_RAMP", Default: 0.0,
			Meaning:     "a later chunk has at most this many times the ids before it, so it is ready before they have played; 0 = cut to what the model, at its measured speed, makes while the audio before it plays; below 0 = no ramp",
			Fingerprint: func(r Resolved) string { return strconv.FormatFloat(r.Config.Ramp, 'g', -1, 64) }},
		{Flag: "default-voice", Env: "DEFAULT_VOICE", Default: api.DefaultVoice, Meaning: "voice used when a request names none",
			Fingerprint: func(r Resolved) string { return r.Config.DefaultVoice }},
		{Flag: "espeak", Env: "KOKORO_ESPEAK", Default: "", Shown: "espeak-ng on PATH",
			Meaning:     "espeak-ng for words no lexicon knows: empty = from PATH, off, or a path",
			Fingerprint: func(r Resolved) string { return r.Config.Espeak }},
		{Flag: "preload-langs", Env: "PRELOAD_LANGS", Default: "",
			Meaning:     "languages whose dictionaries are read during the warm-up instead of by their first request, e.g. ja,zh (Japanese takes about 5 s and 141 MB, Mandarin 1 s and 36 MB); empty = on first use",
			Fingerprint: func(r Resolved) string { return strings.Join(r.Config.PreloadLangs, ",") }},
	}
}

// ServeSettings are the rows that configure the server around the engine.
func ServeSettings() []Setting {
	return []Setting{
		{Flag: "host", Env: "HOST", Default: "0.0.0.0", Meaning: "address to listen on"},
		{Flag: "port", Env: "PORT", Default: 8080, Meaning: "port to listen on"},
		{Flag: "max-queue-depth", Env: api.EnvMaxQueueDepth, Default: 0,
			Meaning: "requests in the system (queued + executing) before new ones get 503 queue_saturated; 0 = unbounded"},
		{Flag: "max-request-age", Env: "MAX_REQUEST_AGE_S", Default: 56.0,
			Meaning: "seconds after which a request_timestamp is stale (408); 0 = never"},
		{Flag: "drain-timeout", Env: "DRAIN_TIMEOUT", Default: 25 * time.Second,
			Meaning: "shutdown budget after SIGTERM: work finishes until 3 s before it, then what is left is cut (SageMaker allows 30 s); the variable takes seconds or a duration"},
		{Flag: "log-level", Env: "LOG_LEVEL", Default: "info", Meaning: "debug, info, warn or error"},
		{Flag: "lexicons", Env: "LEXICONS", Default: "",
			Meaning: "directory of pronunciation lexicons (W3C PLS .pls or .xml, or .json), each named by its file name for a request's lexicon_names (docs/ssml.md); empty = none"},
		{Flag: "openai-voices", Env: "OPENAI_VOICES", Default: "", Shown: "docs/server.md",
			Meaning: "OpenAI voice names mapped to Kokoro voices, over the defaults: alloy=af_heart,echo=am_adam"},
		{Flag: "allow-unknown-fields", Env: "ALLOW_UNKNOWN_FIELDS", Default: false,
			Meaning: "ignore request fields a route does not have, for clients that must send extras; by default they are refused (400 unknown_field) so that a misspelt field never falls back to a default"},
		{Env: EnvContainerStart, Shown: "the process start",
			Meaning: "unix seconds the stage markers' elapsed_s counts from; the container entrypoint exports it"},
	}
}

// EnvContainerStart is read directly by `kokoro serve`: it has no flag.
const EnvContainerStart = "CONTAINER_START_EPOCH"

// CommandSettings are the rows of the cloud commands' environment: defaults of their flags that
// a shell sets once for every command.
func CommandSettings() []Setting {
	return []Setting{
		{Flag: "aws-timeout", Env: "KOKORO_AWS_TIMEOUT", Default: awsconf.DefaultAnswerTimeout,
			Meaning: "longest wait for an AWS call's answer (and 1.5× that for the bench's preflight); an address that is silent longer fails with a line naming it"},
		{Flag: "state-dir", Env: "KOKORO_STATE_DIR", Shown: "$XDG_STATE_HOME/kokoro or ~/.local/state/kokoro",
			Meaning: "directory of the state files a freeze keeps, from which kokoro thaw restores an endpoint's scaling"},
	}
}

// LookupSetting returns the row of the flag; a flag with no row is a programming error, which
// every test that builds the command line catches.
func LookupSetting(flag string) Setting {
	for _, rows := range [][]Setting{EngineSettings(), ServeSettings(), CommandSettings()} {
		for _, s := range rows {
			if s.Flag == flag {
				return s
			}
		}
	}
	panic(fmt.Sprintf("no configuration row for --%s", flag))
}

// Usage is the flag's help line: its meaning and the variable that sets it.
func (s Setting) Usage() string {
	if s.Env == "" {
		return s.Meaning
	}
	return fmt.Sprintf("%s (env %s)", s.Meaning, s.Env)
}

// EnvOnlyHelp lists the rows that have no flag, for a command's long help.
func EnvOnlyHelp(rows ...[]Setting) string {
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

// MarkdownTable renders rows as the README's configuration table.
func MarkdownTable(rows ...[]Setting) string {
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

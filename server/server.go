package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// Engine is what the server needs from a loaded text-to-speech engine; *tts.Engine has it.
type Engine interface {
	// CheckVoice resolves how a request is spoken, its lang, voice and speed
	// (tts.Engine.CheckVoice); CheckText resolves the text it speaks (tts.Engine.CheckText),
	// once for a request, or for each piece of WebSocket text that arrives in pieces.
	CheckVoice(req tts.Request) (tts.Resolved, error)
	CheckText(r tts.Resolved, text string) (tts.Resolved, error)
	// Stream speaks what the checks resolved (tts.Engine.Stream).
	Stream(ctx context.Context, r tts.Resolved, emit func(tts.Chunk) error) (tts.Stats, error)
	VoiceNames() []string
	MaxTextChars() int // 0 = unlimited
}

// Loader builds the engine while the server already accepts connections. It reports the
// weights_ready and warmup_done stages through stage, passes obs on to the engine's
// tts.Config.Observer, and returns a function that releases the engine.
type Loader func(ctx context.Context, obs tts.Observer, stage func(name string)) (Engine, func() error, error)

// Config configures a Server. Zero values take the documented defaults.
type Config struct {
	Load          Loader        // required
	MaxQueueDepth int           // admission bound on requests in the system; 0 = unbounded
	MaxRequestAge time.Duration // request_timestamp older than this → 408; 0 = never stale
	MaxBodyBytes  int64         // request body limit; default 1 MiB

	ReadTimeout   time.Duration // to read headers and body; default 10 s
	WriteTimeout  time.Duration // longest a single write may stall on a slow client; default 15 s
	IdleTimeout   time.Duration // keep-alive connections; default 120 s
	WSIdleTimeout time.Duration // a WebSocket session with no frame from the client; default 5 min
	// DrainTimeout is the whole shutdown budget, from the context's end to Serve's return:
	// admitted work may finish until cutGrace before it, then what is left is cut in a way
	// each client can detect. Default 25 s, inside the 30 s SageMaker waits after SIGTERM.
	DrainTimeout time.Duration
	// VoiceAliases maps voice names a request may use (OpenAI's) to Kokoro voices or blends;
	// nil means DefaultVoiceAliases. Names are matched without regard to case.
	VoiceAliases map[string]string
	RetryAfter   time.Duration // Retry-After on 503; default 1 s
	// LexiconDir holds pronunciation lexicons (markup.LoadLexicons: PLS and JSON) a request
	// names in lexicon_names; "" for none. A bad file fails New with its name and line.
	LexiconDir string
	// AllowUnknownFields ignores request fields a route does not have, where by default they
	// are refused (400 unknown_field), for a client that must send extra fields.
	AllowUnknownFields bool

	Registry *prometheus.Registry // nil = a new registry with the Go and process collectors
	Logger   *slog.Logger         // nil = JSON on stderr
	Stages   io.Writer            // stage markers; nil = discarded
	Start    time.Time            // zero = when New is called; elapsed_s counts from here
	Now      func() time.Time     // nil = time.Now; stage markers and request age use it
}

// Server serves the routes of `kokoro serve`. Create it with New and run it with Serve.
type Server struct {
	cfg     Config
	log     *slog.Logger
	reg     *prometheus.Registry
	metrics *Metrics
	gate    *gate
	stages  *stager
	handler http.Handler

	lexicons map[string]*markup.Lexicon // by name, from cfg.LexiconDir
	eng      atomic.Pointer[engineBox]
	ready    chan struct{}
	drainCh  chan struct{} // closed when shutdown begins
	draining atomic.Bool
	served   atomic.Bool

	// active counts running handlers, WebSocket sessions included (hijacked connections are
	// invisible to http.Server.Shutdown, so the server tracks them itself); busy is the same
	// count, readable.
	activeMu sync.Mutex
	active   sync.WaitGroup
	busy     atomic.Int64
	stopped  bool

	voices tts.Aliases
}

type engineBox struct{ Engine }

// errNoEngine reports a loader that returned neither an engine nor an error.
var errNoEngine = errors.New("the loader returned no engine")

// New checks cfg and builds a server; nothing runs until Serve.
func New(cfg Config) (*Server, error) {
	if cfg.Load == nil {
		return nil, errors.New("server config: Load is required")
	}
	if cfg.MaxQueueDepth < 0 || cfg.MaxBodyBytes < 0 {
		return nil, fmt.Errorf("server config: negative limit (max queue depth %d, max body bytes %d)",
			cfg.MaxQueueDepth, cfg.MaxBodyBytes)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.ReadTimeout, 10*time.Second)
	def(&cfg.WriteTimeout, 15*time.Second)
	def(&cfg.IdleTimeout, 120*time.Second)
	def(&cfg.WSIdleTimeout, 5*time.Minute)
	def(&cfg.DrainTimeout, 25*time.Second)
	def(&cfg.RetryAfter, time.Second)
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Start.IsZero() {
		cfg.Start = cfg.Now()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	if cfg.Stages == nil {
		cfg.Stages = io.Discard
	}
	reg := cfg.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		reg:     reg,
		metrics: NewMetrics(reg),
		gate:    newGate(cfg.MaxQueueDepth),
		stages:  &stager{w: cfg.Stages, start: cfg.Start, now: cfg.Now},
		ready:   make(chan struct{}),
		drainCh: make(chan struct{}),
	}
	aliases := cfg.VoiceAliases
	if aliases == nil {
		aliases = DefaultVoiceAliases
	}
	s.voices = tts.NewAliases(aliases)
	if cfg.LexiconDir != "" {
		lxs, err := markup.LoadLexicons(cfg.LexiconDir)
		if err != nil {
			return nil, err
		}
		s.lexicons = lxs
	}
	s.handler = s.routes()
	return s, nil
}

// Ready is closed once the engine is loaded and warmed, when /ping starts answering 200.
func (s *Server) Ready() <-chan struct{} { return s.ready }

// Metrics are the server's collectors, for tests and for in-process callers.
func (s *Server) Metrics() *Metrics { return s.metrics }

func (s *Server) engine() Engine {
	if b := s.eng.Load(); b != nil && !s.draining.Load() {
		return b.Engine
	}
	return nil
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(api.RoutePing, s.handlePing)
	mux.HandleFunc(api.RouteInvocations, s.handleSynthesis(labelInvocations, parseInvocation))
	mux.HandleFunc(api.RouteOpenAISpeech, s.handleSynthesis(labelSpeech, parseSpeech))
	mux.HandleFunc(api.RouteCaptionedSpeech, s.handleSynthesis(labelCaptioned, parseCaptioned))
	mux.HandleFunc(api.RoutePhonemize, s.handlePhonemize)
	mux.HandleFunc(api.RouteGenerateFromPhonemes, s.handleSynthesis(labelFromPhonemes, parseFromPhonemes))
	mux.HandleFunc(api.RouteOpenAIVoices, s.handleVoices)
	mux.HandleFunc(api.RouteOpenAIModels, s.handleModels)
	mux.HandleFunc(api.RouteOpenAIModels+"/", s.handleModels)
	mux.HandleFunc(api.RouteBidiStream, s.handleBidi)
	mux.HandleFunc(api.RouteCartesia, func(w http.ResponseWriter, r *http.Request) { s.serveSocket(w, r, newCartesia) })
	mux.HandleFunc(api.RouteDeepgramSpeak, func(w http.ResponseWriter, r *http.Request) { s.serveSocket(w, r, newDeepgram) })
	mux.HandleFunc(elevenLabsPrefix, func(w http.ResponseWriter, r *http.Request) { s.serveSocket(w, r, newElevenLabs) })
	mux.Handle(api.RouteMetrics, methods(promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{Registry: s.reg}), http.MethodGet))
	mux.HandleFunc("/", s.webRoot(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, classify(fmt.Errorf("%w: no route %s", errNotFound, clip(r.URL.Path))), 0)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.enter() {
			writeError(w, r, classify(errShuttingDown), s.retryAfter())
			return
		}
		defer s.leave()
		if s.draining.Load() {
			// A draining server keeps answering (503s, /ping "draining") but lets no
			// connection linger for more.
			w.Header().Set("Connection", "close")
		}
		mux.ServeHTTP(w, r)
	})
}

// enter counts a handler in unless shutdown has finished waiting for handlers.
func (s *Server) enter() bool {
	s.activeMu.Lock()
	defer s.activeMu.Unlock()
	if s.stopped {
		return false
	}
	s.active.Add(1)
	s.busy.Add(1)
	return true
}

func (s *Server) leave() {
	s.busy.Add(-1)
	s.active.Done()
}

func (s *Server) retryAfter() int {
	return max(1, int(s.cfg.RetryAfter.Round(time.Second)/time.Second))
}

// Serve accepts on ln at once, loads the engine in the background and serves until ctx ends.
// Then it stops accepting, lets in-flight requests and WebSocket utterances finish for up to
// DrainTimeout, cancels whatever is left, closes the engine and returns. It returns the
// loader's error when loading fails, and nil after a clean shutdown. Serve may be called once.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if !s.served.CompareAndSwap(false, true) {
		return errors.New("server: Serve called twice")
	}
	// Request contexts descend from hard, which is cancelled only when draining runs out of
	// time (with errDrainCut as its cause): a SIGTERM must not cut short the work it is
	// supposed to drain.
	hard, hardCancel := context.WithCancelCause(context.WithoutCancel(ctx))
	defer hardCancel(nil)
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		BaseContext:       func(net.Listener) context.Context { return hard },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	s.stages.mark(api.StageFrameworkInit)
	s.log.Info("listening", "addr", ln.Addr().String(), "max_queue_depth", s.cfg.MaxQueueDepth)

	type loaded struct {
		eng   Engine
		close func() error
		err   error
	}
	loadCtx, loadCancel := context.WithCancel(ctx)
	defer loadCancel()
	loadDone := make(chan loaded, 1)
	go func() {
		eng, closeFn, err := s.cfg.Load(loadCtx, s.metrics, s.stages.mark)
		if err == nil && eng == nil {
			// Nothing to serve with: fail the start rather than every request.
			if closeFn != nil {
				_ = closeFn()
			}
			closeFn, err = nil, errNoEngine
		}
		loadDone <- loaded{eng, closeFn, err}
	}()

	var (
		result error
		engine *loaded
	)
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case err := <-serveErr:
			result = fmt.Errorf("serve: %w", err)
			serveErr = nil
			break wait
		case l := <-loadDone:
			loadDone = nil
			if l.err != nil {
				result = fmt.Errorf("load engine: %w", l.err)
				break wait
			}
			engine = &l
			s.warnAliases(l.eng)
			s.eng.Store(&engineBox{l.eng})
			s.metrics.Ready.Set(1)
			close(s.ready)
			s.stages.mark(api.StageReady)
			s.log.Info("ready")
		}
	}

	s.drain(hs, hardCancel)
	hardCancel(nil)
	if serveErr != nil {
		if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) && result == nil {
			result = fmt.Errorf("serve: %w", err)
		}
	}
	if loadDone != nil {
		// The loader saw loadCtx end; an engine it finished anyway must still be released.
		l := <-loadDone
		if l.err == nil {
			engine = &l
		}
	}
	if engine != nil && engine.close != nil {
		if err := engine.close(); err != nil {
			s.log.Warn("close engine", "err", err)
		}
	}
	s.log.Info("stopped")
	return result
}

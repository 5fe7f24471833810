package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/tts"
)

// methods answers 405 with an Allow header unless the request uses one of allowed.
func methods(h http.Handler, allowed ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowMethod(w, r, allowed...) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

func allowMethod(w http.ResponseWriter, r *http.Request, allowed ...string) bool {
	if slices.Contains(allowed, r.Method) || (r.Method == http.MethodHead && slices.Contains(allowed, http.MethodGet)) {
		return true
	}
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	err := fmt.Errorf("%w: %s %s; use %s", errMethod, r.Method, r.URL.Path, strings.Join(allowed, " or "))
	writeError(w, classify(err), 0)
	return false
}

// handlePing is SageMaker's health check: 200 only once the model is loaded and warmed, and
// 503 again while draining so that no new traffic is routed here.
func (s *Server) handlePing(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	switch {
	case s.draining.Load():
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "draining"})
	case s.engine() == nil:
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "loading"})
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}
}

// handleVoices lists the voices a request may name (blends of them are accepted too).
func (s *Server) handleVoices(w http.ResponseWriter, r *http.Request) {
	if eng := s.engineFor(w, r, http.MethodGet); eng != nil {
		writeJSON(w, http.StatusOK, map[string][]string{"voices": eng.VoiceNames()})
	}
}

// engineFor checks the method and returns the loaded engine; when either is wrong it answers
// the request (405, or 503 while loading or draining) and returns nil.
func (s *Server) engineFor(w http.ResponseWriter, r *http.Request, method string) Engine {
	if !allowMethod(w, r, method) {
		return nil
	}
	eng := s.engine()
	if eng == nil {
		writeError(w, classify(s.notReady()), s.retryAfter())
	}
	return eng
}

func (s *Server) notReady() error {
	if s.draining.Load() {
		return errShuttingDown
	}
	return errNotReady
}

// handleSynthesis serves POST /invocations and POST /v1/audio/speech: everything a client can
// get wrong is decided before admission, and admission before the 200.
func (s *Server) handleSynthesis(route string, parse func([]byte, limits) (*synthesis, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		arrived := time.Now()
		id := r.Header.Get(api.HeaderRequestID)
		fail := func(err error) {
			if id == "" {
				id = newID()
			}
			h := classify(err)
			w.Header().Set(api.HeaderRequestID, id)
			writeError(w, h, s.retryAfter())
			s.record(route, id, h, arrived, nil, tts.Stats{}, err)
		}
		if !allowMethod(w, r, http.MethodPost) {
			return
		}
		eng := s.engine()
		if eng == nil {
			fail(s.notReady())
			return
		}
		rc := http.NewResponseController(w)
		// A per-request read deadline rather than http.Server.ReadTimeout: the latter would
		// also fire during the background read that watches for a disconnect while the
		// response streams, and cancel a healthy request.
		_ = rc.SetReadDeadline(time.Now().Add(s.cfg.ReadTimeout))
		body, err := readBody(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes), s.cfg.MaxBodyBytes)
		if err != nil {
			// The rest of the body is not worth waiting for: without this, net/http would
			// try to read it before sending the error.
			w.Header().Set("Connection", "close")
			fail(err)
			return
		}
		_ = rc.SetReadDeadline(time.Time{})
		syn, err := parse(body, s.limits())
		if err == nil && syn.id != "" {
			id = syn.id
		}
		if err == nil {
			syn.req, err = eng.Check(syn.req)
		}
		if err != nil {
			fail(err)
			return
		}
		if id == "" {
			id = newID()
		}
		syn.id, syn.req.ID, syn.arrived = id, id, arrived

		out := &httpAudio{w: w, rc: rc, syn: syn, writeTimeout: s.cfg.WriteTimeout, first: newAudioTimes()}
		defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
		var buf collector
		emit := out.emit
		if !syn.stream {
			emit = buf.emit
		}
		st, err := s.speak(r.Context(), eng, syn, emit)
		if err == nil && !syn.stream {
			err = out.complete(buf.pcm, st)
		}
		if err != nil {
			if !out.started {
				fail(err)
				return
			}
			// The 200 is out: the only honest signal left is a cut stream, which the client
			// sees as an unexpected EOF instead of a short but well-formed body.
			s.record(route, id, classify(err), arrived, out.first, st, err)
			panic(http.ErrAbortHandler)
		}
		s.record(route, id, httpError{status: http.StatusOK, outcome: OutcomeOK}, arrived, out.first, st, nil)
	}
}

func (s *Server) limits() limits {
	return limits{maxRequestAge: s.cfg.MaxRequestAge, now: s.cfg.Now}
}

// speak admits syn and streams it through emit. Every transport takes this path, so the
// admission gate and the in-flight gauge see HTTP requests and WebSocket utterances alike.
func (s *Server) speak(ctx context.Context, eng Engine, syn *synthesis, emit func(tts.Chunk) error) (tts.Stats, error) {
	release, err := s.admit()
	if err != nil {
		return tts.Stats{}, err
	}
	defer release()
	return eng.Stream(ctx, syn.req, emit)
}

// admit takes a slot of the admission gate; release gives it back (once, however often it
// is called).
func (s *Server) admit() (release func(), err error) {
	rel, err := s.gate.acquire()
	if err != nil {
		return nil, err
	}
	s.metrics.InFlight.Inc()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.metrics.InFlight.Dec()
			rel()
		})
	}, nil
}

// record counts and logs one finished synthesis request. first is nil, or holds zero times,
// when no audio (or no sound) was sent.
func (s *Server) record(route, id string, h httpError, arrived time.Time, first *audioTimes, st tts.Stats, err error) {
	now := time.Now()
	m := s.metrics
	m.Requests.WithLabelValues(route, h.outcome).Inc()
	if h.outcome == OutcomeRejected {
		m.Rejections.WithLabelValues(route).Inc()
	}
	attrs := []any{"request_id", id, "route", route, "status", h.status, "outcome", h.outcome,
		"duration_ms", ms(now.Sub(arrived))}
	if first != nil && !first.byte_.IsZero() {
		m.TTFAB.WithLabelValues(route).Observe(first.byte_.Sub(arrived).Seconds())
		attrs = append(attrs, "ttfab_ms", ms(first.byte_.Sub(arrived)), "first_chunk_model_ms", ms(st.FirstChunkTime))
	}
	if first != nil && !first.sound.IsZero() {
		m.TTFAS.WithLabelValues(route).Observe(first.sound.Sub(arrived).Seconds())
		attrs = append(attrs, "ttfas_ms", ms(first.sound.Sub(arrived)))
	}
	if st.AudioDuration > 0 {
		m.AudioSeconds.WithLabelValues(route).Add(st.AudioDuration.Seconds())
		attrs = append(attrs, "audio_s", st.AudioDuration.Seconds(), "chunks", st.Chunks, "model_ms", ms(st.ModelTime))
		if h.outcome == OutcomeOK {
			m.Latency.WithLabelValues(route).Observe(now.Sub(arrived).Seconds())
			m.RTF.WithLabelValues(route).Observe(st.Elapsed.Seconds() / st.AudioDuration.Seconds())
		}
	}
	switch {
	case h.outcome == OutcomeError:
		s.log.Error("request", append(attrs, "err", err.Error())...)
	case err != nil:
		s.log.Info("request", append(attrs, "err", err.Error())...)
	default:
		s.log.Info("request", attrs...)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// httpAudio writes chunks to an HTTP response as they arrive. The status and headers go out
// with the first chunk, so that an engine failure before any audio is still a 5xx.
type httpAudio struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	syn          *synthesis
	writeTimeout time.Duration
	started      bool
	first        *audioTimes
	buf          []byte
}

func (h *httpAudio) header(contentLength int) {
	hd := h.w.Header()
	hd.Set("Content-Type", contentType(h.syn.format))
	hd.Set(api.HeaderRequestID, h.syn.id)
	if contentLength >= 0 {
		hd.Set("Content-Length", strconv.Itoa(contentLength))
	}
	h.w.WriteHeader(http.StatusOK)
	h.started = true
}

func (h *httpAudio) emit(c tts.Chunk) error {
	h.buf = h.buf[:0]
	if !h.started {
		h.header(-1)
		if h.syn.format == api.FormatWAV {
			h.buf = append(h.buf, audio.StreamingWAVHeader(audio.Mono24k)...)
		}
	}
	h.buf = audio.AppendPCM16(h.buf, c.PCM)
	return h.write(c.PCM)
}

func (h *httpAudio) write(pcm []float32) error {
	_ = h.rc.SetWriteDeadline(time.Now().Add(h.writeTimeout))
	if _, err := h.w.Write(h.buf); err != nil {
		return fmt.Errorf("%w: write audio: %v", errClientWrite, err)
	}
	if err := h.rc.Flush(); err != nil {
		return fmt.Errorf("%w: flush audio: %v", errClientWrite, err)
	}
	h.first.wrote(pcm, time.Now())
	return nil
}

// complete sends a whole file with the headers of the non-streaming contract.
func (h *httpAudio) complete(pcm []float32, st tts.Stats) error {
	if h.syn.format == api.FormatWAV {
		h.buf = audio.EncodeWAV(audio.Mono24k, pcm)
	} else {
		h.buf = audio.AppendPCM16(h.buf[:0], pcm)
	}
	hd := h.w.Header()
	hd.Set(api.HeaderAudioDur, strconv.FormatFloat(st.AudioDuration.Seconds(), 'f', 3, 64))
	hd.Set(api.HeaderInferenceMs, strconv.FormatFloat(ms(st.Elapsed), 'f', 1, 64))
	if st.AudioDuration > 0 {
		hd.Set(api.HeaderRTF, strconv.FormatFloat(st.Elapsed.Seconds()/st.AudioDuration.Seconds(), 'f', 4, 64))
	}
	h.header(len(h.buf))
	return h.write(pcm)
}

// collector gathers a whole utterance for the non-streaming responses.
type collector struct{ pcm []float32 }

func (c *collector) emit(ch tts.Chunk) error {
	c.pcm = append(c.pcm, ch.PCM...)
	return nil
}

// pcmContentType describes the raw stream: PCM16 little-endian mono at the model's rate.
var pcmContentType = fmt.Sprintf("audio/pcm;rate=%d;channels=1;encoding=s16le", api.SampleRate)

func contentType(format string) string {
	if format == api.FormatPCM {
		return pcmContentType
	}
	return "audio/wav"
}

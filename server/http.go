package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/phonemize"
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
	writeError(w, r, classify(err), 0)
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

// handleVoices lists the voices a request may name (blends of them are accepted too) and the
// OpenAI names that stand for them.
func (s *Server) handleVoices(w http.ResponseWriter, r *http.Request) {
	if eng := s.engineFor(w, r, http.MethodGet); eng != nil {
		names := eng.VoiceNames()
		langs := make(map[string]string, len(names))
		for _, v := range names {
			if l := tts.VoiceLang(v); l != "" {
				langs[v] = l
			}
		}
		writeJSON(w, http.StatusOK, api.VoiceList{Voices: names, Aliases: s.voices.Table(), Languages: langs, Langs: phonemize.LangCodes()})
	}
}

// handleModels answers GET /v1/models and GET /v1/models/{id} as OpenAI's API does, so that
// an OpenAI client can list what the speech route serves. Every name is the same model.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	model := func(id string) api.Model { return api.Model{ID: id, Object: "model", OwnedBy: "kokoro"} }
	id := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, api.RouteOpenAIModels), "/")
	if id == "" {
		list := api.ModelList{Object: "list"}
		for _, m := range openAIModels {
			list.Data = append(list.Data, model(m))
		}
		writeJSON(w, http.StatusOK, list)
		return
	}
	if !knownModel(id) {
		h := classify(fmt.Errorf("%w: no model %s; served: %s", errNotFound, clip(id), strings.Join(openAIModels, ", "))).at("model")
		h.body.Valid = openAIModels
		writeError(w, r, h, 0)
		return
	}
	writeJSON(w, http.StatusOK, model(id))
}

// engineFor checks the method and returns the loaded engine; when either is wrong it answers
// the request (405, or 503 while loading or draining) and returns nil.
func (s *Server) engineFor(w http.ResponseWriter, r *http.Request, method string) Engine {
	if !allowMethod(w, r, method) {
		return nil
	}
	eng := s.engine()
	if eng == nil {
		writeError(w, r, classify(s.notReady()), s.retryAfter())
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
			if id == "" || checkRequestID(id) != nil {
				id = newID()
			}
			h := classify(err)
			w.Header().Set(api.HeaderRequestID, id)
			writeError(w, r, h, s.retryAfter())
			s.record(route, id, h, arrived, nil, tts.Stats{}, err)
		}
		if !allowMethod(w, r, http.MethodPost) {
			return
		}
		if err := checkRequestID(id); err != nil {
			fail(fmt.Errorf("%s header: %w", api.HeaderRequestID, err))
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
			syn.req, err = checkSynthesis(eng, syn.fields, s.limits(), false)
		}
		if err != nil {
			fail(err)
			return
		}
		if id == "" {
			id = newID()
		}
		syn.id, syn.req.ID, syn.arrived = id, id, arrived

		out := &httpAudio{w: w, rc: rc, syn: syn, writeTimeout: s.cfg.WriteTimeout, first: newAudioTimes(syn.rate), draining: s.draining.Load}
		if syn.timed != nil {
			out.clock = &wordClock{rate: syn.rate, markTypes: syn.fields.SpeechMarks}
		}
		defer out.close()
		defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
		buf := collector{clock: out.clock, volume: syn.volume}
		emit := out.emit
		if !syn.stream {
			emit = buf.emit
		}
		st, err := s.speak(r.Context(), eng, syn, emit)
		if err == nil && syn.stream {
			err = out.finish()
		}
		if err == nil && !syn.stream {
			err = out.complete(buf.pcm, st)
		}
		if err != nil && errors.Is(context.Cause(r.Context()), errDrainCut) {
			err = errDrainCut // not the client's cancellation: a 503 it can retry elsewhere
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
	return limits{maxRequestAge: s.cfg.MaxRequestAge, now: s.cfg.Now, voices: s.voices, lexicons: s.lexicons, unknownOK: s.cfg.AllowUnknownFields}
}

// speak admits syn and streams it through emit, at syn's sample rate. Every HTTP route takes
// this path, so the admission gate and the in-flight gauge see every request alike (the
// WebSocket's utterances take their slot through admit).
func (s *Server) speak(ctx context.Context, eng Engine, syn *synthesis, emit func(tts.Chunk) error) (tts.Stats, error) {
	emit, tail, err := converting(syn.rate, emit)
	if err != nil {
		return tts.Stats{}, err
	}
	release, err := s.admit()
	if err != nil {
		return tts.Stats{}, err
	}
	defer release()
	st, err := tts.StreamMarkup(ctx, eng, syn.req, emit)
	if err == nil {
		err = tail()
	}
	return st, err
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

// httpAudio writes chunks to an HTTP response as they arrive, through the format's encoder.
// The status and headers go out with the first chunk, so that an engine failure before any
// audio is still a 5xx.
type httpAudio struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	syn          *synthesis
	writeTimeout time.Duration
	draining     func() bool
	started      bool
	first        *audioTimes
	enc          codec.Encoder
	buf          []byte
	event        []byte
	clock        *wordClock // with syn.timed: the words sent so far
}

func (h *httpAudio) header(contentLength int) {
	hd := h.w.Header()
	hd.Set("Content-Type", h.syn.format.ContentTypeAt(h.syn.rate))
	if h.syn.sse {
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("Cache-Control", "no-cache")
	}
	if h.syn.timed != nil {
		hd.Set("Content-Type", h.syn.timed.contentType(contentLength < 0))
		hd.Set("Cache-Control", "no-cache")
	}
	hd.Set(api.HeaderRequestID, h.syn.id)
	if contentLength >= 0 {
		hd.Set("Content-Length", strconv.Itoa(contentLength))
	}
	if h.draining() {
		hd.Set("Connection", "close")
	}
	h.w.WriteHeader(http.StatusOK)
	h.started = true
}

// emit encodes and sends one chunk of a stream.
func (h *httpAudio) emit(c tts.Chunk) error {
	if !h.started {
		enc, err := h.syn.format.New(-1, h.syn.rate)
		if err != nil {
			return err
		}
		h.enc = enc
		h.header(-1)
	}
	pcm := scaled(c.PCM, h.syn.volume)
	var err error
	if h.buf, err = h.enc.Write(h.buf[:0], pcm); err != nil {
		return err
	}
	if h.clock != nil {
		offset := h.clock.at
		words := h.clock.add(c)
		return h.writeTimed(pcm, offset, words, h.clock.take())
	}
	return h.write(pcm)
}

// writeTimed sends h.buf as one line of the route's timed framing, with the words in it.
func (h *httpAudio) writeTimed(pcm []float32, offset int, words []api.Word, marks []api.SpeechMark) error {
	if err := h.sendLine(h.syn.timed.piece(h.buf, offset, len(pcm), words, marks)); err != nil {
		return err
	}
	h.first.wrote(pcm, time.Now())
	return nil
}

// sendLine sends v as one line of JSON (as several, one each, when it is lines).
func (h *httpAudio) sendLine(v any) error {
	b, err := jsonLines(v)
	if err != nil {
		return err
	}
	h.event = append(h.event[:0], b...)
	return h.send(h.event)
}

// finish sends the end of a stream: what the encoder still holds, and for server-sent events
// the closing event.
func (h *httpAudio) finish() error {
	if h.enc == nil {
		return nil
	}
	var err error
	if h.buf, err = h.enc.Finish(h.buf[:0]); err != nil {
		return err
	}
	if h.clock != nil {
		if len(h.buf) > 0 {
			if err := h.writeTimed(nil, h.clock.at, nil, h.clock.take()); err != nil {
				return err
			}
		}
		end, err := h.syn.timed.end(h.clock.at, h.clock.words)
		if err != nil || end == nil {
			return err
		}
		return h.sendLine(end)
	}
	if err := h.write(nil); err != nil {
		return err
	}
	if h.syn.sse {
		return h.sendEvent(api.SpeechAudioEvent{Type: api.SSETypeAudioDone, Usage: &api.SpeechUsage{}})
	}
	return nil
}

// write sends h.buf (as an audio event for server-sent events) and flushes it; pcm is what it
// encodes, for the first-audio times.
func (h *httpAudio) write(pcm []float32) error {
	if len(h.buf) > 0 && h.syn.sse {
		if err := h.sendEvent(api.SpeechAudioEvent{Type: api.SSETypeAudioDelta, Audio: base64.StdEncoding.EncodeToString(h.buf)}); err != nil {
			return err
		}
	} else if err := h.send(h.buf); err != nil {
		return err
	}
	h.first.encoded(pcm, len(h.buf) > 0, time.Now())
	return nil
}

func (h *httpAudio) sendEvent(ev api.SpeechAudioEvent) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	h.event = append(append(append(h.event[:0], "data: "...), b...), "\n\n"...)
	return h.send(h.event)
}

func (h *httpAudio) send(b []byte) error {
	_ = h.rc.SetWriteDeadline(time.Now().Add(h.writeTimeout))
	if len(b) > 0 {
		if _, err := h.w.Write(b); err != nil {
			return fmt.Errorf("%w: write audio: %v", errClientWrite, err)
		}
	}
	if err := h.rc.Flush(); err != nil {
		return fmt.Errorf("%w: flush audio: %v", errClientWrite, err)
	}
	return nil
}

// complete sends a whole file with the headers of the non-streaming contract. Its length is
// known before the first byte leaves, so its header (a WAV's sizes, a FLAC's sample count)
// is exact.
func (h *httpAudio) complete(pcm []float32, st tts.Stats) error {
	enc, err := h.syn.format.New(len(pcm), h.syn.rate)
	if err != nil {
		return err
	}
	h.enc = enc
	if h.buf, err = enc.Write(h.buf[:0], pcm); err != nil {
		return err
	}
	if h.buf, err = enc.Finish(h.buf); err != nil {
		return err
	}
	if h.clock != nil {
		v, err := h.syn.timed.whole(h.buf, len(pcm), h.clock.words)
		if err != nil {
			return err
		}
		switch t := v.(type) {
		case api.InvocationTimed:
			t.Marks = h.clock.marks
			v = t
		case lines:
			v = lines(h.clock.marks)
		}
		if h.buf, err = jsonLines(v); err != nil {
			return err
		}
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

// close frees the encoder.
func (h *httpAudio) close() {
	if h.enc != nil {
		h.enc.Close()
	}
}

// collector gathers a whole utterance for the non-streaming responses, and its words when
// clock is set.
type collector struct {
	pcm    []float32
	clock  *wordClock
	volume *float64
}

func (c *collector) emit(ch tts.Chunk) error {
	c.pcm = append(c.pcm, scaled(ch.PCM, c.volume)...)
	if c.clock != nil {
		c.clock.add(ch)
	}
	return nil
}

// scaled is pcm times volume (Kokoro-FastAPI's volume_multiplier), clipped to [-1, 1]; pcm
// itself when volume is nil or 1.
func scaled(pcm []float32, volume *float64) []float32 {
	if volume == nil || *volume == 1 {
		return pcm
	}
	out := make([]float32, len(pcm))
	for i, v := range pcm {
		out[i] = float32(min(max(float64(v)**volume, -1), 1))
	}
	return out
}

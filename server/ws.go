package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/tts"
)

const (
	// maxPending bounds the utterances one session may have waiting behind the one it hears.
	maxPending = 16
	// maxFrame splits a long chunk's audio into binary frames of at most this many bytes.
	maxFrame = 64 << 10
	// closeGrace is how long the server waits for the client's answer to its close frame.
	closeGrace = 2 * time.Second
)

// handleBidi upgrades GET /invocations-bidirectional-stream to a WebSocket session.
func (s *Server) handleBidi(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	eng := s.engine()
	if eng == nil {
		writeError(w, classify(s.notReady()), s.retryAfter())
		return
	}
	if !websocket.IsWebSocketUpgrade(r) {
		writeJSON(w, http.StatusBadRequest, api.ErrorResponse{Error: api.ErrWebSocketRequired,
			Message: "this route speaks WebSocket: send a GET with Connection: Upgrade and Upgrade: websocket"})
		return
	}
	up := websocket.Upgrader{
		ReadBufferSize:  4096,
		WriteBufferSize: 32 << 10,
		// SageMaker's proxy (or a local client) is the only caller; there is no browser
		// session or cookie to protect, so any Origin is accepted.
		CheckOrigin: func(*http.Request) bool { return true },
		Error: func(w http.ResponseWriter, _ *http.Request, status int, reason error) {
			writeJSON(w, status, api.ErrorResponse{Error: api.ErrWebSocketHandshake, Message: reason.Error()})
		},
	}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	ctx, cancel := context.WithCancel(r.Context())
	ss := &session{
		srv: s, eng: eng, conn: conn, ctx: ctx, cancel: cancel,
		log:      s.log.With("session", newID()),
		queue:    make(chan *utterance, maxPending),
		byID:     map[string]*utterance{},
		rejected: map[string]bool{},
	}
	s.metrics.WSSessions.Inc()
	defer s.metrics.WSSessions.Dec()
	ss.run()
}

// session is one WebSocket connection: a reader that parses client messages and a speaker
// that synthesizes utterances one after another, so that binary frames never interleave.
type session struct {
	srv    *Server
	eng    Engine
	conn   *websocket.Conn
	log    *slog.Logger
	ctx    context.Context // ends when the client goes away, the server gives up, or a write fails
	cancel context.CancelFunc

	wmu sync.Mutex // gorilla allows one writer at a time

	// The read deadline is the session's idle timer, pushed back by traffic either way,
	// until the session is ending: then it is cut short and must stay so.
	dlMu  sync.Mutex
	cut   bool
	cutAt time.Time

	queue chan *utterance // the reader sends and closes, the speaker receives

	mu   sync.Mutex
	byID map[string]*utterance // admitted and not finished, for cancel

	// Reader-only state.
	open     *utterance // utterance fed by streamed text pieces, until its flush
	openBuf  string     // streamed text not yet cut into a sentence
	rejected map[string]bool
}

// utterance is one request of a session: a complete text, or text streamed in pieces and cut
// into sentences as they complete.
type utterance struct {
	syn      *synthesis
	ctx      context.Context
	cancel   context.CancelFunc
	release  func()
	streamed bool
	chars    int // reader-only: streamed characters so far

	mu     sync.Mutex
	segs   []string
	closed bool
	failed error // why the session stopped the utterance, when it was not the client's cancel
	wake   chan struct{}
}

// abort stops the utterance with err, which its speaker reports instead of a cancellation.
func (u *utterance) abort(err error) {
	u.mu.Lock()
	u.failed = err
	u.mu.Unlock()
	u.cancel()
}

// cause is the error an utterance ended with, given the error its synthesis returned.
func (u *utterance) cause(err error) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.failed != nil {
		return u.failed
	}
	return err
}

func (u *utterance) push(seg string) {
	u.mu.Lock()
	u.segs = append(u.segs, seg)
	u.mu.Unlock()
	u.signal()
}

func (u *utterance) close() {
	u.mu.Lock()
	u.closed = true
	u.mu.Unlock()
	u.signal()
}

func (u *utterance) signal() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// next waits for the next text segment; false once the utterance is closed and spoken, or
// cancelled.
func (u *utterance) next() (string, bool) {
	for {
		u.mu.Lock()
		if len(u.segs) > 0 {
			seg := u.segs[0]
			u.segs = u.segs[1:]
			u.mu.Unlock()
			return seg, true
		}
		closed := u.closed
		u.mu.Unlock()
		if closed {
			return "", false
		}
		select {
		case <-u.wake:
		case <-u.ctx.Done():
			return "", false
		}
	}
}

func (ss *session) run() {
	defer ss.conn.Close()
	// A cancelled session must not leave the reader blocked on a silent client.
	stop := context.AfterFunc(ss.ctx, func() { ss.cutRead(time.Now()) })
	defer stop()
	ss.conn.SetReadLimit(ss.srv.cfg.MaxBodyBytes)
	ss.conn.SetPongHandler(func(string) error {
		ss.extendRead()
		return nil
	})

	speakerDone := make(chan struct{})
	go func() {
		defer close(speakerDone)
		ss.speakLoop()
	}()
	graceful := ss.readLoop()
	if !graceful {
		ss.cancel()
	}
	close(ss.queue)
	<-speakerDone
	for u := range ss.queue { // left behind by a speaker that stopped for a drain
		u.cancel()
		ss.finish(u)
	}
	if graceful && ss.ctx.Err() == nil {
		ss.goodbye(websocket.CloseNormalClosure, "")
		for { // wait for the client's close frame, or closeGrace
			if _, _, err := ss.conn.NextReader(); err != nil {
				break
			}
		}
	}
	ss.cancel()
}

// readLoop handles client messages until the client closes (true when it asked to with
// {"type":"close"}) or the connection fails.
func (ss *session) readLoop() bool {
	for {
		ss.extendRead()
		mt, data, err := ss.conn.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) && ss.ctx.Err() == nil {
				ss.log.Debug("websocket read", "err", err)
			}
			return false
		}
		if mt != websocket.TextMessage && mt != websocket.BinaryMessage {
			continue
		}
		msg, err := parseClientMessage(data)
		if err != nil {
			ss.sendError(msg.RequestID, err)
			continue
		}
		if ss.handle(msg) {
			return true
		}
	}
}

// handle acts on one message; true when the client asked to close.
func (ss *session) handle(m api.WSClientMessage) bool {
	switch m.Type {
	case api.WSTypeSpeak:
		ss.flushOpen()
		u, err := ss.admit(m, false)
		if err != nil {
			ss.reject(m.RequestID, err)
			return false
		}
		u.push(m.Text)
		u.close()
		ss.enqueue(u)
	case api.WSTypeText:
		if ss.open != nil && m.RequestID != "" && m.RequestID != ss.open.syn.id {
			ss.flushOpen()
		}
		if m.RequestID != "" && ss.rejected[m.RequestID] {
			return false // the client was told once; the rest of that utterance is dropped
		}
		if ss.open == nil {
			u, err := ss.admit(m, true)
			if err != nil {
				if m.RequestID != "" {
					ss.rejected[m.RequestID] = true
				}
				ss.reject(m.RequestID, err)
				return false
			}
			ss.open = u
			ss.enqueue(u)
		}
		ss.feed(m.Text)
	case api.WSTypeFlush:
		if m.RequestID != "" && ss.rejected[m.RequestID] {
			delete(ss.rejected, m.RequestID)
			return false
		}
		ss.flushOpen()
	case api.WSTypeCancel:
		ss.cancelUtterances(m.RequestID)
	case api.WSTypeClose:
		ss.flushOpen()
		return true
	}
	return false
}

// feed appends streamed text to the open utterance and hands it every sentence completed.
func (ss *session) feed(text string) {
	u := ss.open
	u.chars += utf8.RuneCountInString(text)
	if max := ss.eng.MaxTextChars(); max > 0 && u.chars > max {
		u.abort(fmt.Errorf("%w: %d characters streamed, the limit is %d", tts.ErrTextTooLong, u.chars, max))
		ss.open, ss.openBuf = nil, ""
		return
	}
	done, rest := cutSentences(ss.openBuf + text)
	ss.openBuf = rest
	if strings.TrimSpace(done) != "" {
		u.push(done)
	}
}

// flushOpen speaks what is left of the open utterance and ends it.
func (ss *session) flushOpen() {
	u := ss.open
	if u == nil {
		return
	}
	if strings.TrimSpace(ss.openBuf) != "" {
		u.push(ss.openBuf)
	}
	u.close()
	ss.open, ss.openBuf = nil, ""
}

// admit validates an utterance's voice and speed, and takes a slot of the admission gate.
func (ss *session) admit(m api.WSClientMessage, streamed bool) (*utterance, error) {
	if ss.srv.draining.Load() {
		return nil, errShuttingDown
	}
	// Streamed text arrives in pieces: the voice and speed are checked now, each piece's text
	// when it is spoken and their sum as it arrives (feed).
	req := tts.Request{Text: m.Text, Voice: m.Voice, Speed: m.Speed}
	check := ss.eng.Check
	if streamed {
		check = ss.eng.CheckVoice
	}
	req, err := check(req)
	if err != nil {
		return nil, err
	}
	id := m.RequestID
	if id == "" {
		id = newID()
	}
	ss.mu.Lock()
	_, dup := ss.byID[id]
	ss.mu.Unlock()
	if dup {
		return nil, fmt.Errorf("%w: %q", errDuplicateID, id)
	}
	release, err := ss.srv.admit()
	if err != nil {
		return nil, err
	}
	req.ID, req.Text = id, ""
	ctx, cancel := context.WithCancel(ss.ctx)
	u := &utterance{
		syn:      &synthesis{route: labelBidi, id: id, req: req, format: api.FormatPCM, stream: true, arrived: time.Now()},
		ctx:      ctx,
		cancel:   cancel,
		release:  release,
		wake:     make(chan struct{}, 1),
		streamed: streamed,
	}
	ss.mu.Lock()
	ss.byID[id] = u
	ss.mu.Unlock()
	return u, nil
}

func (ss *session) enqueue(u *utterance) {
	select {
	case ss.queue <- u:
	default:
		ss.reject(u.syn.id, fmt.Errorf("%w: %d utterances are already waiting in this session", ErrQueueSaturated, maxPending))
		if ss.open == u {
			ss.open, ss.openBuf = nil, ""
		}
		ss.finish(u)
	}
}

// cancelUtterances stops one utterance (by id) or, with no id, everything in the session:
// the barge-in of a caller who starts talking over the agent.
func (ss *session) cancelUtterances(id string) {
	if ss.open != nil && (id == "" || id == ss.open.syn.id) {
		ss.open, ss.openBuf = nil, ""
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for uid, u := range ss.byID {
		if id == "" || uid == id {
			u.cancel()
		}
	}
}

func (ss *session) forget(u *utterance) {
	ss.mu.Lock()
	if ss.byID[u.syn.id] == u {
		delete(ss.byID, u.syn.id)
	}
	ss.mu.Unlock()
}

// speakLoop speaks utterances in arrival order. When the server drains it finishes what is
// queued and says goodbye.
func (ss *session) speakLoop() {
	for {
		select {
		case u, ok := <-ss.queue:
			if !ok {
				return
			}
			ss.speakOne(u)
		case <-ss.srv.drainCh:
			for {
				select {
				case u, ok := <-ss.queue:
					if !ok {
						return
					}
					ss.speakOne(u)
				default:
					ss.goodbye(websocket.CloseGoingAway, "server shutting down")
					return
				}
			}
		}
	}
}

// speakOne runs one utterance to its synthesis_complete (or error) message.
func (ss *session) speakOne(u *utterance) {
	defer ss.finish(u)
	if u.ctx.Err() != nil {
		ss.complete(u, tts.Stats{}, time.Time{}, u.ctx.Err())
		return
	}
	if err := ss.sendJSON(api.WSServerMessage{Type: api.WSTypeSynthesisStart, RequestID: u.syn.id}); err != nil {
		ss.cancel()
		return
	}
	var (
		total     tts.Stats
		firstByte time.Time
		frame     []byte
	)
	emit := func(c tts.Chunk) error {
		frame = audio.AppendPCM16(frame[:0], c.PCM)
		for b := frame; len(b) > 0; {
			n := min(len(b), maxFrame)
			if err := ss.write(websocket.BinaryMessage, b[:n]); err != nil {
				ss.cancel() // a dead connection ends the session, not only this utterance
				return fmt.Errorf("%w: %v", errClientWrite, err)
			}
			b = b[n:]
		}
		if firstByte.IsZero() && len(c.PCM) > 0 {
			firstByte = time.Now()
		}
		return nil
	}
	spoke := false
	for {
		seg, ok := u.next()
		if !ok {
			break
		}
		req := u.syn.req
		req.Text = seg
		st, err := ss.eng.Stream(u.ctx, req, emit)
		total.Chunks += st.Chunks
		total.AudioDuration += st.AudioDuration
		total.ModelTime += st.ModelTime
		if total.FirstChunkTime == 0 {
			total.FirstChunkTime = st.FirstChunkTime
		}
		if err != nil && u.streamed && errors.Is(err, tts.ErrEmptyText) {
			continue // a streamed piece of punctuation or white space has nothing to say
		}
		if err != nil {
			total.Elapsed = time.Since(u.syn.arrived)
			ss.complete(u, total, firstByte, err)
			return
		}
		spoke = true
	}
	total.Elapsed = time.Since(u.syn.arrived)
	err := u.ctx.Err()
	if err == nil && !spoke {
		err = fmt.Errorf("%w: nothing to speak in request %q", tts.ErrEmptyText, u.syn.id)
	}
	ss.complete(u, total, firstByte, err)
}

// complete tells the client how an utterance ended and records it.
func (ss *session) complete(u *utterance, st tts.Stats, firstByte time.Time, err error) {
	err = u.cause(err)
	// Free the admission slot and the request id before the client hears that the utterance
	// ended: a closed-loop client sends its next utterance the moment it does, and must not be
	// refused for a slot this one no longer uses.
	ss.forget(u)
	u.release()
	h := httpError{status: http.StatusOK, outcome: OutcomeOK}
	if err != nil {
		h = classify(err)
	}
	switch {
	case err == nil, h.outcome == OutcomeCancelled && ss.ctx.Err() == nil:
		_ = ss.sendJSON(api.WSServerMessage{
			Type: api.WSTypeSynthesisComplete, RequestID: u.syn.id, Cancelled: err != nil,
			TotalDurationS: st.AudioDuration.Seconds(), ElapsedS: time.Since(u.syn.arrived).Seconds(),
		})
	case ss.ctx.Err() == nil:
		ss.sendError(u.syn.id, err)
	}
	ss.srv.record(labelBidi, u.syn.id, h, u.syn.arrived, firstByte, st, err)
}

// finish releases an utterance's admission slot and forgets it.
func (ss *session) finish(u *utterance) {
	u.cancel()
	ss.forget(u)
	u.release()
}

// sendError reports err as an error message; queue_saturated is the message itself, as the
// contract says, and every error carries its code.
func (ss *session) sendError(id string, err error) {
	h := classify(err)
	msg := api.WSServerMessage{Type: api.WSTypeError, RequestID: id, Code: h.body.Error, Message: h.body.Message}
	if h.outcome == OutcomeRejected {
		msg.Message = api.ErrQueueSaturated
		msg.QueueDepth, msg.MaxQueueDepth = h.body.QueueDepth, h.body.MaxQueueDepth
	}
	if err := ss.sendJSON(msg); err != nil {
		ss.cancel()
	}
}

// reject turns away an utterance before it was queued, counting it like a refused HTTP
// request.
func (ss *session) reject(id string, err error) {
	ss.sendError(id, err)
	ss.srv.record(labelBidi, id, classify(err), time.Now(), time.Time{}, tts.Stats{}, err)
}

func (ss *session) sendJSON(m api.WSServerMessage) error {
	ss.wmu.Lock()
	defer ss.wmu.Unlock()
	_ = ss.conn.SetWriteDeadline(time.Now().Add(ss.srv.cfg.WriteTimeout))
	return ss.conn.WriteJSON(m)
}

func (ss *session) write(mt int, b []byte) error {
	ss.wmu.Lock()
	defer ss.wmu.Unlock()
	_ = ss.conn.SetWriteDeadline(time.Now().Add(ss.srv.cfg.WriteTimeout))
	if err := ss.conn.WriteMessage(mt, b); err != nil {
		return err
	}
	// A client listening to a long utterance is not idle.
	ss.extendRead()
	return nil
}

// extendRead restarts the idle timer unless the session is ending.
func (ss *session) extendRead() {
	ss.dlMu.Lock()
	defer ss.dlMu.Unlock()
	if !ss.cut {
		_ = ss.conn.SetReadDeadline(time.Now().Add(ss.srv.cfg.WSIdleTimeout))
	}
}

// cutRead makes the reader give up at t, for good (or sooner, if already cut).
func (ss *session) cutRead(t time.Time) {
	ss.dlMu.Lock()
	defer ss.dlMu.Unlock()
	if ss.cut && ss.cutAt.Before(t) {
		return
	}
	ss.cut, ss.cutAt = true, t
	_ = ss.conn.SetReadDeadline(t)
}

// goodbye sends a close frame and gives the client closeGrace to answer before the reader is
// cut off.
func (ss *session) goodbye(code int, reason string) {
	_ = ss.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	ss.cutRead(time.Now().Add(closeGrace))
}

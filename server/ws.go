package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

// handleBidi upgrades GET /invocations-bidirectional-stream to a WebSocket session.
func (s *Server) handleBidi(w http.ResponseWriter, r *http.Request) {
	s.serveSocket(w, r, func(*http.Request) (dialect, error) { return kokoroDialect{}, nil })
}

// serveSocket upgrades a GET to a WebSocket session that speaks the dialect newDialect makes
// of the request (its path and query may choose a voice or a format); a request it refuses is
// answered with an error before the upgrade.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request, newDialect func(*http.Request) (dialect, error)) {
	eng := s.engineFor(w, r, http.MethodGet)
	if eng == nil {
		return
	}
	if !websocket.IsWebSocketUpgrade(r) {
		writeJSON(w, http.StatusBadRequest, api.ErrorResponse{Error: api.ErrWebSocketRequired,
			Message: "this route speaks WebSocket: send a GET with Connection: Upgrade and Upgrade: websocket"})
		return
	}
	d, err := newDialect(r)
	if err != nil {
		writeError(w, r, classify(err), 0)
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
		srv: s, eng: eng, ctx: ctx, cancel: cancel, dialect: d,
		conn:  newWSConn(conn, s.cfg.WriteTimeout, s.cfg.WSIdleTimeout),
		log:   s.log.With("session", newID()),
		queue: newUtteranceQueue(maxPending),
	}
	s.metrics.WSSessions.Inc()
	defer s.metrics.WSSessions.Dec()
	ss.run(conn)
}

// session is one WebSocket connection: this goroutine reads and parses client messages
// (the only one that reads), and a speaker goroutine synthesizes the admitted utterances one
// after another (wsspeak.go). The pieces: wsConn (writes and the session's timer),
// utteranceQueue (admitted utterances, by id), utterance (one request's text segments) and
// textStream (text streamed in pieces, reader-only).
type session struct {
	srv     *Server
	eng     Engine
	dialect dialect // the protocol the client speaks
	conn    *wsConn
	log     *slog.Logger
	ctx     context.Context // ends when the client goes away, the server gives up, or a write fails
	cancel  context.CancelFunc

	queue *utteranceQueue
	text  textStream // reader-only
}

func (ss *session) run(c *websocket.Conn) {
	defer ss.conn.close()
	// A cancelled session must not leave the reader blocked on a silent client. A session cut
	// by the drain is the exception: its speaker tells the client and sends the close frame,
	// and the socket closes at the latest when the client has had time to answer it.
	stop := context.AfterFunc(ss.ctx, func() {
		if ss.drainCut() {
			ss.conn.timer.cut(time.Now().Add(2 * closeGrace))
			return
		}
		ss.conn.timer.cut(time.Now())
	})
	defer stop()
	c.SetReadLimit(ss.srv.cfg.MaxBodyBytes)
	c.SetPongHandler(func(string) error {
		ss.conn.timer.touch()
		return nil
	})

	speakerDone := make(chan struct{})
	go func() {
		defer close(speakerDone)
		ss.speakLoop()
	}()
	end := ss.readLoop(c)
	if end == endGone {
		ss.cancel()
	}
	ss.queue.close()
	<-speakerDone
	for _, u := range ss.queue.rest() { // left behind by a speaker that stopped for a drain
		ss.finish(u)
	}
	if end != endGone && ss.ctx.Err() == nil {
		ss.conn.goodbye(websocket.CloseNormalClosure, "") // a no-op after an earlier close frame
		for {                                             // wait for the client's close frame, or closeGrace
			if _, _, err := c.NextReader(); err != nil {
				break
			}
		}
	}
	ss.cancel()
}

// drainCut reports whether the session ends because the server's drain budget ran out.
func (ss *session) drainCut() bool { return errors.Is(context.Cause(ss.ctx), errDrainCut) }

// readEnd is how a session's reading ended.
type readEnd int

const (
	endGone      readEnd = iota // the connection failed or the client closed it
	endAsked                    // the client sent {"type":"close"}
	endViolation                // the client broke the protocol; a close frame says how
)

// readLoop handles client messages until the client closes (endAsked when it asked to with
// {"type":"close"}), breaks the protocol, or the connection fails.
func (ss *session) readLoop(c *websocket.Conn) readEnd {
	for {
		ss.conn.timer.touch()
		mt, data, err := c.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway) && ss.ctx.Err() == nil {
				ss.log.Debug("websocket read", "err", err)
			}
			return endGone
		}
		if mt != websocket.TextMessage && mt != websocket.BinaryMessage {
			continue
		}
		if mt == websocket.TextMessage && !utf8.Valid(data) {
			// RFC 6455, section 8.1: a text frame that is not UTF-8 fails the connection
			// with 1007. (A binary frame may hold anything; its JSON is checked as JSON.)
			ss.queue.cancel("")
			ss.conn.goodbye(websocket.CloseInvalidFramePayloadData, "text frame is not valid UTF-8")
			return endViolation
		}
		msgs, err := ss.dialect.read(data, ss.srv.cfg.AllowUnknownFields)
		if err != nil {
			id := ""
			if len(msgs) > 0 {
				id = msgs[0].RequestID
			}
			ss.sendError(id, err)
			continue
		}
		for _, msg := range msgs {
			if ss.handle(msg) {
				return endAsked
			}
		}
	}
}

// handle acts on one message; true when the client asked to close.
func (ss *session) handle(m api.WSClientMessage) bool {
	switch m.Type {
	case api.WSTypeSpeak:
		ss.text.flush()
		u, err := ss.admit(m, false)
		if err != nil {
			ss.reject(m.RequestID, err)
			return false
		}
		u.push(m.Text)
		u.close()
		ss.enqueue(u)
	case api.WSTypeText:
		if ss.text.open != nil && m.RequestID != "" && m.RequestID != ss.text.open.id() {
			ss.text.flush()
		}
		if ss.text.isDead(m.RequestID) {
			return false // the client was told once; the rest of that utterance is dropped
		}
		if ss.text.open == nil {
			u, err := ss.admit(m, true)
			if err != nil {
				ss.text.kill(m.RequestID)
				ss.reject(m.RequestID, err)
				return false
			}
			if !ss.enqueue(u) {
				ss.text.kill(m.RequestID)
				return false
			}
			ss.text.start(u)
		}
		ss.text.feed(m.Text, ss.eng.MaxTextChars())
	case api.WSTypeFlush:
		if ss.text.flushed(m.RequestID) {
			return false
		}
		ss.text.flush()
	case api.WSTypeCancel:
		if open := ss.text.open; open != nil && (m.RequestID == "" || m.RequestID == open.id()) {
			ss.text.kill(open.id())
		}
		ss.queue.cancel(m.RequestID)
	case api.WSTypeClose:
		ss.text.flush()
		return true
	}
	return false
}

// admit checks an utterance (its text too, unless the text is streamed and arrives later) and
// takes a slot of the admission gate.
func (ss *session) admit(m api.WSClientMessage, streamed bool) (*utterance, error) {
	if ss.srv.draining.Load() {
		return nil, errShuttingDown
	}
	req, err := checkSynthesis(ss.eng, fields{RequestID: m.RequestID, Text: m.Text, Voice: m.Voice, Speed: m.Speed, Lang: m.Lang, TextType: m.TextType, SpeechMarks: m.SpeechMarks, LexiconNames: m.LexiconNames, InputType: m.InputType}, ss.srv.limits(), streamed)
	if err != nil {
		return nil, err
	}
	format, rate, err := wsEncoding(m)
	if err != nil {
		return nil, err
	}
	id := m.RequestID
	if id == "" {
		id = newID()
	}
	if ss.queue.has(id) {
		return nil, fmt.Errorf("%w: %q", errDuplicateID, id)
	}
	release, err := ss.srv.admit()
	if err != nil {
		return nil, err
	}
	req.ID, req.Text = id, ""
	syn := &synthesis{route: labelBidi, id: id, req: req, format: format, rate: rate, stream: true, arrived: time.Now()}
	u := newUtterance(ss.ctx, syn, release, streamed)
	u.timestamps, u.marks = m.Timestamps, m.SpeechMarks
	if streamed {
		u.lexicons, _ = lexiconsOf(m.LexiconNames, ss.srv.lexicons) // checkSynthesis refused an unknown one
	}
	return u, nil
}

// enqueue queues an admitted utterance for the speaker; a session with maxPending utterances
// waiting refuses it (false), like a full admission gate.
func (ss *session) enqueue(u *utterance) bool {
	if err := ss.queue.add(u); err != nil {
		ss.reject(u.id(), err)
		ss.finish(u)
		return false
	}
	return true
}

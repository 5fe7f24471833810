package server

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

const (
	// maxFrame splits a long chunk's audio into binary frames of at most this many bytes.
	maxFrame = 64 << 10
	// closeGrace is how long the server waits for the client's answer to its close frame.
	closeGrace = 2 * time.Second
)

// wsConn is the session's side of the socket. gorilla/websocket allows one reader and one
// writer at a time: writes go through one lock here, and the session's reader goroutine is the
// only one that reads. No other goroutine touches the read side (its deadline included): a
// goroutine that must end a read it cannot wait for asks the timer, which closes the socket,
// and Close is safe from any goroutine.
type wsConn struct {
	c            *websocket.Conn
	writeTimeout time.Duration
	timer        *sessionTimer

	wmu     sync.Mutex
	closing bool // a close frame was sent: no frame may follow it (RFC 6455, section 5.5.1)
}

// errClosing is a write after the session's close frame.
var errClosing = errors.New("websocket: the close frame was sent")

func newWSConn(c *websocket.Conn, writeTimeout, idle time.Duration) *wsConn {
	return &wsConn{c: c, writeTimeout: writeTimeout, timer: newSessionTimer(idle, func() { c.Close() })}
}

// sendJSON writes a control message (a value that marshals as JSON) as a text frame.
func (w *wsConn) sendJSON(m any) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.closing {
		return errClosing
	}
	_ = w.c.SetWriteDeadline(time.Now().Add(w.writeTimeout))
	return w.c.WriteJSON(m)
}

// sendAudio writes encoded samples, width bytes each (2 for PCM16, 1 for G.711), as binary
// frames of at most maxFrame bytes. A client listening to a long utterance is not idle, so
// every frame restarts the idle timer. With head, each frame follows the control message head
// makes for its samples [from, to) of pcm, and nothing else is written between the two.
func (w *wsConn) sendAudio(pcm []byte, width int, head func(from, to int) api.WSServerMessage) error {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.closing {
		return fmt.Errorf("%w: %v", errClientWrite, errClosing)
	}
	for at := 0; at < len(pcm); {
		n := min(len(pcm)-at, maxFrame)
		_ = w.c.SetWriteDeadline(time.Now().Add(w.writeTimeout))
		if head != nil {
			if err := w.c.WriteJSON(head(at/width, (at+n)/width)); err != nil {
				return fmt.Errorf("%w: %v", errClientWrite, err)
			}
		}
		if err := w.c.WriteMessage(websocket.BinaryMessage, pcm[at:at+n]); err != nil {
			return fmt.Errorf("%w: %v", errClientWrite, err)
		}
		w.timer.touch()
		at += n
	}
	return nil
}

// goodbye sends a close frame, unless one was sent already, and gives the client closeGrace
// to answer before the socket is closed under the reader. Nothing is written after it.
func (w *wsConn) goodbye(code int, reason string) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.closing {
		return
	}
	w.closing = true
	_ = w.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	w.timer.cut(time.Now().Add(closeGrace))
}

// close stops the timer and closes the socket.
func (w *wsConn) close() {
	w.timer.stop()
	w.c.Close()
}

// sessionTimer ends a session by closing its socket: when nothing has crossed it either way for
// idle, or at the time given to cut, whichever comes first. Traffic pushes the idle end back
// (touch); a cut only ever moves the end earlier, so a session that is ending stays ending.
type sessionTimer struct {
	idle  time.Duration
	close func()

	mu    sync.Mutex
	last  time.Time // the last traffic
	cutAt time.Time // zero: no cut

	wake     chan struct{} // a cut moved the end earlier
	quit     chan struct{} // stop was called
	quitOnce sync.Once
	done     chan struct{} // the timer's goroutine ended
}

func newSessionTimer(idle time.Duration, close func()) *sessionTimer {
	t := &sessionTimer{idle: idle, close: close, last: time.Now(),
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go t.run()
	return t
}

// touch records traffic now.
func (t *sessionTimer) touch() {
	t.mu.Lock()
	t.last = time.Now()
	t.mu.Unlock()
}

// cut ends the session at the latest at at.
func (t *sessionTimer) cut(at time.Time) {
	t.mu.Lock()
	if t.cutAt.IsZero() || at.Before(t.cutAt) {
		t.cutAt = at
	}
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// end is when the session ends unless more traffic comes.
func (t *sessionTimer) end() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	end := t.last.Add(t.idle)
	if !t.cutAt.IsZero() && t.cutAt.Before(end) {
		end = t.cutAt
	}
	return end
}

func (t *sessionTimer) run() {
	defer close(t.done)
	for {
		wait := time.Until(t.end())
		if wait <= 0 {
			t.close()
			return
		}
		// Traffic only moves the end later: waking at the old end and looking again is enough.
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-t.wake:
			timer.Stop()
		case <-t.quit:
			timer.Stop()
			return
		}
	}
}

// stop ends the timer without closing the socket; it returns once the timer's goroutine has.
func (t *sessionTimer) stop() {
	t.quitOnce.Do(func() { close(t.quit) })
	<-t.done
}

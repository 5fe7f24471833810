package server

import (
	"context"
	"sync"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/markup"
)

// utterance is one request of a WebSocket session: a complete text, or text streamed in pieces
// and handed over sentence by sentence as the pieces complete them. The reader pushes text
// segments and closes the utterance; the speaker takes the segments in order.
type utterance struct {
	syn      *synthesis
	ctx      context.Context // ends when the utterance is cancelled or the session ends
	cancel   context.CancelFunc
	release  func() // gives back the admission slot; safe to call more than once
	streamed bool   // text arrives in pieces ({"type":"text"})
	// timestamps puts an "audio" message naming its words before each binary frame.
	timestamps bool
	// marks are the speech mark types the "audio" message before each frame carries.
	marks []string
	// lexicons read its text, streamed in pieces (a whole text is read with them when it is
	// checked).
	lexicons []*markup.Lexicon

	mu     sync.Mutex
	segs   []string
	queued int // characters in segs
	closed bool
	failed error // why the session stopped the utterance, when it was not the client's cancel
	wake   chan struct{}
}

func newUtterance(ctx context.Context, syn *synthesis, release func(), streamed bool) *utterance {
	ctx, cancel := context.WithCancel(ctx)
	return &utterance{syn: syn, ctx: ctx, cancel: cancel, release: release, streamed: streamed, wake: make(chan struct{}, 1)}
}

func (u *utterance) id() string { return u.syn.id }

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

// push hands the speaker one more segment of text.
func (u *utterance) push(seg string) {
	u.mu.Lock()
	u.segs = append(u.segs, seg)
	u.queued += utf8.RuneCountInString(seg)
	u.mu.Unlock()
	u.signal()
}

// waiting is the number of characters pushed and not yet taken by the speaker.
func (u *utterance) waiting() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.queued
}

// close says no more text will come.
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
			u.queued -= utf8.RuneCountInString(seg)
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

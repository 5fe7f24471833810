package server

import (
	"fmt"
	"sync"
)

// maxPending bounds the utterances one session may have waiting behind the one it hears.
const maxPending = 16

// utteranceQueue holds a session's admitted utterances in arrival order and knows every live
// one (admitted and not finished) by its id, for cancel and to refuse a duplicate id. The
// reader adds and closes; the speaker takes and forgets.
type utteranceQueue struct {
	ch chan *utterance

	mu   sync.Mutex
	live map[string]*utterance
}

func newUtteranceQueue(pending int) *utteranceQueue {
	return &utteranceQueue{ch: make(chan *utterance, pending), live: map[string]*utterance{}}
}

// has reports whether an utterance with this id is live.
func (q *utteranceQueue) has(id string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	_, ok := q.live[id]
	return ok
}

// add queues u behind the others; when the queue is full it refuses u with a saturation error
// and u is not live.
func (q *utteranceQueue) add(u *utterance) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	select {
	case q.ch <- u:
		q.live[u.id()] = u
		return nil
	default:
		return fmt.Errorf("%w: %d utterances are already waiting in this session", ErrQueueSaturated, cap(q.ch))
	}
}

// taken is how next ended.
type taken int

const (
	takenOne     taken = iota // an utterance to speak
	takenClosed               // the reader closed the queue and nothing is left
	takenDrained              // drain was closed and nothing is left: take no more
)

// next waits for the next utterance in arrival order. Once drain is closed it still returns
// what is queued, then takenDrained instead of waiting: a draining session speaks what it has
// admitted and nothing more.
func (q *utteranceQueue) next(drain <-chan struct{}) (*utterance, taken) {
	select {
	case u, ok := <-q.ch:
		if !ok {
			return nil, takenClosed
		}
		return u, takenOne
	case <-drain:
	}
	select {
	case u, ok := <-q.ch:
		if !ok {
			return nil, takenClosed
		}
		return u, takenOne
	default:
		return nil, takenDrained
	}
}

// cancel stops the live utterance with id, or with no id every live one: the barge-in of a
// caller who starts talking over the agent.
func (q *utteranceQueue) cancel(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for uid, u := range q.live {
		if id == "" || uid == id {
			u.cancel()
		}
	}
}

// forget makes u no longer live, freeing its id.
func (q *utteranceQueue) forget(u *utterance) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.live[u.id()] == u {
		delete(q.live, u.id())
	}
}

// close ends the queue for the reader: the speaker takes what is left, then takenClosed.
func (q *utteranceQueue) close() { close(q.ch) }

// rest empties a closed queue of what no speaker took.
func (q *utteranceQueue) rest() []*utterance {
	var out []*utterance
	for u := range q.ch {
		out = append(out, u)
	}
	return out
}

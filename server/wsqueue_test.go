package server

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kokoro-sm/kokoro/tts"
)

func testUtterance(id string, streamed bool) *utterance {
	return newUtterance(context.Background(), &synthesis{id: id}, func() {}, streamed)
}

func TestUtteranceQueueKeepsOrderAndItsBound(t *testing.T) {
	t.Parallel()
	q := newUtteranceQueue(2)
	a, b, c := testUtterance("a", false), testUtterance("b", false), testUtterance("c", false)
	if err := q.add(a); err != nil {
		t.Fatal(err)
	}
	if err := q.add(b); err != nil {
		t.Fatal(err)
	}
	if err := q.add(c); !errors.Is(err, ErrQueueSaturated) || q.has("c") {
		t.Fatalf("third utterance into a queue of two: %v (live %v)", err, q.has("c"))
	}
	never := make(chan struct{})
	for _, want := range []*utterance{a, b} {
		if u, how := q.next(never); u != want || how != takenOne {
			t.Fatalf("next = %v, %v; want %s", u, how, want.id())
		}
	}
	// Taken is not finished: the ids stay live until the speaker forgets them.
	if !q.has("a") || !q.has("b") {
		t.Error("taken utterances must stay live until forgotten")
	}
	q.forget(a)
	if q.has("a") {
		t.Error("forgotten utterance still live")
	}
	q.cancel("b")
	if b.ctx.Err() == nil {
		t.Error("cancel by id did not reach the utterance")
	}
	q.close()
	if u, how := q.next(never); u != nil || how != takenClosed {
		t.Errorf("next after close = %v, %v", u, how)
	}
}

func TestUtteranceQueueCancelAllAndDrain(t *testing.T) {
	t.Parallel()
	q := newUtteranceQueue(4)
	a, b := testUtterance("a", false), testUtterance("b", false)
	_ = q.add(a)
	_ = q.add(b)
	q.cancel("")
	if a.ctx.Err() == nil || b.ctx.Err() == nil {
		t.Error("cancel without an id must stop every live utterance")
	}
	drain := make(chan struct{})
	close(drain)
	// Draining: what is queued is still spoken, then the speaker takes nothing more.
	if u, how := q.next(drain); how != takenOne || u == nil {
		t.Fatalf("draining with two queued: %v, %v", u, how)
	}
	if u, how := q.next(drain); how != takenOne || u == nil {
		t.Fatalf("draining with one queued: %v, %v", u, how)
	}
	if u, how := q.next(drain); u != nil || how != takenDrained {
		t.Errorf("draining and empty: %v, %v; want takenDrained", u, how)
	}
	c := testUtterance("c", false)
	_ = q.add(c)
	q.close()
	if rest := q.rest(); len(rest) != 1 || rest[0] != c {
		t.Errorf("rest = %v; want the one no speaker took", rest)
	}
}

func TestUtteranceHandsOverSegmentsInOrder(t *testing.T) {
	t.Parallel()
	u := testUtterance("s", true)
	u.push("One.")
	u.push("Two.")
	u.close()
	for _, want := range []string{"One.", "Two."} {
		if seg, ok := u.next(); !ok || seg != want {
			t.Fatalf("next = %q, %v; want %q", seg, ok, want)
		}
	}
	if _, ok := u.next(); ok {
		t.Error("a closed, spoken utterance has no more segments")
	}
	v := testUtterance("v", true)
	boom := errors.New("stopped by the session")
	v.abort(boom)
	if _, ok := v.next(); ok {
		t.Error("an aborted utterance still hands out segments")
	}
	if err := v.cause(context.Canceled); err != boom {
		t.Errorf("cause = %v; want the abort's error, not the cancellation", err)
	}
}

func TestTextStreamDeadIDs(t *testing.T) {
	t.Parallel()
	var ts textStream
	u := testUtterance("llm", true)
	ts.start(u)
	ts.feed("Hello th", 0)
	ts.feed("ere. How a", 0)
	if seg, ok := u.next(); !ok || seg != "Hello there." {
		t.Fatalf("first sentence %q, %v", seg, ok)
	}
	ts.kill("llm")
	if ts.open != nil || !ts.isDead("llm") {
		t.Fatalf("after kill: open %v dead %v", ts.open, ts.isDead("llm"))
	}
	if !ts.flushed("llm") || ts.isDead("llm") || ts.flushed("llm") {
		t.Error("a flush forgets a dead id, once")
	}
	if ts.isDead("") {
		t.Error("pieces without an id are never dead")
	}

	// Past the text limit the utterance stops with an error and its id is dead.
	w := testUtterance("long", true)
	ts.start(w)
	ts.feed("twelve chars", 20)
	ts.feed(" and nine", 20)
	if !errors.Is(w.cause(nil), tts.ErrTextTooLong) || ts.open != nil || !ts.isDead("long") {
		t.Errorf("over the limit: cause %v, open %v, dead %v", w.cause(nil), ts.open, ts.isDead("long"))
	}
}

func TestSessionTimer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		closed := make(chan time.Time, 1)
		start := time.Now()
		st := newSessionTimer(time.Second, func() { closed <- time.Now() })
		// Traffic every half second keeps the session for as long as it comes.
		for range 6 {
			time.Sleep(500 * time.Millisecond)
			st.touch()
		}
		select {
		case <-closed:
			t.Fatal("closed a session with traffic")
		default:
		}
		at := <-closed
		if d := at.Sub(start); d != 4*time.Second {
			t.Errorf("closed %v after the start; want one idle second after the last traffic at 3 s", d)
		}
		st.stop()

		// A cut moves the end earlier, never later.
		st = newSessionTimer(time.Minute, func() { closed <- time.Now() })
		start = time.Now()
		st.cut(start.Add(2 * time.Second))
		st.cut(start.Add(5 * time.Second))
		if d := (<-closed).Sub(start); d != 2*time.Second {
			t.Errorf("cut session closed after %v; want 2 s", d)
		}
		st.stop()

		// stop leaves the socket open.
		st = newSessionTimer(time.Second, func() { closed <- time.Now() })
		st.stop()
		time.Sleep(2 * time.Second)
		select {
		case <-closed:
			t.Error("a stopped timer closed the session")
		default:
		}
	})
}

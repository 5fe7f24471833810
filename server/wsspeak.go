package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// speakLoop is the session's speaker: it speaks utterances one after another in arrival order,
// so binary frames never interleave. When the server drains it finishes what is queued and
// says goodbye.
func (ss *session) speakLoop() {
	for {
		u, how := ss.queue.next(ss.srv.drainCh)
		switch how {
		case takenClosed:
			return
		case takenDrained:
			ss.conn.goodbye(websocket.CloseGoingAway, "server shutting down")
			return
		}
		ss.speakOne(u)
	}
}

// speakOne runs one utterance from its synthesis_start to its synthesis_complete (or error)
// message. Every utterance the session admitted gets both, one cancelled while it waited in
// the queue too: a client can count on a start for each accepted request_id, and on one end.
func (ss *session) speakOne(u *utterance) {
	defer ss.finish(u)
	if err := ss.dialect.send(ss.conn, api.WSServerMessage{Type: api.WSTypeSynthesisStart, RequestID: u.id()}); err != nil {
		if ss.drainCut() {
			return // the close frame is out
		}
		ss.cancel()
		return
	}
	rate := u.syn.rate
	clock := &wordClock{rate: rate, markTypes: u.marks} // the audio, words and marks sent
	if u.ctx.Err() != nil {
		ss.complete(u, tts.Stats{}, nil, clock.sent(""), u.ctx.Err())
		return
	}
	enc, err := u.syn.format.New(-1, rate) // a raw format: frames can be cut anywhere
	if err != nil {
		ss.complete(u, tts.Stats{}, nil, clock.sent(""), err)
		return
	}
	defer enc.Close()
	var (
		total tts.Stats
		first = newAudioTimes(rate)
		frame []byte
	)
	emit, tail, err := converting(rate, func(c tts.Chunk) error {
		var err error
		if frame, err = enc.Write(frame[:0], c.PCM); err != nil {
			return err
		}
		offset := clock.at
		words, marks := clock.add(c), clock.take()
		if !u.timestamps {
			words = nil
		}
		var head func(from, to int) api.WSServerMessage
		if u.timestamps || len(u.marks) > 0 {
			head = func(from, to int) api.WSServerMessage {
				at, n := offset+from, to-from
				return api.WSServerMessage{Type: api.WSTypeAudio, RequestID: u.id(), Offset: &at, Samples: &n,
					Words: within(words, at, at+n), Marks: marksWithin(marks, at, at+n, from == 0, to == len(c.PCM), clock.ms)}
			}
		}
		if err := ss.dialect.audio(ss.conn, u, frame, sampleBytes(u.syn.format), head); err != nil {
			ss.cancel() // a dead connection ends the session, not only this utterance
			return err
		}
		first.wrote(c.PCM, time.Now())
		return nil
	})
	if err != nil {
		ss.complete(u, tts.Stats{}, nil, clock.sent(""), err)
		return
	}
	spoke := false
	for {
		seg, ok := u.next()
		if !ok {
			break
		}
		r := u.syn.req
		r.Resumes = spoke // the sentence before it was spoken: pause as at a sentence end
		var err error
		switch {
		case r.Markup != nil: // SSML or phonemes, checked whole when the utterance started
		case len(u.lexicons) > 0 || len(u.marks) > 0 || markup.DefaultNormalization.Rewrites(seg):
			doc := markup.PlainDoc(seg)
			doc.ApplyLexicons(u.lexicons)
			doc.Normalize(markup.DefaultNormalization)
			r.Markup = doc.Segments() // StreamMarkup checks each segment's text
		default:
			r, err = ss.eng.CheckText(r, seg)
		}
		var st tts.Stats
		if err == nil {
			st, err = tts.StreamMarkup(u.ctx, ss.eng, r, emit)
		}
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
			ss.complete(u, total, first, clock.sent(st.NextWord), err)
			return
		}
		spoke = true
	}
	err = u.ctx.Err()
	if err == nil && spoke {
		err = tail()
	}
	total.Elapsed = time.Since(u.syn.arrived)
	if err == nil && !spoke {
		err = fmt.Errorf("%w: nothing to speak in request %q", tts.ErrEmptyText, u.id())
	}
	ss.complete(u, total, first, clock.sent(""), err)
}

// complete tells the client how an utterance ended and records it; sent is what it was sent,
// reported when a cancel stopped it.
func (ss *session) complete(u *utterance, st tts.Stats, first *audioTimes, sent *api.SentAudio, err error) {
	err = u.cause(err)
	cut := ss.drainCut()
	if err != nil && cut {
		err = errDrainCut // the server's shutdown, not the client's cancel
	}
	// Free the admission slot and the request id before the client hears that the utterance
	// ended: a closed-loop client sends its next utterance the moment it does, and must not be
	// refused for a slot this one no longer uses.
	ss.queue.forget(u)
	u.release()
	h := httpError{status: http.StatusOK, outcome: OutcomeOK}
	if err != nil {
		h = classify(err)
	}
	switch {
	case ss.ctx.Err() != nil && !cut:
		// The client is gone or the connection failed: nobody to tell.
	case err == nil, h.outcome == OutcomeCancelled:
		m := api.WSServerMessage{
			Type: api.WSTypeSynthesisComplete, RequestID: u.id(), Cancelled: err != nil,
			TotalDurationS: st.AudioDuration.Seconds(), ElapsedS: time.Since(u.syn.arrived).Seconds(),
		}
		if m.Cancelled {
			m.Sent = sent
		}
		_ = ss.dialect.send(ss.conn, m)
	default:
		ss.sendError(u.id(), err)
	}
	ss.srv.record(labelBidi, u.id(), h, u.syn.arrived, first, st, err)
}

// finish ends an utterance: it is cancelled, forgotten and its admission slot given back.
func (ss *session) finish(u *utterance) {
	u.cancel()
	ss.queue.forget(u)
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
	if err := ss.dialect.send(ss.conn, msg); err != nil && !ss.drainCut() {
		ss.cancel()
	}
}

// reject turns away an utterance before it was queued, counting it like a refused HTTP
// request.
func (ss *session) reject(id string, err error) {
	ss.sendError(id, err)
	ss.srv.record(labelBidi, id, classify(err), time.Now(), nil, tts.Stats{}, err)
}

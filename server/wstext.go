package server

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

// textStream is the reader's state for text streamed in pieces ({"type":"text"}): the open
// utterance the pieces feed until its flush, the text not yet cut into a sentence, and the ids
// that are dead. Only the reader goroutine uses it.
//
// One rule decides what happens to pieces of an utterance that was stopped: once an id was
// refused, cancelled, or stopped for streaming past the text limit, it is dead until the
// client flushes it, and its pieces are dropped. The client was told once (an error or a
// cancelled synthesis_complete); the rest of that utterance must neither start a new one nor
// earn an error per piece.
//
// Nothing here grows without bound, whatever MAX_TEXT_CHARS says: at most maxDead dead ids are
// remembered (the oldest is forgotten first), text with no sentence end is handed over at a
// word once it reaches maxBuffered characters, and an utterance whose client streams faster
// than it is spoken stops with text_too_long once maxWaiting characters wait to be spoken.
type textStream struct {
	open  *utterance
	buf   string // streamed text not yet cut into a sentence
	chars int    // characters streamed into open so far
	dead  map[string]bool
	order []string // dead ids, oldest first
}

// The bounds of a session's streamed text.
const (
	maxDead     = 256
	maxBuffered = 1000    // characters: a long paragraph; the phonemizer cuts it further
	maxWaiting  = 100_000 // characters waiting to be spoken: more than an hour of speech
)

// isDead reports whether pieces for id are to be dropped.
func (t *textStream) isDead(id string) bool { return id != "" && t.dead[id] }

// kill makes id dead until its flush, and drops the open utterance if it is id's.
func (t *textStream) kill(id string) {
	if t.open != nil && t.open.id() == id {
		t.drop()
	}
	if id == "" || t.dead[id] {
		return
	}
	if t.dead == nil {
		t.dead = map[string]bool{}
	}
	if len(t.order) >= maxDead {
		delete(t.dead, t.order[0])
		t.order = t.order[1:]
	}
	t.dead[id] = true
	t.order = append(t.order, id)
}

// flushed forgets a dead id once the client flushed it; false when id was not dead.
func (t *textStream) flushed(id string) bool {
	if !t.isDead(id) {
		return false
	}
	delete(t.dead, id)
	t.order = slices.DeleteFunc(t.order, func(d string) bool { return d == id })
	return true
}

// start makes u the open utterance.
func (t *textStream) start(u *utterance) { t.open, t.buf, t.chars = u, "", 0 }

// drop forgets the open utterance without ending it.
func (t *textStream) drop() { t.open, t.buf, t.chars = nil, "", 0 }

// feed adds a piece to the open utterance and hands it every sentence the piece completed.
// Past the text limit (maxChars > 0) it stops the utterance with an error and its id is dead.
func (t *textStream) feed(text string, maxChars int) {
	u := t.open
	t.chars += utf8.RuneCountInString(text)
	if maxChars > 0 && t.chars > maxChars {
		u.abort(fmt.Errorf("%w: %d characters streamed, the limit is %d", tts.ErrTextTooLong, t.chars, maxChars))
		t.kill(u.id())
		return
	}
	done, rest := phonemize.CutSentences(t.buf + text)
	if utf8.RuneCountInString(rest) >= maxBuffered {
		// No sentence end for a paragraph's length: hand it over at its last word break.
		cut := strings.LastIndexFunc(rest, unicode.IsSpace)
		if cut <= 0 {
			cut = len(rest)
		}
		done, rest = done+rest[:cut], rest[cut:]
	}
	t.buf = rest
	if strings.TrimSpace(done) != "" {
		u.push(done)
	}
	if n := u.waiting(); n > maxWaiting {
		u.abort(fmt.Errorf("%w: %d characters are waiting to be spoken, the limit is %d; stream slower or flush", tts.ErrTextTooLong, n, maxWaiting))
		t.kill(u.id())
	}
}

// flush speaks what is left of the open utterance and ends it.
func (t *textStream) flush() {
	u := t.open
	if u == nil {
		return
	}
	if strings.TrimSpace(t.buf) != "" {
		u.push(t.buf)
	}
	u.close()
	t.drop()
}

package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
)

// DefaultTexts is the built-in pool: varied short utterances of the kind a voice agent speaks,
// about 25 characters on average like the reference workload. Questions, numbers, names and
// clipped phrases exercise different paths of the phonemizer.
var defaultTexts = [...]string{
	"Hello, how can I help?",
	"Your order has shipped.",
	"Please hold for a moment.",
	"Is there anything else?",
	"Thanks for calling today.",
	"Let me check that for you.",
	"Your balance is $42.17.",
	"The meeting starts at 3 PM.",
	"Could you spell that name?",
	"I'm sorry, I didn't catch that.",
	"Press one for billing.",
	"We open at 9 tomorrow.",
	"Your code is 4 8 1 5.",
	"Good morning, Dr. Patel.",
	"That's all taken care of.",
	"One moment, please.",
	"Did that answer your question?",
	"The total comes to 19 dollars.",
	"Sure, I can do that.",
	"Your appointment is confirmed.",
	"What's the account number?",
	"Have a great evening!",
	"I'll transfer you now.",
	"It will arrive on Friday.",
	"Can you hear me okay?",
	"Let's try that again.",
	"The weather looks clear.",
	"Your refund was approved.",
	"Which city are you in?",
	"Goodbye, and take care.",
	"Okay.",
	"Yes, that's right.",
}

// DefaultTexts returns a copy of the built-in text pool.
func DefaultTexts() []string { return append([]string(nil), defaultTexts[:]...) }

// LoadTexts reads a text pool: one utterance per line; blank lines and lines starting with '#'
// are skipped.
func LoadTexts(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read texts: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("text pool is empty")
	}
	return out, nil
}

// textPicker hands out texts in a seeded shuffled order, reshuffling after each pass, so the
// sequence of texts dispatched is the same for the same seed whatever the timing.
type textPicker struct {
	mu    sync.Mutex
	rng   *rand.Rand
	pool  []string
	order []int
	next  int
}

func newTextPicker(pool []string, seed uint64, run int) *textPicker {
	return &textPicker{rng: rand.New(rand.NewPCG(seed, uint64(run))), pool: pool}
}

func (p *textPicker) Next() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next >= len(p.order) {
		p.order = p.rng.Perm(len(p.pool))
		p.next = 0
	}
	t := p.pool[p.order[p.next]]
	p.next++
	return t
}

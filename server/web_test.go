package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

type pageState struct {
	Played      float64  `json:"played"`
	Highlighted []int    `json:"highlighted"`
	Done        bool     `json:"done"`
	Heard       []string `json:"heard"`
}

func state(t *testing.T, b *testenv.Browser) pageState {
	t.Helper()
	var s pageState
	b.Eval(t, "window.kokoroState", &s)
	return s
}

// The page at /, in headless Chromium: it loads from the binary, speaks typed text with a
// voice, highlights every word in order while its audio plays, and its stop button cuts a
// long text mid-speech (the server's utterance is cancelled, nothing left in flight) and shows
// the words heard.
func TestPageInChromium(t *testing.T) {
	t.Parallel()
	b := testenv.Chromium(t)
	h := newHarness(t)
	h.waitReady()
	b.Call(t, "Page.enable", map[string]any{})
	b.Call(t, "Page.navigate", map[string]any{"url": h.url + "/"})
	eventually(t, waitLimit, "the page and its voices", func() bool {
		var n int
		b.Eval(t, `document.querySelectorAll("#voices option").length`, &n)
		return n == len(testVoices)
	})
	text := "One two three. Four five six."
	b.Eval(t, fmt.Sprintf(`document.getElementById("text").value = %q; document.getElementById("voice").value = "af_bella"; window.kokoroSpeak().then(() => true)`, text), nil)
	eventually(t, 60*time.Second, "the utterance played", func() bool { return state(t, b).Done })
	s := state(t, b)
	n := len(strings.Fields(text))
	if len(s.Highlighted) != n {
		t.Fatalf("highlighted %v, want the %d words in order", s.Highlighted, n)
	}
	for i, w := range s.Highlighted {
		if w != i {
			t.Fatalf("highlighted %v, want the words in order", s.Highlighted)
		}
	}
	if s.Played < float64(wantSamples(text))*0.9 {
		t.Errorf("played %.0f samples, want about %d", s.Played, wantSamples(text))
	}

	// A long text, stopped once its second word lights up; the model holds its third chunk
	// until the test ends, so the stop always finds the server speaking.
	hold := make(chan struct{})
	defer close(hold)
	h.syn.holdFrom(h.syn.calls.Load()+2, hold)
	b.Eval(t, fmt.Sprintf(`document.getElementById("text").value = %q; window.kokoroSpeak().then(() => true)`, strings.Repeat("A long sentence to stop. ", 40)), nil)
	eventually(t, 60*time.Second, "the second word heard", func() bool { return len(state(t, b).Highlighted) >= 2 })
	b.Eval(t, "window.kokoroStop(), true", nil)
	s = state(t, b)
	if len(s.Heard) < 1 || s.Heard[0] != "A" {
		t.Errorf("heard %v, want the first words", s.Heard)
	}
	var shown string
	b.Eval(t, `document.getElementById("heard").textContent`, &shown)
	if !strings.HasPrefix(shown, "Heard: A") {
		t.Errorf("the page shows %q", shown)
	}
	eventually(t, waitLimit, "the server's utterance cancelled, nothing in flight", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeCancelled)) == 1 && h.srv.gate.depth() == 0
	})

	resp, err := http.Get(h.url + "/web/app.js")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/web/app.js: %v %v", err, resp)
	}
	resp.Body.Close()
	resp, _ = http.Get(h.url + "/nope")
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 404 || e.Error != api.ErrNotFound {
		t.Errorf("/nope: %d %+v", resp.StatusCode, e)
	}
}

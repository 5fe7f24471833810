package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
)

// browser is a headless Chromium (Debian's package) driven over the DevTools protocol.
type browser struct {
	conn *websocket.Conn
	seq  atomic.Int64
}

// newBrowser starts Chromium with one blank page and attaches to it; the test skips (fails
// under make test) when Chromium is not installed.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
			t.Fatal("chromium not found: apt-get install chromium (make setup)")
		}
		t.Skip("chromium not found: apt-get install chromium (make setup)")
	}
	// Its own profile directory, removed once the browser and its helpers (one process group)
	// are gone: t.TempDir's check would race the helpers' last writes.
	dir, err := os.MkdirTemp("", "kokoro-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--autoplay-policy=no-user-gesture-required", "--remote-debugging-port=0",
		"--user-data-dir="+dir, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
	})
	endpoint := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
				endpoint <- url
			}
		}
	}()
	var url string
	select {
	case url = <-endpoint:
	case <-time.After(60 * time.Second):
		t.Fatal("chromium did not start")
	}
	// The page target's own socket, from the browser's target list.
	host := strings.TrimPrefix(strings.Split(url, "/devtools/")[0], "ws://")
	var pageURL string
	eventually(t, waitLimit, "a page target", func() bool {
		resp, err := http.Get("http://" + host + "/json/list")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var targets []struct{ Type, WebSocketDebuggerURL string }
		_ = json.NewDecoder(resp.Body).Decode(&targets)
		for _, tg := range targets {
			if tg.Type == "page" {
				pageURL = tg.WebSocketDebuggerURL
				return true
			}
		}
		return false
	})
	conn, _, err := websocket.DefaultDialer.Dial(pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &browser{conn: conn}
}

// call sends one DevTools command and returns its result.
func (b *browser) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	id := b.seq.Add(1)
	if err := b.conn.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		t.Fatal(err)
	}
	for {
		_ = b.conn.SetReadDeadline(time.Now().Add(waitLimit))
		var m struct {
			ID     int64           `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := b.conn.ReadJSON(&m); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if m.ID != id {
			continue // an event
		}
		if m.Error != nil {
			t.Fatalf("%s: %s", method, m.Error)
		}
		return m.Result
	}
}

// eval evaluates a JavaScript expression in the page (awaiting a promise) into v.
func (b *browser) eval(t *testing.T, expr string, v any) {
	t.Helper()
	res := b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true})
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.ExceptionDetails != nil {
		t.Fatalf("%s: %v %s", expr, err, r.ExceptionDetails)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result.Value, v); err != nil {
			t.Fatalf("%s = %s: %v", expr, r.Result.Value, err)
		}
	}
}

type pageState struct {
	Played      float64  `json:"played"`
	Highlighted []int    `json:"highlighted"`
	Done        bool     `json:"done"`
	Heard       []string `json:"heard"`
}

func (b *browser) state(t *testing.T) pageState {
	t.Helper()
	var s pageState
	b.eval(t, "window.kokoroState", &s)
	return s
}

// The page at /, in headless Chromium: it loads from the binary, speaks typed text with a
// voice, highlights every word in order while its audio plays, and its stop button cuts a
// long text mid-speech (the server's utterance is cancelled, nothing left in flight) and shows
// the words heard.
func TestPageInChromium(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	h := newHarness(t)
	h.waitReady()
	b.call(t, "Page.enable", map[string]any{})
	b.call(t, "Page.navigate", map[string]any{"url": h.url + "/"})
	eventually(t, waitLimit, "the page and its voices", func() bool {
		var n int
		b.eval(t, `document.querySelectorAll("#voices option").length`, &n)
		return n == len(testVoices)
	})
	text := "One two three. Four five six."
	b.eval(t, fmt.Sprintf(`document.getElementById("text").value = %q; document.getElementById("voice").value = "af_bella"; window.kokoroSpeak().then(() => true)`, text), nil)
	eventually(t, 60*time.Second, "the utterance played", func() bool { return b.state(t).Done })
	s := b.state(t)
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
	b.eval(t, fmt.Sprintf(`document.getElementById("text").value = %q; window.kokoroSpeak().then(() => true)`, strings.Repeat("A long sentence to stop. ", 40)), nil)
	eventually(t, 60*time.Second, "the second word heard", func() bool { return len(b.state(t).Highlighted) >= 2 })
	b.eval(t, "window.kokoroStop(), true", nil)
	s = b.state(t)
	if len(s.Heard) < 1 || s.Heard[0] != "A" {
		t.Errorf("heard %v, want the first words", s.Heard)
	}
	var shown string
	b.eval(t, `document.getElementById("heard").textContent`, &shown)
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

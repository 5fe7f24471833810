package testenv

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// browserWait bounds how long one DevTools command, or Chromium's start, may take.
const browserWait = 60 * time.Second

// Browser is a headless Chromium (Debian's package) with one page, driven over the DevTools
// protocol. The events the page sends while a command waits for its answer are kept, in order,
// for Events.
type Browser struct {
	conn *websocket.Conn
	seq  atomic.Int64

	mu     sync.Mutex
	events []Event
}

// Event is a DevTools event: its method and parameters.
type Event struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Chromium starts a headless Chromium with one blank page and attaches to it; the browser and
// its profile are gone when the test ends. A missing `chromium` skips the test under a bare
// `go test` and fails it under `make test`.
func Chromium(tb testing.TB) *Browser {
	tb.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		missing(tb, "chromium not found: apt-get install chromium (make setup)")
	}
	// Its own profile directory, removed once the browser and its helpers (one process group)
	// are gone: t.TempDir's check would race the helpers' last writes.
	dir, err := os.MkdirTemp("", "kokoro-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--autoplay-policy=no-user-gesture-required", "--remote-debugging-port=0",
		"--user-data-dir="+dir, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
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
	case <-time.After(browserWait):
		tb.Fatal("chromium did not start")
	}
	// The page target's own socket, from the browser's target list.
	host := strings.TrimPrefix(strings.Split(url, "/devtools/")[0], "ws://")
	var pageURL string
	for deadline := time.Now().Add(browserWait); pageURL == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatal("chromium lists no page target")
		}
		pageURL = pageTarget(host)
	}
	conn, _, err := websocket.DefaultDialer.Dial(pageURL, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	return &Browser{conn: conn}
}

// pageTarget returns the DevTools socket of the browser's page, or "" while it has none.
func pageTarget(host string) string {
	resp, err := http.Get("http://" + host + "/json/list")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	var targets []struct{ Type, WebSocketDebuggerURL string }
	_ = json.NewDecoder(resp.Body).Decode(&targets)
	for _, tg := range targets {
		if tg.Type == "page" {
			return tg.WebSocketDebuggerURL
		}
	}
	return ""
}

// Call sends one DevTools command and returns its result, failing the test on an error.
func (b *Browser) Call(tb testing.TB, method string, params any) json.RawMessage {
	tb.Helper()
	if params == nil {
		params = map[string]any{}
	}
	id := b.seq.Add(1)
	if err := b.conn.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		tb.Fatal(err)
	}
	for {
		_ = b.conn.SetReadDeadline(time.Now().Add(browserWait))
		var m struct {
			ID     int64           `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := b.conn.ReadJSON(&m); err != nil {
			tb.Fatalf("%s: %v", method, err)
		}
		if m.ID == 0 && m.Method != "" {
			b.mu.Lock()
			b.events = append(b.events, Event{m.Method, m.Params})
			b.mu.Unlock()
			continue
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			tb.Fatalf("%s: %s", method, m.Error)
		}
		return m.Result
	}
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise) into v, failing the
// test when it throws.
func (b *Browser) Eval(tb testing.TB, expr string, v any) {
	tb.Helper()
	res := b.Call(tb, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true})
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil || r.ExceptionDetails != nil {
		tb.Fatalf("%s: %v %s", expr, err, r.ExceptionDetails)
	}
	if v != nil {
		if err := json.Unmarshal(r.Result.Value, v); err != nil {
			tb.Fatalf("%s = %s: %v", expr, r.Result.Value, err)
		}
	}
}

// Events returns the events received so far with the given method.
func (b *Browser) Events(method string) []Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Event
	for _, e := range b.events {
		if e.Method == method {
			out = append(out, e)
		}
	}
	return out
}

// Errors returns what the page reported as errors so far: uncaught exceptions, console.error
// calls and error entries of the browser's log (a resource that failed to load, a blocked
// request). Call it after enabling the Runtime and Log domains.
func (b *Browser) Errors() []string {
	var out []string
	for _, e := range b.Events("Runtime.exceptionThrown") {
		out = append(out, "exception: "+string(e.Params))
	}
	for _, e := range b.Events("Runtime.consoleAPICalled") {
		var c struct{ Type string }
		if json.Unmarshal(e.Params, &c) == nil && c.Type == "error" {
			out = append(out, "console.error: "+string(e.Params))
		}
	}
	for _, e := range b.Events("Log.entryAdded") {
		var l struct {
			Entry struct{ Level, Text, URL string }
		}
		if json.Unmarshal(e.Params, &l) == nil && l.Entry.Level == "error" {
			out = append(out, "log: "+l.Entry.Text+" "+l.Entry.URL)
		}
	}
	return out
}

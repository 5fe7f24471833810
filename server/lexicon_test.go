package server

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

func withLexicons(dir string) harnessOpt {
	return func(c *Config, _ *fakeSynth) { c.LexiconDir = dir }
}

// TestLexiconsOnEveryRoute reads a word with a lexicon the request names, on /invocations,
// the OpenAI route and the WebSocket (whole and streamed text): the alias is what is spoken.
func TestLexiconsOnEveryRoute(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withLexicons("../markup/testdata/lexicons/good"))
	h.waitReady()
	text, spoken := "W3C rocks.", "World Wide Web Consortium rocks."
	for _, c := range []struct{ route, body string }{
		{api.RouteInvocations, `{"text":"` + text + `","format":"pcm","lexicon_names":["acme"]}`},
		{api.RouteInvocations, `{"text":"<speak>` + text + `</speak>","format":"pcm","lexicon_names":["names","acme"]}`},
		{api.RouteOpenAISpeech, `{"model":"kokoro","voice":"af_heart","input":"` + text + `","response_format":"pcm","lexicon_names":["acme"]}`},
	} {
		resp := post(t, client(t), h.url+c.route, c.body)
		b := readAll(t, resp)
		if resp.StatusCode != http.StatusOK || len(b) != 2*wantSamples(spoken) {
			t.Errorf("%s %s: status %d, %d bytes, want %d", c.route, c.body, resp.StatusCode, len(b), 2*wantSamples(spoken))
		}
	}
	conn := dialWS(t, h)
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Text: text, RequestID: "w1", LexiconNames: []string{"acme"}})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Type: api.WSTypeText, Text: text + " ", RequestID: "w2", LexiconNames: []string{"acme"}})
	sendJSON(t, conn, websocket.TextMessage, api.WSClientMessage{Type: api.WSTypeFlush, RequestID: "w2"})
	var tr transcript
	read(t, conn, &tr, completed(2))
	for _, id := range []string{"w1", "w2"} {
		if tr.pcm[id] != 2*wantSamples(spoken) {
			t.Errorf("WebSocket %s: %d bytes, want %d", id, tr.pcm[id], 2*wantSamples(spoken))
		}
	}
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"hi","lexicon_names":["nope"]}`)
	b := readAll(t, resp)
	if e := decodeError(t, b); resp.StatusCode != http.StatusBadRequest || e.Error != api.ErrUnknownLexicon || !strings.Contains(e.Message, "acme, names, sampa") {
		t.Errorf("unknown lexicon: %d %s", resp.StatusCode, b)
	}
}

// TestBadLexiconFailsTheStart refuses to build a server whose lexicon directory holds a bad
// file, naming the file and the line.
func TestBadLexiconFailsTheStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile("../markup/testdata/lexicons/bad/badphoneme.pls")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.pls"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = New(Config{Load: fakeLoader(&fakeSynth{slots: 1}, tts.Config{}), LexiconDir: dir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	if !errors.Is(err, markup.ErrLexicon) || !strings.Contains(err.Error(), filepath.Join(dir, "bad.pls")+":5:") {
		t.Errorf("New: %v, want the file and line 5", err)
	}
}

// TestNormalizationSwitches reads a web address as it is said by default, and as written when
// the request turns url_normalization (or normalize) off, on /invocations and on Kokoro-FastAPI's
// captioned route.
func TestNormalizationSwitches(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	text, said := "Visit https://example.com/docs today.", "Visit example dot com slash docs today."
	for _, c := range []struct {
		opts string
		want string
	}{
		{``, said},
		{`,"normalization_options":{"url_normalization":true,"unit_normalization":false}`, said},
		{`,"normalization_options":{"url_normalization":false}`, text},
		{`,"normalization_options":{"normalize":false}`, text},
	} {
		resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"`+text+`","format":"pcm"`+c.opts+`}`)
		b := readAll(t, resp)
		if resp.StatusCode != http.StatusOK || len(b) != 2*wantSamples(c.want) {
			t.Errorf("%s: status %d, %d bytes, want %d (%q)", c.opts, resp.StatusCode, len(b), 2*wantSamples(c.want), c.want)
		}
	}
	resp := post(t, client(t), h.url+api.RouteCaptionedSpeech, `{"input":"`+text+`","voice":"af_heart","response_format":"pcm","stream":false,"normalization_options":{"url_normalization":false}}`)
	if b := readAll(t, resp); resp.StatusCode != http.StatusOK {
		t.Errorf("captioned with normalization_options: %d %s", resp.StatusCode, b)
	}
}

// TestSwitchesOfNormalizationOptions: each of Kokoro-FastAPI's switches set false turns off its
// own rewrite, normalize false all of them, and true or absent keeps them.
func TestSwitchesOfNormalizationOptions(t *testing.T) {
	t.Parallel()
	f, tr := false, true
	for _, c := range []struct {
		o    *api.NormalizationOptions
		want phonemize.Switches
	}{
		{nil, phonemize.Switches{}},
		{&api.NormalizationOptions{PhoneNormalization: &tr, UnitNormalization: &tr}, phonemize.Switches{}},
		{&api.NormalizationOptions{PhoneNormalization: &f}, phonemize.Switches{PhonesOff: true}},
		{&api.NormalizationOptions{UnitNormalization: &f}, phonemize.Switches{UnitsOff: true}},
		{&api.NormalizationOptions{ReplaceRemainingSymbols: &f}, phonemize.Switches{SymbolsOff: true}},
		{&api.NormalizationOptions{Normalize: &f, UnitNormalization: &tr}, phonemize.Switches{PhonesOff: true, UnitsOff: true, SymbolsOff: true}},
	} {
		if got := switchesOf(c.o); got != c.want {
			t.Errorf("%+v: %+v, want %+v", c.o, got, c.want)
		}
	}
}

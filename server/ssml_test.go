package server

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
)

// pcmSamples reads PCM16 LE.
func pcmSamples(b []byte) []int16 {
	out := make([]int16, len(b)/2)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return out
}

// longestSilence is the longest run of zero samples, and where it starts.
func longestSilence(pcm []int16) (start, n int) {
	run := 0
	for i, v := range pcm {
		if v != 0 {
			run = 0
			continue
		}
		run++
		if run > n {
			start, n = i-run+1, run
		}
	}
	return start, n
}

// quote makes a JSON string of s.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestSSMLBreakOnEveryRoute speaks a <break> as silence of its length, to a frame, on
// /invocations (told by <speak>, and by text_type) and on the OpenAI route.
func TestSSMLBreakOnEveryRoute(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	doc := `<speak>one <break time="2s"/> two</speak>`
	for _, c := range []struct{ route, body string }{
		{api.RouteInvocations, `{"text":` + quote(doc) + `,"format":"pcm","stream":false}`},
		{api.RouteInvocations, `{"text":` + quote(doc) + `,"format":"pcm","text_type":"ssml"}`},
		{api.RouteOpenAISpeech, `{"model":"kokoro","voice":"af_heart","input":` + quote(doc) + `,"response_format":"pcm"}`},
	} {
		resp := post(t, client(t), h.url+c.route, c.body)
		b := readAll(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.route, resp.StatusCode, b)
		}
		_, n := longestSilence(pcmSamples(b))
		if want := 2 * api.SampleRate; n < want-600 || n > want+600 {
			t.Errorf("%s %s: the longest silence is %d samples, want %d ± 600", c.route, c.body, n, want)
		}
	}
}

// TestSSMLTimestampsAcrossPauses keeps word times exact across a pause: the word after it
// starts where its sound starts, after the silence.
func TestSSMLTimestampsAcrossPauses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	doc := `<speak>alpha beta <break time="1500ms"/> gamma</speak>`
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":`+quote(doc)+`,"format":"pcm","timestamps":true,"stream":false}`)
	b := readAll(t, resp)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var timed api.InvocationTimed
	if err := json.Unmarshal(b, &timed); err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(timed.Audio)
	if err != nil {
		t.Fatal(err)
	}
	pcm := pcmSamples(raw)
	start, n := longestSilence(pcm)
	if len(timed.Words) != 3 {
		t.Fatalf("words %+v", timed.Words)
	}
	if w := timed.Words[2]; w.Word != "gamma" || w.Start < start+n-1 || w.Start > start+n+api.SampleRate/100 {
		t.Errorf("gamma at %d, the pause ends at %d", w.Start, start+n)
	}
	if w := timed.Words[1]; w.End > start+1 {
		t.Errorf("beta ends at %d, after the pause starts at %d", w.End, start)
	}
}

// TestHostileSSML answers every document of the hostile corpus with 400 invalid_ssml, and
// the server goes on serving.
func TestHostileSSML(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	files, err := filepath.Glob("../markup/testdata/hostile/*.ssml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile corpus: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":`+quote(string(b))+`,"text_type":"ssml"}`)
		body := readAll(t, resp)
		if e := decodeError(t, body); resp.StatusCode != http.StatusBadRequest || e.Error != api.ErrInvalidSSML || e.Message == "" {
			t.Errorf("%s: status %d %s", filepath.Base(f), resp.StatusCode, body)
		}
	}
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"still alive","format":"pcm"}`)
	if readAll(t, resp); resp.StatusCode != http.StatusOK {
		t.Errorf("after the hostile corpus: status %d", resp.StatusCode)
	}
}

// TestTextType reads text_type as Polly's TextType: text speaks the markup as written, an
// unknown type is refused naming the valid ones.
func TestTextType(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"<speak>a <foo/></speak>","text_type":"text","format":"pcm"}`)
	if readAll(t, resp); resp.StatusCode != http.StatusOK {
		t.Errorf("text_type text: status %d", resp.StatusCode)
	}
	resp = post(t, client(t), h.url+api.RouteInvocations, `{"text":"hello","text_type":"markdown"}`)
	b := readAll(t, resp)
	if e := decodeError(t, b); resp.StatusCode != http.StatusBadRequest || e.Error != api.ErrInvalidTextType || !strings.Contains(strings.Join(e.Valid, ","), "ssml") {
		t.Errorf("text_type markdown: %d %s", resp.StatusCode, b)
	}
	resp = post(t, client(t), h.url+api.RouteInvocations, `{"text":"<speak><foo/></speak>"}`)
	b = readAll(t, resp)
	if e := decodeError(t, b); resp.StatusCode != http.StatusBadRequest || !strings.Contains(e.Message, "<foo>") || !strings.Contains(e.Message, "say-as") {
		t.Errorf("unknown tag: %d %s", resp.StatusCode, b)
	}
	resp = post(t, client(t), h.url+api.RouteInvocations, `{"text":"<speak><lang xml:lang=\"de-DE\">Hallo</lang></speak>"}`)
	b = readAll(t, resp)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "de-DE") {
		t.Errorf("unspoken language: %d %s", resp.StatusCode, b)
	}
}

// TestSpeechMarksAlone answers speech_marks without timestamps as Polly's json output format:
// one mark a line, no audio; word marks slice the input text to the word, an SSML mark names
// its tag, and visemes come in order.
func TestSpeechMarksAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	for _, c := range []struct {
		text  string
		words []string
	}{
		{"Hello there. Bye now.", []string{"Hello", "there.", "Bye", "now."}},
		{`<speak>Code <say-as interpret-as="characters">AB</say-as>.<break time="1s"/><mark name="go"/>Go.</speak>`, []string{"Code", "AB", "Go."}},
	} {
		for _, stream := range []string{"true", "false"} {
			resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":`+quote(c.text)+`,"stream":`+stream+`,"speech_marks":["sentence","word","viseme","ssml"]}`)
			b := readAll(t, resp)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != api.EventsContentType {
				t.Fatalf("status %d %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
			}
			var words []string
			types := map[string]int{}
			last := -1
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var m api.SpeechMark
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				types[m.Type]++
				if m.Time < last && m.Type == "viseme" {
					t.Errorf("viseme %+v before the mark before it (%d ms)", m, last)
				}
				if m.Type == "viseme" {
					last = m.Time
					if m.Start != nil {
						t.Errorf("viseme with bytes: %s", line)
					}
					continue
				}
				if m.Start == nil || m.End == nil {
					t.Fatalf("%s mark without bytes: %s", m.Type, line)
				}
				if got := c.text[*m.Start:*m.End]; m.Type != "ssml" && got != m.Value || m.Type == "ssml" && got != `<mark name="go"/>` {
					t.Errorf("%s mark %s reads %q of the input", m.Type, line, got)
				}
				if m.Type == "word" {
					words = append(words, m.Value)
				}
				if m.Type == "ssml" && m.Value != "go" {
					t.Errorf("ssml mark %s", line)
				}
			}
			if strings.Join(words, "|") != strings.Join(c.words, "|") || types["sentence"] != 2 || types["viseme"] == 0 {
				t.Errorf("%s stream %s: words %q, marks by type %v", c.text, stream, words, types)
			}
		}
	}
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"hi","speech_marks":["phoneme"]}`)
	b := readAll(t, resp)
	if e := decodeError(t, b); resp.StatusCode != http.StatusBadRequest || e.Error != api.ErrInvalidSpeechMarks || len(e.Valid) != 4 {
		t.Errorf("speech_marks phoneme: %d %s", resp.StatusCode, b)
	}
}

// TestSpeechMarksBesideAudio puts each mark in the timed stream's audio event whose samples
// reach it.
func TestSpeechMarksBesideAudio(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"One two. Three four.","format":"pcm","timestamps":true,"speech_marks":["word"]}`)
	b := readAll(t, resp)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var marks []api.SpeechMark
	var words []api.Word
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var ev api.InvocationEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		for _, w := range ev.Words {
			if len(words) == 0 || words[len(words)-1].Index != w.Index {
				words = append(words, w)
			}
		}
		for _, m := range ev.Marks {
			if ms := api.SamplesMS(ev.Offset); float64(m.Time) < ms-1 || float64(m.Time) > api.SamplesMS(ev.Offset+ev.Samples)+1 {
				t.Errorf("mark %+v outside its event's [%v, %v] ms", m, ms, api.SamplesMS(ev.Offset+ev.Samples))
			}
		}
		marks = append(marks, ev.Marks...)
	}
	if len(marks) != 4 || marks[0].Type != "word" || marks[3].Value != "four." || len(words) != 4 {
		t.Fatalf("marks %+v, words %+v", marks, words)
	}
	// A word mark is its word's timestamp: what the word timing judge measures holds for it.
	for i, m := range marks {
		if m.Time != int(math.Round(words[i].StartMS)) || m.Value != words[i].Word {
			t.Errorf("word mark %+v, its word's timestamp %+v", m, words[i])
		}
	}
}

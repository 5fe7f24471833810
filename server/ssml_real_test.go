package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestRealSSMLHeard: a sample of SSML documents, spoken by the real model, is heard by the
// offline recognizer as the tags say it is read (a date as a date, a number as words, an alias
// for its abbreviation), within the recognizer's error on plain speech, and a break is a pause
// at least its length.
func TestRealSSMLHeard(t *testing.T) {
	testenv.LookPath(t, "pocketsphinx_continuous")
	rec, err := listen.Pocketsphinx()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := realHarness(t)
	cases := []struct {
		ssml, said string
		key        []string // the words the tag reads, which must be heard
		pause      time.Duration
	}{
		{`<speak>The meeting moved to <say-as interpret-as="date" format="mdy">03/14/2027</say-as>.</speak>`,
			"the meeting moved to march fourteenth twenty twenty seven", []string{"march", "fourteenth"}, 0},
		{`<speak>We sold <say-as interpret-as="cardinal">4512</say-as> tickets on the first day.</speak>`,
			"we sold four thousand five hundred twelve tickets on the first day", []string{"thousand", "hundred"}, 0},
		{`<speak>Our team finished <say-as interpret-as="ordinal">2</say-as> in the final race.</speak>`,
			"our team finished second in the final race", []string{"second"}, 0},
		{`<speak>The <sub alias="World Health Organization">WHO</sub> published a new report today.</speak>`,
			"the world health organization published a new report today", []string{"health", "organization"}, 0},
		{`<speak>Please hold for a moment. <break time="1200ms"/> Thank you for holding.</speak>`,
			"please hold for a moment thank you for holding", []string{"thank"}, 1200 * time.Millisecond},
		{`<speak><p>The shop opens at nine.</p><p><prosody rate="slow">Parking is free after six.</prosody></p></speak>`,
			"the shop opens at nine parking is free after six", []string{"parking"}, 0},
	}
	var errs, words int
	for _, c := range cases {
		body, _ := json.Marshal(map[string]any{"text": c.ssml, "voice": "af_heart", "format": "pcm"})
		resp := post(t, client(t), h.url+api.RouteInvocations, string(body))
		raw := readAll(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.ssml, resp.StatusCode, raw)
		}
		pcm := audio.DecodePCM16(raw)
		heard, err := rec.Transcribe(context.Background(), pcm, api.SampleRate)
		if err != nil {
			t.Fatal(err)
		}
		e, n := listen.WordErrors(c.said, heard)
		errs, words = errs+e, words+n
		t.Logf("%d of %d words wrong: heard %q for %s", e, n, heard, c.ssml)
		// A tag read the wrong way (a date as its digits, an abbreviation unexpanded) loses
		// the words it reads.
		for _, k := range c.key {
			if !slices.Contains(strings.Fields(heard), k) {
				t.Errorf("%s: heard %q, without %q", c.ssml, heard, k)
			}
		}
		if c.pause > 0 {
			longest := time.Duration(0)
			for _, p := range audio.Pauses(pcm, api.SampleRate, 5) {
				longest = max(longest, time.Duration(p.Len())*time.Second/api.SampleRate)
			}
			if longest < c.pause {
				t.Errorf("%s: the longest pause is %v, want the break's %v", c.ssml, longest, c.pause)
			}
		}
	}
	// The recognizer mishears about one word in eight of the model's plain speech
	// (TestRealListening's bound is 12 %); the tags' readings may add little to that.
	if wer := float64(errs) / float64(words); wer > 0.15 {
		t.Errorf("the recognizer heard %.1f %% of the words wrong (%d of %d), bound 15 %%", 100*wer, errs, words)
	}
}

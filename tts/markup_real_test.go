package tts_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// TestRealBreakLandsAtItsLength speaks SSML breaks with the real model and hears each as the
// silence between the speech around it (10 ms frames under the silence floor), at the
// break's length to a frame of the model (600 samples), a long pause as a short one.
func TestRealBreakLandsAtItsLength(t *testing.T) {
	t.Parallel()
	e := realEngine(t, 1, 2)
	for _, ms := range []int{700, 3000} {
		d, err := markup.Parse(`<speak>The first part ends here.<break time="` + strconv.Itoa(ms) + `ms"/>And the second part follows.</speak>`)
		if err != nil {
			t.Fatal(err)
		}
		how, err := e.CheckVoice(tts.Request{Voice: "af_heart", Lang: "en-us"})
		if err != nil {
			t.Fatal(err)
		}
		how.Markup = d.Segments()
		req, err := tts.CheckMarkup(e, how)
		if err != nil {
			t.Fatal(err)
		}
		var pcm []float32
		if _, err := tts.StreamMarkup(context.Background(), e, req, func(c tts.Chunk) error {
			pcm = append(pcm, c.PCM...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		quiet, run := 0, 0
		for _, on := range audio.Audible(pcm, api.SampleRate) {
			if on {
				run = 0
				continue
			}
			run++
			quiet = max(quiet, run)
		}
		got := quiet * api.SampleRate / audio.FrameRate
		want := ms * api.SampleRate / 1000
		t.Logf("break %d ms: the longest silence is %d samples (%d ms)", ms, got, quiet*10)
		if got < want-600 || got > want+600 {
			t.Errorf("break %d ms: the longest silence is %d samples, want %d ± 600", ms, got, want)
		}
	}
}

package tts

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// SoundLead is what the model does: where silence precedes a word, its sound rises above the
// silence floor that long before the first phoneme's duration frames. The first words of
// four listening sentences spoken whole by two voices (`go test -run TestRealSoundLead -v
// ./tts/`) put the median within 15 ms of it.
func TestRealSoundLead(t *testing.T) {
	t.Parallel()
	e, err := Load(context.Background(), LoadConfig{Assets: testenv.RealModel(t), Provider: "cpu", Slots: 1, Threads: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	al, ok := e.sched.syn.(Aligner)
	if !ok || !al.Aligns() {
		t.Fatal("the real model does not say where its ids lie")
	}
	b, err := os.ReadFile("../testdata/listen/sentences.txt")
	if err != nil {
		t.Fatal(err)
	}
	var leads []time.Duration
	for _, voice := range []string{"af_heart", "am_michael"} {
		for _, text := range strings.Split(strings.TrimSpace(string(b)), "\n")[:4] {
			chunks, err := e.ph.Chunks(text, chunk.Options{FirstChunkWholeSentence: true})
			if err != nil {
				t.Fatal(err)
			}
			c := chunks[0]
			how, err := e.CheckVoice(Request{Voice: voice})
			if err != nil {
				t.Fatal(err)
			}
			style := how.Voice.Pack.Row(len(c.IDs))
			pcm, spans, err := al.SynthesizeAligned(context.Background(), 0, c.IDs, style, 1)
			if err != nil {
				t.Fatal(err)
			}
			span, ok := listen.AudibleSpan(pcm, api.SampleRate)
			if !ok {
				t.Fatalf("%s: %q is silent", voice, text)
			}
			lead := time.Duration(spans[0]-span.Start) * time.Second / api.SampleRate // spans[0]: the pad before the first phoneme
			t.Logf("%s %q: sound %v before the first phoneme", voice, text, lead)
			leads = append(leads, lead)
		}
	}
	slices.Sort(leads)
	median := (leads[len(leads)/2-1] + leads[len(leads)/2]) / 2
	if d := median - SoundLead; d < -15*time.Millisecond || d > 15*time.Millisecond {
		t.Errorf("the sound leads the first phoneme by a median %v, SoundLead is %v", median, SoundLead)
	}
}

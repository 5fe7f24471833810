package server

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

// BenchmarkTimestampsCost is what asking for word timestamps costs the server and a client
// beside the model: the fake engine makes its audio at once, so the CPU time of a request is
// the transport's (JSON, base64, the words' placement) and the fake model's sine wave, the same
// with and without. cpu-ms/audio-s is the process's CPU time (user and system, client and
// server) per second of audio sent; with -count the modes alternate:
//
//	go test -run '^$' -bench BenchmarkTimestampsCost -count 6 ./server/
func BenchmarkTimestampsCost(b *testing.B) {
	h := newHarness(b, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 0 })
	h.waitReady()
	text := "Your delivery is running about twenty minutes behind schedule today. " +
		"I have moved your appointment to Thursday at half past two. " +
		"The pharmacy on Main Street can fill that prescription within the hour."
	audio := time.Duration(wantSamples(text)) * time.Second / api.SampleRate
	for _, mode := range []struct {
		name       string
		ws, stamps bool
	}{{"http", false, false}, {"http+timestamps", false, true}, {"ws", true, false}, {"ws+timestamps", true, true}} {
		b.Run(mode.name, func(b *testing.B) {
			var speak func(i int)
			if mode.ws {
				c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(h.url, "http")+api.RouteBidiStream, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				speak = func(i int) {
					m, _ := json.Marshal(api.WSClientMessage{Text: text, RequestID: fmt.Sprint("r", i), Timestamps: mode.stamps})
					if err := c.WriteMessage(websocket.TextMessage, m); err != nil {
						b.Fatal(err)
					}
					for {
						kind, data, err := c.ReadMessage()
						if err != nil {
							b.Fatal(err)
						}
						if kind == websocket.TextMessage && strings.Contains(string(data), api.WSTypeSynthesisComplete) {
							return
						}
					}
				}
			} else {
				cl := client(b)
				body := fmt.Sprintf(`{"text":%q,"timestamps":%v}`, text, mode.stamps)
				speak = func(int) {
					resp, err := cl.Post(h.url+api.RouteInvocations, "application/json", strings.NewReader(body))
					if err != nil {
						b.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
			cpu0 := cpuTime()
			i := 0
			for b.Loop() {
				speak(i)
				i++
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/(float64(i)*audio.Seconds()), "cpu-ms/audio-s")
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// pyWave reads a WAV file with Python's standard wave module, a reader that shares no code
// with ours, and reports its format and the SHA-256 of the frames it returns.
const pyWave = `
import hashlib, json, sys, wave
with wave.open(sys.argv[1], "rb") as w:
    frames = w.readframes(w.getnframes())
    print(json.dumps({"channels": w.getnchannels(), "width": w.getsampwidth(), "rate": w.getframerate(),
                      "comptype": w.getcomptype(), "nframes": w.getnframes(),
                      "frames": len(frames), "sha256": hashlib.sha256(frames).hexdigest()}))
`

// The WAV the server sends, whole or streamed, is what an independent reader (Python's wave
// module) takes for 24 kHz mono 16-bit PCM holding exactly the bytes after the header; a whole
// file also states its frame count.
func TestWAVReadByPythonWave(t *testing.T) {
	t.Parallel()
	python := filepath.Join(testenv.VenvBin(t, "python"), "python")
	h := newHarness(t)
	h.waitReady()
	text := "Python reads this. And this too."
	for _, stream := range []bool{false, true} {
		resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q,"stream":%v}`, text, stream))
		body := readAll(t, resp)
		if resp.StatusCode != http.StatusOK || len(body) <= 44 {
			t.Fatalf("stream=%v: status %d, %d bytes", stream, resp.StatusCode, len(body))
		}
		path := filepath.Join(t.TempDir(), "out.wav")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(python, "-c", pyWave, path).Output()
		if err != nil {
			t.Fatalf("stream=%v: python's wave module refused the file: %v\n%s", stream, err, errText(err))
		}
		var got struct {
			Channels, Width, Rate, Nframes, Frames int
			Comptype, Sha256                       string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		pcm := body[44:]
		sum := sha256.Sum256(pcm)
		if got.Channels != 1 || got.Width != 2 || got.Rate != api.SampleRate || got.Comptype != "NONE" ||
			got.Frames != len(pcm) || got.Sha256 != hex.EncodeToString(sum[:]) || len(pcm) != 2*wantSamples(text) {
			t.Errorf("stream=%v: python read %+v; want 1 channel, 2 bytes, %d Hz, no compression, the %d bytes after the header (%d expected)",
				stream, got, api.SampleRate, len(pcm), 2*wantSamples(text))
		}
		// A streamed file cannot know its length when its header leaves: it says 0xFFFFFFFF.
		if wantFrames := len(pcm) / 2; !stream && got.Nframes != wantFrames || stream && got.Nframes != 0xFFFFFFFF/2 {
			t.Errorf("stream=%v: python counts %d frames", stream, got.Nframes)
		}
	}
}

func errText(err error) string {
	if e, ok := err.(*exec.ExitError); ok {
		return string(e.Stderr)
	}
	return ""
}

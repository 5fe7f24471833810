package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestEveryFormatReadsWithSoundfileAndASecondDecoder: every format both synthesis routes send,
// streamed and complete, is read by Python's soundfile (libsndfile) and by a second decoder
// (the flac command line tool for FLAC, the Go decoders of codectest for the rest), and each
// holds the duration of the WAV of the same request. A streamed FLAC used to say "length
// unknown" in STREAMINFO, which libsndfile reads as 2^63-1 frames ("array is too big").
func TestEveryFormatReadsWithSoundfileAndASecondDecoder(t *testing.T) {
	t.Parallel()
	py := filepath.Join(testenv.VenvBin(t, "python"), "python")
	flacTool := testenv.LookPath(t, "flac")
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	const text = "The quick brown fox. It jumps over the lazy dog."
	dir := t.TempDir()

	fetch := func(route string, body map[string]any) []byte {
		t.Helper()
		b, _ := json.Marshal(body)
		resp := post(t, c, h.url+route, string(b))
		data := readAll(t, resp)
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", route, b, resp.StatusCode, data)
		}
		return data
	}
	// The reference: the complete WAV of the same text.
	ref := len(codectest.Decode(t, api.FormatWAV, fetch(api.RouteInvocations, map[string]any{"text": text, "stream": false})))

	type file struct {
		name, format string
		second       int // samples the second decoder found
	}
	var files []file
	for _, route := range []string{api.RouteInvocations, api.RouteOpenAISpeech} {
		for _, format := range []string{api.FormatWAV, api.FormatPCM, api.FormatFLAC, api.FormatMP3, api.FormatOpus} {
			for _, stream := range []bool{true, false} {
				body := map[string]any{"text": text, "format": format, "stream": stream}
				if route == api.RouteOpenAISpeech {
					body = map[string]any{"input": text, "response_format": format, "stream": stream}
				}
				data := fetch(route, body)
				name := fmt.Sprintf("%s-%s-%v.%s", strings.Trim(strings.ReplaceAll(route, "/", "_"), "_"), format, stream, format)
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
				n := 0
				if format == api.FormatFLAC {
					n = flacCLISamples(t, flacTool, filepath.Join(dir, name))
				} else {
					n = len(codectest.Decode(t, format, data))
				}
				files = append(files, file{name, format, n})
			}
		}
	}

	args := []string{filepath.Join(testenv.RepoRoot(t), "scripts", "test", "clients", "soundfile_read.py")}
	for _, f := range files {
		args = append(args, filepath.Join(dir, f.name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("soundfile: %v\n%s", err, out)
	}
	read := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || f[2] != strconv.Itoa(api.SampleRate) {
			t.Fatalf("soundfile line %q", l)
		}
		read[f[0]], _ = strconv.Atoi(f[1])
	}
	for _, f := range files {
		// Lossless formats hold exactly the WAV's samples; a lossy codec's decoder may add its
		// delay and padding (at most three MP3 frames and LAME's 2400-sample lag, two Opus
		// frames), never lose audio.
		slack := map[string]int{api.FormatMP3: 3*1152 + 2400, api.FormatOpus: 2 * 960}[f.format]
		for who, n := range map[string]int{"soundfile": read[f.name], "second decoder": f.second} {
			if n < ref-slack/2 || n > ref+slack {
				t.Errorf("%s: %s read %d samples, the WAV holds %d", f.name, who, n, ref)
			}
		}
	}
}

// flacCLISamples decodes a FLAC file with the reference decoder's command line tool and
// returns the number of samples it held.
func flacCLISamples(t *testing.T, tool, path string) int {
	t.Helper()
	out, err := exec.Command(tool, "--decode", "--silent", "--stdout", "--force-raw-format", "--endian=little", "--sign=signed", path).Output()
	if err != nil {
		t.Fatalf("flac %s: %v", path, err)
	}
	var s int16
	n := 0
	for r := bytes.NewReader(out); binary.Read(r, binary.LittleEndian, &s) == nil; n++ {
	}
	return n
}

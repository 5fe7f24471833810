package espeak

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process keeps one espeak-ng process running and feeds it a line at a time: espeak-ng
// answers each line of standard input as it arrives: 1.8 ms a word, where the one-shot
// fallback's two process starts took 90 ms (medians of 7 alternating rounds on a busy 2-core
// machine: testdata/claims/espeak_helper.txt, `scripts/measure/claims.sh espeak`). Each text goes out as
// one line ending in the marker word (see markerWord), followed by a line holding only the
// sentinel word, whose known phonemes mark where the text's answer ends (one line may come back
// as several).
type process struct {
	bin, voice string
	timeout    time.Duration // bound on one answer; 0 means espeakTimeout

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *os.File
	out      *bufio.Reader
	sentinel string // the sentinel's phonemes; "" until started
	marker   string // the marker word's phonemes at the end of a clause
	broken   bool   // failed to start; use one-shot processes from now on
}

// markerWord ends every text sent to espeak-ng, in the same clause. The reference calls the
// espeak-ng library (espeak_TextToPhonemes), which returns a clause's phonemes as translated;
// the command line synthesises the clause and, when it has no stressed syllable, stresses one
// ("St" → sˈənt where the library gives sənt). A stressed word after the text keeps the
// clause from being restressed, and its phonemes are cut off the answer again.
const markerWord = "zebra"

// sentinelWord, alone on a line, marks the end of an answer.
const sentinelWord = "kayak"

// errEspeakAnswer reports an answer that does not end with the marker's phonemes.
var errEspeakAnswer = errors.New("espeak-ng answer without the marker word")

// cutMarker removes the marker's phonemes from the end of an answer.
func cutMarker(answer, marker string) (string, error) {
	answer = strings.Join(strings.Fields(answer), " ")
	if answer == marker {
		return "", nil
	}
	if !strings.HasSuffix(answer, " "+marker) {
		return "", fmt.Errorf("%w: %q", errEspeakAnswer, answer)
	}
	return strings.TrimSuffix(answer, " "+marker), nil
}

// espeakTimeout bounds one answer; a stuck process is killed and restarted on next use.
const espeakTimeout = 5 * time.Second

var errEspeakProc = errors.New("espeak-ng process unavailable")

func (p *process) answerTimeout() time.Duration {
	if p == nil || p.timeout <= 0 {
		return espeakTimeout
	}
	return p.timeout
}

func (p *process) read(text string) (string, error) {
	out, err := p.readMany([]string{text})
	if err != nil {
		return "", err
	}
	return out[0], nil
}

// maxBatchBytes bounds the text written before the answers are read: espeak-ng writes its
// answers while it reads, and with neither side reading, two full pipes would deadlock. The
// answers to this much text fit in a pipe's buffer many times over.
const maxBatchBytes = 4096

// readMany answers several texts in one exchange: they are all written before any answer is
// read, so the process works through them without waiting for the caller between words.
func (p *process) readMany(texts []string) ([]string, error) {
	if p == nil {
		return nil, errEspeakProc
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken {
		return nil, errEspeakProc
	}
	if p.cmd == nil {
		if err := p.start(); err != nil {
			p.broken = true
			return nil, err
		}
	}
	out := make([]string, 0, len(texts))
	for len(out) < len(texts) {
		var b strings.Builder
		n := 0
		for _, t := range texts[len(out):] {
			if n > 0 && b.Len()+len(t) > maxBatchBytes {
				break
			}
			b.WriteString(t + " " + markerWord + "\n" + sentinelWord + "\n")
			n++
		}
		answers, err := p.ask(b.String(), n)
		if err != nil {
			p.stop()
			return nil, err
		}
		out = append(out, answers...)
	}
	return out, nil
}

func (p *process) start() error {
	// Plain pipes rather than cmd.StdinPipe/StdoutPipe: reads then take deadlines directly,
	// and no goroutine is left running between requests (tests of packages that use this one
	// check for leaked goroutines).
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	cmd := exec.Command(p.bin, "-q", "--ipa", "--tie=^", "-v", p.voice)
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return fmt.Errorf("start espeak-ng: %w", err)
	}
	p.cmd, p.stdin, p.stdout, p.out = cmd, inW, outR, bufio.NewReader(outR)
	// Learn the sentinel's and the marker's answers from the words alone.
	for _, w := range []struct {
		word string
		to   *string
	}{{sentinelWord, &p.sentinel}, {markerWord, &p.marker}} {
		if _, err := io.WriteString(inW, w.word+"\n"); err != nil {
			p.stop()
			return err
		}
		line, err := p.next()
		if err != nil || strings.TrimSpace(line) == "" {
			p.stop()
			return fmt.Errorf("espeak-ng %s: %w", w.word, errors.Join(err, errEspeakProc))
		}
		*w.to = strings.TrimSpace(line)
	}
	if p.sentinel == p.marker {
		p.stop()
		return fmt.Errorf("espeak-ng reads %q and %q alike: %w", sentinelWord, markerWord, errEspeakProc)
	}
	return nil
}

func (p *process) next() (string, error) {
	if err := p.stdout.SetReadDeadline(time.Now().Add(p.answerTimeout())); err != nil {
		return "", err
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("read espeak-ng: %w", errors.Join(err, errEspeakProc))
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// ask writes the prepared lines of n texts and reads their n answers.
func (p *process) ask(lines string, n int) ([]string, error) {
	if _, err := io.WriteString(p.stdin, lines); err != nil {
		return nil, err
	}
	out := make([]string, 0, n)
	var parts []string
	for len(out) < n {
		l, err := p.next()
		if err != nil {
			return nil, err
		}
		l = strings.TrimSpace(l)
		if l != p.sentinel {
			parts = append(parts, l)
			continue
		}
		ps, err := cutMarker(strings.Join(parts, " "), p.marker)
		if err != nil {
			return nil, err
		}
		out = append(out, ps)
		parts = parts[:0]
	}
	return out, nil
}

func (p *process) stop() {
	if p.cmd == nil {
		return
	}
	p.stdin.Close()
	p.stdout.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p.cmd, p.stdin, p.stdout, p.out = nil, nil, nil, nil
}

// close ends the process.
func (p *process) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
}

// readOnce starts espeak-ng for one text; the fallback when the long-lived process fails.
func (p *process) readOnce(text string) (string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), p.answerTimeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, "-q", "--ipa", "--tie=^", "-v", p.voice, "--", markerWord)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", false
	}
	marker := strings.TrimSpace(out.String())
	out.Reset()
	cmd = exec.CommandContext(ctx, p.bin, "-q", "--ipa", "--tie=^", "-v", p.voice, "--", text+" "+markerWord)
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return "", false
	}
	ps, err := cutMarker(out.String(), marker)
	return ps, err == nil
}

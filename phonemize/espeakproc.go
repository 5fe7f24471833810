package phonemize

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// espeakProc keeps one espeak-ng process running and feeds it a line at a time: espeak-ng
// answers each line of standard input as it arrives, which costs tens of microseconds instead
// of the milliseconds of starting a process per word. After each text a sentinel word is sent,
// whose known phonemes mark where the text's answer ends (one line of text may come back as
// several lines).
type espeakProc struct {
	bin, voice string

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *os.File
	out      *bufio.Reader
	sentinel string // the sentinel's phonemes; "" until started
	broken   bool   // failed to start; use one-shot processes from now on
}

const sentinelWord = "zebra"

// espeakTimeout bounds one answer; a stuck process is killed and restarted on next use.
const espeakTimeout = 5 * time.Second

var errEspeakProc = errors.New("espeak-ng process unavailable")

func (p *espeakProc) read(text string) (string, error) {
	if p == nil {
		return "", errEspeakProc
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.broken {
		return "", errEspeakProc
	}
	if p.cmd == nil {
		if err := p.start(); err != nil {
			p.broken = true
			return "", err
		}
	}
	out, err := p.ask(text)
	if err != nil {
		p.stop()
	}
	return out, err
}

func (p *espeakProc) start() error {
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
	// Learn the sentinel's answer from the sentinel alone.
	if _, err := io.WriteString(inW, sentinelWord+"\n"); err != nil {
		p.stop()
		return err
	}
	line, err := p.next()
	if err != nil || strings.TrimSpace(line) == "" {
		p.stop()
		return fmt.Errorf("espeak-ng sentinel: %w", errors.Join(err, errEspeakProc))
	}
	p.sentinel = strings.TrimSpace(line)
	return nil
}

func (p *espeakProc) next() (string, error) {
	if err := p.stdout.SetReadDeadline(time.Now().Add(espeakTimeout)); err != nil {
		return "", err
	}
	line, err := p.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("read espeak-ng: %w", errors.Join(err, errEspeakProc))
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (p *espeakProc) ask(text string) (string, error) {
	if _, err := io.WriteString(p.stdin, text+"\n"+sentinelWord+"\n"); err != nil {
		return "", err
	}
	var parts []string
	for {
		l, err := p.next()
		if err != nil {
			return "", err
		}
		l = strings.TrimSpace(l)
		if l == p.sentinel {
			return strings.Join(strings.Fields(strings.Join(parts, " ")), " "), nil
		}
		parts = append(parts, l)
	}
}

func (p *espeakProc) stop() {
	if p.cmd == nil {
		return
	}
	p.stdin.Close()
	p.stdout.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p.cmd, p.stdin, p.stdout, p.out = nil, nil, nil, nil
}

// Close ends the process.
func (p *espeakProc) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
}

package phonemize

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
	stdin    io.WriteCloser
	lines    chan string
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
	cmd := exec.Command(p.bin, "-q", "--ipa", "--tie=^", "-v", p.voice)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start espeak-ng: %w", err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	p.cmd, p.stdin, p.lines = cmd, stdin, lines
	// Learn the sentinel's answer from the sentinel alone.
	if _, err := io.WriteString(stdin, sentinelWord+"\n"); err != nil {
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
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", errEspeakProc
		}
		return l, nil
	case <-time.After(espeakTimeout):
		return "", fmt.Errorf("espeak-ng timed out: %w", errEspeakProc)
	}
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
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p.cmd, p.stdin, p.lines = nil, nil, nil
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

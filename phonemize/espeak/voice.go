package espeak

import "strings"

// Voice reads texts in one espeak-ng voice: through the library when it is loaded, else through
// a long-lived process, else a process per text. Its answers are espeak-ng's IPA with '^' ties,
// clauses joined by a space. It is safe for concurrent use.
type Voice struct {
	name string
	lib  bool
	proc *process
}

// Voice returns the reader of voice name ("en-us", "en-gb") on this install.
func (in Install) Voice(name string) *Voice {
	return &Voice{name: name, lib: in.Library, proc: &process{bin: in.Bin, voice: name}}
}

// Batches reports whether several texts are cheaper asked together (ReadMany) than one by one:
// true for the process, whose answers cost a round trip each; the library answers a word in
// tens of microseconds.
func (v *Voice) Batches() bool { return !v.lib }

// Answerable reports whether text may go to the long-lived process: a text holding the
// sentinel word could answer with the sentinel's own line, and a line break would cut it.
func Answerable(text string) bool {
	return !strings.Contains(strings.ToLower(text), sentinelWord) && !strings.ContainsAny(text, "\r\n")
}

// Read reads one text, its whitespace runs read as single spaces; false when espeak-ng gave
// no answer by any path.
func (v *Voice) Read(text string) (string, bool) {
	text = strings.Join(strings.Fields(text), " ")
	if v.lib {
		if ps, err := libPhonemes(v.name, text); err == nil {
			return ps, true
		}
	}
	if Answerable(text) {
		if ps, err := v.proc.read(text); err == nil {
			return ps, true
		}
	}
	return v.proc.readOnce(text)
}

// ReadMany reads several Answerable texts in one exchange, through the library when there is
// one.
func (v *Voice) ReadMany(texts []string) ([]string, error) {
	if !v.lib {
		return v.proc.readMany(texts)
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		ps, err := libPhonemes(v.name, t)
		if err != nil {
			return nil, err
		}
		out[i] = ps
	}
	return out, nil
}

// Close stops the voice's espeak-ng process, if one was started; a later read starts it again.
func (v *Voice) Close() { v.proc.close() }

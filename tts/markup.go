package tts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Mark is a speech mark of a chunk, as Amazon Polly reports them: a word, a sentence, an SSML
// <mark> or a viseme (Type, one of MarkTypes) at sample At of the chunk's PCM. A word's and a
// sentence's time is the start of its first word's sound, a <mark>'s the start of the first
// word after it (the end of the last word before it when none follows). Start and End are the
// bytes of the request's text it reads (a word, a sentence, the <mark> tag), and Value is
// those bytes (a <mark>'s name); a viseme has no bytes, its Value is the viseme.
type Mark struct {
	Type       string
	Value      string
	At         int
	Start, End int
}

// Streamer is what StreamMarkup drives: an engine's CheckText and Stream (*Engine has them).
type Streamer interface {
	CheckText(r Resolved, text string) (Resolved, error)
	Stream(ctx context.Context, r Resolved, emit func(Chunk) error) (Stats, error)
}

// maxSilenceChunk bounds the silence one chunk carries, so that a long pause streams as
// audio of a steady pace rather than as one large write.
const maxSilenceChunk = time.Second

// strengthPause is how long a pause an SSML break strength asks for: the model's own pause
// at a comma, a sentence end, a paragraph (JoinPause).
func strengthPause(p markup.Pause) time.Duration {
	switch p {
	case markup.PauseComma:
		return JoinPause(chunk.BreakComma)
	case markup.PauseSentence:
		return JoinPause(chunk.BreakSentence)
	case markup.PauseParagraph:
		return JoinPause(chunk.BreakParagraph)
	}
	return 0
}

// segmentOf is r speaking one segment: its language (the segment's xml:lang, else r's) and
// its speed (r's times the segment's rate, within [api.MinSpeed, api.MaxSpeed]); its text
// is the segment's, for the Streamer's CheckText. Both come resolved (the segment's language
// read by markup), so nothing here reads a voice spec or a language name.
func segmentOf(r Resolved, s markup.Segment) Resolved {
	speed := min(max(r.Speed*s.Style.Rate, api.MinSpeed), api.MaxSpeed)
	lang := r.Lang
	if s.Style.Lang != "" {
		lang = s.Style.Lang
	}
	return Resolved{ID: r.ID, Voice: r.Voice, Speed: speed, Lang: lang, Switches: r.Switches}
}

// CheckMarkup checks the text of every segment of r.Markup as the request that will speak it
// (CheckText in the segment's language) and empties the text of a segment with nothing
// speakable, keeping its pauses and marks; a segment in a language whose reader takes no
// part-of-speech overrides has its <w role>s read as written. r is resolved (Check).
func CheckMarkup(s Streamer, r Resolved) (Resolved, error) {
	segs := append([]markup.Segment(nil), r.Markup...)
	for i, seg := range segs {
		if !phonemize.ReadsOverrides(segmentOf(r, seg).Lang) {
			seg = seg.WithoutRoles()
			segs[i] = seg
		}
		if strings.TrimSpace(seg.Text) == "" {
			segs[i].Text = ""
			continue
		}
		if _, err := s.CheckText(segmentOf(r, seg), seg.Text); err != nil {
			if errors.Is(err, ErrEmptyText) {
				segs[i].Text = ""
				continue
			}
			return r, err
		}
	}
	r.Markup = segs
	return r, nil
}

// StreamMarkup speaks r, whose text is SSML read into segments (r.Markup), through s: each
// segment as r at the segment's rate, volume and language, its text checked by s.CheckText
// (segmentOf), and each pause as silence of its length between the speech around it. The
// silence counts the quiet a chunk keeps at its ends (EndTail after the speech before it,
// JoinLead before the speech after it), so the pause a listener hears is the break's length;
// a pause shorter than the two together is theirs. Chunks are numbered afresh and the last
// one is Final; a <mark> rides on the chunk whose audio reaches it. Without Markup it is
// s.Stream.
func StreamMarkup(ctx context.Context, s Streamer, r Resolved, emit func(Chunk) error) (Stats, error) {
	if r.Markup == nil {
		return s.Stream(ctx, r, emit)
	}
	segs := r.Markup
	start := time.Now()
	m := &markupStream{emit: emit, lastWord: markup.Span{Start: -1, End: -1}}
	// lastAudio is the last segment with speech or a pause; marks after it ride on its end.
	lastAudio := -1
	for i, seg := range segs {
		if seg.Text != "" || seg.Pause(strengthPause) > 0 {
			lastAudio = i
		}
	}
	m.sentences = markup.Sentences(segs)
	spoken := false // speech was sent: its EndTail ends the audio so far
	for i, seg := range segs {
		if seg.Text == "" {
			m.pending = append(m.pending, marksAt(seg.Marks, 0)...)
		} else {
			sr, err := s.CheckText(segmentOf(r, seg), seg.Text)
			if err != nil {
				m.st.Elapsed = time.Since(start)
				return m.st, err
			}
			sr.Resumes = r.Resumes && i == 0
			last := i == lastAudio && seg.Pause(strengthPause) == 0
			var tail []markup.MarkAt
			if last {
				tail = trailingMarks(segs[i+1:])
			}
			st, err := s.Stream(ctx, sr, m.segment(i, seg, last, tail))
			m.add(st)
			if err != nil {
				m.st.Elapsed = time.Since(start)
				return m.st, err
			}
			spoken = true
		}
		pause := seg.Pause(strengthPause)
		if pause == 0 {
			continue
		}
		if spoken {
			pause -= EndTail
		}
		if nextSpeaks(segs[i+1:]) {
			pause -= JoinLead
		}
		var tail []markup.MarkAt
		if i == lastAudio {
			tail = trailingMarks(segs[i+1:])
		}
		if err := m.silence(max(pause, 0), i == lastAudio, tail); err != nil {
			m.st.Elapsed = time.Since(start)
			return m.st, err
		}
		spoken = false
	}
	m.st.Elapsed = time.Since(start)
	return m.st, nil
}

// nextSpeaks reports whether the next segment with anything in it speaks, so that the
// JoinLead of its first chunk follows a pause.
func nextSpeaks(segs []markup.Segment) bool {
	for _, s := range segs {
		if s.Text != "" {
			return true
		}
		if s.Pause(strengthPause) > 0 {
			return false
		}
	}
	return false
}

// trailingMarks are the marks of the segments after the last audio.
func trailingMarks(segs []markup.Segment) []markup.MarkAt {
	var out []markup.MarkAt
	for _, s := range segs {
		out = append(out, s.Marks...)
	}
	return out
}

// marksAt are the speech marks of <mark>s, all at sample at.
func marksAt(ms []markup.MarkAt, at int) []Mark {
	out := make([]Mark, len(ms))
	for i, m := range ms {
		out[i] = Mark{Type: MarkSSML, Value: m.Name, At: at, Start: m.Src.Start, End: m.Src.End}
	}
	return out
}

// markupStream is one StreamMarkup call's state: the chunks sent, their stats, and marks
// waiting for the next chunk.
type markupStream struct {
	emit    func(Chunk) error
	index   int
	st      Stats
	started bool
	pending []Mark // placed at the start of the next chunk
	// sentences of the document; the first of them not yet reached.
	sentences []markup.Sentence
	sentence  int
	lastWord  markup.Span // the bytes of the last word mark, so a rendered span is marked once
}

// add sums one segment's stats into the stream's.
func (m *markupStream) add(st Stats) {
	if !m.started && st.Chunks > 0 {
		m.st.FirstChunkTime, m.st.TTFA, m.started = st.FirstChunkTime, st.TTFA, true
	}
	m.st.Chunks += st.Chunks
	m.st.AudioDuration += st.AudioDuration
	m.st.ModelTime += st.ModelTime
	if st.NextWord != "" {
		m.st.NextWord = st.NextWord
	}
}

// send numbers c and hands it on, with the marks waiting for it.
func (m *markupStream) send(c Chunk) error {
	c.Index = m.index
	m.index++
	if len(m.pending) > 0 {
		c.Marks = append(m.pending, c.Marks...)
		m.pending = nil
	}
	return m.emit(c)
}

// segment is the emit of segment i's Stream: its volume applied, its speech marks placed at
// its words, Final only on the stream's last chunk (last: no audio follows), which carries
// tail, the marks after all audio, at its end.
func (m *markupStream) segment(i int, seg markup.Segment, last bool, tail []markup.MarkAt) func(Chunk) error {
	gain := gainOf(seg.Style.VolumeDB)
	marks := seg.Marks
	cursor := 0
	return func(c Chunk) error {
		for _, w := range c.Words {
			text := strings.TrimSpace(w.Text)
			pos := cursor
			if k := strings.Index(seg.Text[cursor:], text); k >= 0 && text != "" {
				pos = cursor + k
				cursor = pos + len(text)
			}
			for len(marks) > 0 && marks[0].At <= pos {
				c.Marks = append(c.Marks, marksAt(marks[:1], w.Start)...)
				marks = marks[1:]
			}
			for m.sentence < len(m.sentences) {
				s := m.sentences[m.sentence]
				if s.Seg > i || s.Seg == i && s.At > pos {
					break
				}
				c.Marks = append(c.Marks, Mark{Type: MarkSentence, At: w.Start, Start: s.Src.Start, End: s.Src.End, Value: seg.Source[s.Src.Start:s.Src.End]})
				m.sentence++
			}
			if src := seg.SourceOf(pos, pos+len(text)); src.Start >= 0 && src.Start != m.lastWord.Start {
				c.Marks = append(c.Marks, Mark{Type: MarkWord, At: w.Start, Start: src.Start, End: src.End, Value: seg.Source[src.Start:src.End]})
				m.lastWord = src
			}
		}
		c.Marks = append(c.Marks, chunkVisemes(c)...)
		if c.Final {
			end := len(c.PCM)
			if n := len(c.Words); n > 0 {
				end = c.Words[n-1].End
			}
			c.Marks = append(c.Marks, marksAt(marks, end)...)
			marks = nil
			if last {
				c.Marks = append(c.Marks, marksAt(tail, end)...)
			}
		}
		c.Final = c.Final && last
		if gain != 1 {
			pcm := make([]float32, len(c.PCM))
			for i, v := range c.PCM {
				pcm[i] = float32(min(max(float64(v)*gain, -1), 1))
			}
			c.PCM = pcm
		}
		return m.send(c)
	}
}

// chunkVisemes are the viseme marks of a chunk's words: each of a word's sounds has its
// viseme where the model's durations start it (a run of the same viseme in a word kept once), and sil
// where a pause follows the word. A synthesizer that does not align gives no sounds: then each
// word's visemes are spread evenly over its sound, or, where the chunk's phonemes do not split
// into one run per word, over the sound of all its words.
func chunkVisemes(c Chunk) []Mark {
	if len(c.Words) == 0 {
		return nil
	}
	var out []Mark
	word := 0 // the first mark of the word being added
	add := func(v string, at int) {
		if n := len(out); n > word && out[n-1].Value == v {
			return
		}
		out = append(out, Mark{Type: MarkViseme, Value: v, At: at})
	}
	spread := func(vs []string, from, to int) {
		for k, v := range vs {
			add(v, from+k*(to-from)/len(vs))
		}
	}
	last := len(c.Words) - 1
	pause := func(k int) bool { return k == last || c.Words[k+1].Start > c.Words[k].End }
	if c.Words[0].Sounds != nil {
		for k, w := range c.Words {
			word = len(out)
			for _, s := range w.Sounds {
				if v, ok := visemeOf[s.Phoneme]; ok {
					add(v, s.Start)
				}
			}
			if pause(k) {
				add("sil", w.End)
			}
		}
		return out
	}
	if per, ok := wordPhonemes(c.Phonemes, len(c.Words)); ok {
		for k, w := range c.Words {
			word = len(out)
			spread(visemes(per[k]), w.Start, w.End)
			if pause(k) {
				add("sil", w.End)
			}
		}
		return out
	}
	if vs := visemes(c.Phonemes); len(vs) > 0 {
		spread(vs, c.Words[0].Start, c.Words[last].End)
		add("sil", c.Words[last].End)
	}
	return out
}

// silence sends d of silence in chunks of at most maxSilenceChunk; the last of them is
// Final when last, and carries tail at its end.
func (m *markupStream) silence(d time.Duration, last bool, tail []markup.MarkAt) error {
	n := samples(d)
	step := samples(maxSilenceChunk)
	for n > 0 || last {
		k := min(n, step)
		c := Chunk{PCM: make([]float32, k), Final: last && k == n}
		if c.Final {
			c.Marks = marksAt(tail, k)
		}
		if err := m.send(c); err != nil {
			return err
		}
		m.st.Chunks++
		m.st.AudioDuration += c.Duration()
		n -= k
		if c.Final {
			break
		}
	}
	return nil
}

// gainOf is the amplitude factor of a gain in dB; markup.Silent mutes.
func gainOf(db float64) float64 {
	if db <= markup.Silent {
		return 0
	}
	return math.Pow(10, db/20)
}

// String names a mark and where it lies, for logs and test failures.
func (m Mark) String() string { return fmt.Sprintf("%s %q@%d", m.Type, m.Value, m.At) }

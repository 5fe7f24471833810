package tts

import (
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/chunk"
)

// The model speaks every chunk as a whole utterance: about 0.3 s of silence before the speech
// and 0.5 s after it. Joined as they come, two chunks put 0.8 s of dead air where the text has
// a comma. Each chunk is therefore reframed as it leaves: JoinLead of silence kept before its
// speech and, after it, what the boundary it ends on calls for, so that a join sounds like the
// pause the same model makes at that punctuation when it speaks the sentence unsplit.
//
// The pauses are the upper quartiles of the silences (10 ms frames under −50 dBFS) the model
// leaves at each kind of boundary in the 20 sentences of testdata/listen/pauses.tsv, spoken
// unsplit by af_heart, am_michael, bf_emma and bm_george: 0.155 s at 64 commas (it pauses at
// 46 of them), 0.273 s at 28 colons and semicolons, 0.270 s at 28 sentence ends. The upper
// quartile rather than the median (0.05, 0.24, 0.19 s) because the next chunk starts a new
// phrase, its pitch reset, which a listener hears as a full break; a sentence end takes the
// clause's pause, so a stronger boundary never gets a shorter one. Between two words (a chunk
// cut inside a clause because it was full) the model leaves only stop closures, 0.04 s at the
// median. A paragraph gets the model's own pause between two utterances, its median tail plus
// lead: 0.525 + 0.29 s. Measured with
//
//	kokoro serve --port 18940 --first-chunk-ids 510 --max-chunk-ids 510 &
//	.venv-peers/bin/python scripts/measure/listen_bench.py pauses --url http://127.0.0.1:18940 --out out/pauses
const (
	// JoinLead is the silence kept before the first audible frame of every chunk, the first one
	// included: enough for the fade and a breath of onset, so the first audible sample leaves
	// with the first byte.
	JoinLead = 20 * time.Millisecond
	// EndTail is the silence kept after the last chunk of a request: the decay of the last
	// phoneme under the silence floor, faded.
	EndTail = 60 * time.Millisecond
	// joinFade ramps each cut edge, inside the kept silence, so that cutting the model's
	// low-level noise leaves no step to click.
	joinFade = 5 * time.Millisecond
)

// JoinPause is the silence between the speech of two chunks joined at boundary b.
func JoinPause(b chunk.Break) time.Duration {
	switch b {
	case chunk.BreakWord:
		return 40 * time.Millisecond
	case chunk.BreakComma:
		return 160 * time.Millisecond
	case chunk.BreakClause, chunk.BreakSentence:
		return 270 * time.Millisecond
	case chunk.BreakParagraph:
		return 820 * time.Millisecond
	}
	return JoinLead + EndTail
}

// reframe trims or pads one chunk's silence for the boundary it ends on. It needs nothing from
// the next chunk: the pause is split as JoinLead before that chunk's speech and the rest after
// this one's, so each chunk is streamed the moment it is synthesized. resumes gives the first
// chunk of a request that continues another (Request.Resumes) the rest of a sentence pause
// after that request's EndTail.
//
// A side cut out of running speech (cutContext: keepHead after a context cut before the chunk,
// keepTail before one after it) is kept as it is, so the two sides join without a pause.
// from is the sample of pcm the result starts at (audio.Reframe).
func reframe(pcm []float32, end chunk.Break, resumes, keepHead, keepTail bool) (out []float32, from int) {
	lead, tail := JoinLead, EndTail
	if resumes {
		lead = JoinPause(chunk.BreakSentence) - EndTail
	}
	if end != chunk.BreakEnd {
		tail = JoinPause(end) - JoinLead
	}
	l, t := samples(lead), samples(tail)
	if keepHead {
		l = audio.Keep
	}
	if keepTail {
		t = audio.Keep
	}
	return audio.Reframe(pcm, api.SampleRate, l, t, samples(joinFade))
}

// joinAfter is the boundary chunk i of chunks ends on: whatever the phonemizer says, the last
// chunk ends the request.
func joinAfter(chunks []chunk.Chunk, i int) chunk.Break {
	if i == len(chunks)-1 {
		return chunk.BreakEnd
	}
	return chunks[i].Break
}

// contextWindow is the window in which cutContext looks for the quietest point of a space.
const contextWindow = 2500 * time.Microsecond

// cutContext keeps the audio of a chunk run with context: spans are the samples of each padded
// id (a pad, before context ids, the chunk's own, after context ids, a pad). A side with
// context is cut inside the space that ends or starts it, at its quietest point, and faded
// over a window there; the listener hears the chunk's own words, spoken mid-sentence. from is
// the sample of pcm the result starts at.
func cutContext(pcm []float32, spans []int, before, after int) (out []float32, from int) {
	starts := make([]int, len(spans)+1)
	for i, n := range spans {
		starts[i+1] = starts[i] + n
	}
	to := len(pcm)
	win := samples(contextWindow)
	if before > 0 && before < len(spans) {
		from = audio.QuietestCut(pcm, starts[before], starts[before+1], win)
	}
	if sp := len(spans) - 1 - after; after > 0 && sp > 0 {
		to = max(from, audio.QuietestCut(pcm, starts[sp], starts[sp+1], win))
	}
	out = append([]float32(nil), pcm[from:to]...)
	if before > 0 {
		audio.FadeIn(out, win)
	}
	if after > 0 {
		audio.FadeOut(out, win)
	}
	return out, from
}

func samples(d time.Duration) int { return int(d * api.SampleRate / time.Second) }

package api

// SpeechMark is one speech mark, as Amazon Polly returns them: Type is "sentence", "word",
// "viseme" or "ssml"; Time is where the audio reaches it, in milliseconds from the
// utterance's first sample; Start and End are the bytes of the request's text it reads (a
// sentence, a word, an SSML <mark> tag), absent for a viseme; Value is those bytes, a
// <mark>'s name, or the viseme.
type SpeechMark struct {
	Time  int    `json:"time"`
	Type  string `json:"type"`
	Start *int   `json:"start,omitempty"`
	End   *int   `json:"end,omitempty"`
	Value string `json:"value"`
}

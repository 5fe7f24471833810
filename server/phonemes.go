package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// labelFromPhonemes is the metrics and log label of POST /dev/generate_from_phonemes.
const labelFromPhonemes = "generate_from_phonemes"

// phonemizer is an engine that can say how it reads a text (*tts.Engine is one): it checks
// the lang, then the text's length and that it is not blank, as a request's are checked.
type phonemizer interface {
	Phonemes(text, lang string) (string, []int64, error)
}

// isPhonemes reports whether a request's text is phonemes (input_type), which SSML cannot be.
func isPhonemes(f fields, ssml bool) (bool, error) {
	switch strings.ToLower(f.InputType) {
	case "", api.InputTypeText:
		return false, nil
	case api.InputTypePhonemes:
		if ssml && f.TextType != "" {
			return false, fmt.Errorf("%w: input_type phonemes is not SSML; drop text_type", errBadInputType)
		}
		return true, nil
	}
	return false, fmt.Errorf("%w: %s; supported: %s, %s", errBadInputType, clip(f.InputType), api.InputTypeText, api.InputTypePhonemes)
}

// checkPhonemes reads text as Kokoro's phonemes into the segments the engine speaks as how
// resolved.
func checkPhonemes(eng Engine, how tts.Resolved, text string) (tts.Resolved, error) {
	doc, err := markup.FromPhonemes(text)
	if err != nil {
		return how, err
	}
	r, err := eng.CheckText(how, text)
	if err != nil {
		return r, err
	}
	r.Markup = doc.Segments()
	return tts.CheckMarkup(eng, r)
}

// parseFromPhonemes decodes POST /dev/generate_from_phonemes: Kokoro-FastAPI's request,
// answered as it answers it, with a streamed WAV.
func parseFromPhonemes(b []byte, lim limits) (*synthesis, error) {
	var in api.GenerateFromPhonemesRequest
	if err := decodeStrict(b, &in, lim.unknownOK); err != nil {
		return nil, err
	}
	s := &synthesis{route: labelFromPhonemes, stream: true}
	var err error
	if s.format, err = lookupFormat(api.FormatWAV, api.FormatWAV); err != nil {
		return nil, err
	}
	if s.rate, err = checkRate(in.SampleRate, s.format); err != nil {
		return nil, err
	}
	s.fields = fields{Text: in.Phonemes, Voice: in.Voice, InputType: api.InputTypePhonemes}
	return s, nil
}

// handlePhonemize answers POST /dev/phonemize as Kokoro-FastAPI does: the phonemes the
// engine reads a text into, and their ids.
func (s *Server) handlePhonemize(w http.ResponseWriter, r *http.Request) {
	eng := s.engineFor(w, r, http.MethodPost)
	if eng == nil {
		return
	}
	fail := func(err error) { writeError(w, r, classify(err), s.retryAfter()) }
	body, err := readBody(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes), s.cfg.MaxBodyBytes)
	if err != nil {
		fail(err)
		return
	}
	var in api.PhonemeRequest
	if err := decodeStrict(body, &in, s.cfg.AllowUnknownFields); err != nil {
		fail(err)
		return
	}
	p, ok := eng.(phonemizer)
	if !ok {
		fail(fmt.Errorf("%w: this engine does not phonemize", errNotReady))
		return
	}
	lang := in.Language
	if lang == "" {
		lang = "a"
	}
	ps, ids, err := p.Phonemes(in.Text, lang)
	if err != nil {
		fail(err)
		return
	}
	writeJSON(w, http.StatusOK, api.PhonemeResponse{Phonemes: ps, Tokens: ids})
}

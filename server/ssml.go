package server

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// isSSML reports whether a request's text is SSML: its text_type says so, or, with none, the
// text starts with <speak>.
func isSSML(f fields) (bool, error) {
	switch strings.ToLower(f.TextType) {
	case "":
		return markup.IsSSML(f.Text), nil
	case api.TextTypeText:
		return false, nil
	case api.TextTypeSSML:
		return true, nil
	}
	return false, fmt.Errorf("%w: %s; supported: %s, %s", errBadTextType, clip(f.TextType), api.TextTypeText, api.TextTypeSSML)
}

// checkMarkup reads req's text as SSML into the segments the engine speaks, and checks the
// words they speak as a text (its limits, something to say) and each segment as its own
// request (its language). Every refusal is a client error decided before any model work.
func checkMarkup(eng Engine, req tts.Request) (tts.Request, error) {
	doc, err := markup.Parse(req.Text)
	if err != nil {
		return req, err
	}
	segs := doc.Segments()
	words := make([]string, 0, len(segs))
	for _, s := range segs {
		words = append(words, s.Text)
	}
	req.Text = strings.Join(words, " ")
	if req, err = eng.Check(req); err != nil {
		return req, err
	}
	req.Markup = segs
	return tts.CheckMarkup(eng, req)
}

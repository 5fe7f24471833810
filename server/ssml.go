package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/phonemize"
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

// checkMarkup reads text as SSML, with lxs and norm, into the segments the engine speaks as
// how resolved, and checks the words they speak as a text (its limits, something to say) and
// each segment's as its own (in its language). Every refusal is a client error decided before
// any model work.
func checkMarkup(eng Engine, how tts.Resolved, text string, lxs []*markup.Lexicon, norm markup.Normalization) (tts.Resolved, error) {
	doc, err := markup.Parse(text)
	if err != nil {
		return how, err
	}
	doc.ApplyLexicons(lxs)
	doc.Normalize(norm)
	segs := doc.Segments()
	words := make([]string, 0, len(segs))
	for _, s := range segs {
		words = append(words, s.Text)
	}
	r, err := eng.CheckText(how, strings.Join(words, " "))
	if err != nil {
		return r, err
	}
	r.Markup = segs
	return tts.CheckMarkup(eng, r)
}

// lexiconsOf are the lexicons a request names, in its order.
func lexiconsOf(names []string, have map[string]*markup.Lexicon) ([]*markup.Lexicon, error) {
	var out []*markup.Lexicon
	for _, n := range names {
		lx, ok := have[n]
		if !ok {
			return nil, fmt.Errorf("%w: %s; loaded: %s", errUnknownLexicon, clip(n), strings.Join(lexiconNames(have), ", "))
		}
		out = append(out, lx)
	}
	return out, nil
}

// lexiconNames lists the loaded lexicons' names, sorted.
func lexiconNames(have map[string]*markup.Lexicon) []string {
	names := make([]string, 0, len(have))
	for n := range have {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// switchesOf turns a request's normalization switches into the English reader's: telephone
// numbers, units and lone symbols are rewritten unless the request turns them (or all
// normalization) off.
func switchesOf(o *api.NormalizationOptions) phonemize.Switches {
	if o == nil {
		return phonemize.Switches{}
	}
	off := func(v *bool) bool { return v != nil && !*v }
	all := off(o.Normalize)
	return phonemize.Switches{
		PhonesOff:  all || off(o.PhoneNormalization),
		UnitsOff:   all || off(o.UnitNormalization),
		SymbolsOff: all || off(o.ReplaceRemainingSymbols),
	}
}

// normalizationOf turns a request's normalization switches into the markup's: the defaults,
// less what the request turns off.
func normalizationOf(o *api.NormalizationOptions) markup.Normalization {
	n := markup.DefaultNormalization
	if o == nil {
		return n
	}
	off := func(v *bool) bool { return v != nil && !*v }
	if off(o.Normalize) {
		return markup.Normalization{}
	}
	n.URLs = n.URLs && !off(o.URLNormalization)
	n.Emails = n.Emails && !off(o.EmailNormalization)
	return n
}

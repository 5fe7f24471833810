package markup

import (
	"fmt"
	"strings"
)

// renderTextOnly reads a say-as, sub or phoneme element whose content is f.buf (raw is its
// bytes as written) into one text item.
func renderTextOnly(f *frame, raw string) (Item, error) {
	attrs, err := attributes(f.name, f.start.Attr)
	if err != nil {
		return Item{}, err
	}
	content := strings.Join(strings.Fields(f.buf.String()), " ")
	it := Item{Kind: KindText}
	switch f.name {
	case "sub":
		alias := strings.Join(strings.Fields(attrs["alias"]), " ")
		if alias == "" {
			return it, fmt.Errorf("<sub alias> is empty: the alias is what is spoken")
		}
		it.Text = alias
	case "phoneme":
		if content == "" {
			return it, fmt.Errorf("<phoneme> is empty: it holds the word its ph pronounces")
		}
		ps, err := phonemesOf(attrs["ph"], attrs["alphabet"])
		if err != nil {
			return it, err
		}
		it.Text, it.Phonemes, it.Exact = content, ps, content == raw
	case "say-as":
		if content == "" {
			return it, fmt.Errorf("<say-as> is empty: it holds the text it interprets")
		}
		words, err := sayAs(attrs["interpret-as"], attrs["format"], content)
		if err != nil {
			return it, fmt.Errorf("<say-as interpret-as=%q>: %w", attrs["interpret-as"], err)
		}
		it.Text = words
	}
	return it, nil
}

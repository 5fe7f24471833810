package workflow

import (
	"fmt"
	"io"
	"strings"

	"github.com/kokoro-sm/kokoro/model"
)

// Voices is `kokoro voices`: the voice packs installed in Dir, listed by language.
type Voices struct{ Dir string }

// Run prints one line per language, its voices in the order the directory lists them.
func (f Voices) Run(out io.Writer) error {
	v, err := model.LoadVoices(f.Dir)
	if err != nil {
		return err
	}
	byLang := map[string][]string{}
	var order []string
	for _, n := range v.Names() {
		k := voiceLanguage(n)
		if _, ok := byLang[k]; !ok {
			order = append(order, k)
		}
		byLang[k] = append(byLang[k], n)
	}
	for _, k := range order {
		fmt.Fprintf(out, "%-22s %s\n", k+":", strings.Join(byLang[k], " "))
	}
	return nil
}

// voiceLanguage reads the language from a Kokoro voice name's first letter.
func voiceLanguage(name string) string {
	if name == "" {
		return "other"
	}
	switch name[0] {
	case 'a':
		return "American English"
	case 'b':
		return "British English"
	case 'e':
		return "Spanish"
	case 'f':
		return "French"
	case 'h':
		return "Hindi"
	case 'i':
		return "Italian"
	case 'j':
		return "Japanese"
	case 'p':
		return "Brazilian Portuguese"
	case 'z':
		return "Mandarin Chinese"
	}
	return "other"
}

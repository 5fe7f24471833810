package markup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostile refuses every document of testdata/hostile with ErrSSML and a message that
// names the problem, however large or deep the document.
func TestHostile(t *testing.T) {
	files, err := filepath.Glob("testdata/hostile/*.ssml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile corpus: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Parse(string(b))
		if !errors.Is(err, ErrSSML) {
			t.Errorf("%s: %v, want ErrSSML", f, err)
			continue
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: a message of %d bytes: %.100s…", f, len(err.Error()), err)
		}
		t.Logf("%s: %v", filepath.Base(f), err)
	}
}

// TestHostileGenerated refuses documents too large to keep in testdata: a body over the
// limit, and a deep nest the parser must stop at its limit rather than follow.
func TestHostileGenerated(t *testing.T) {
	for name, doc := range map[string]string{
		"oversized":       "<speak>" + strings.Repeat("a ", MaxBytes/2) + "</speak>",
		"deep":            "<speak>" + strings.Repeat("<emphasis>", 100000) + "x",
		"many-elements":   "<speak>" + strings.Repeat("<s>x</s>", MaxElements) + "</speak>",
		"many-attrs":      "<speak><break" + strings.Repeat(` time="1s"`, 1000) + "/></speak>",
		"invalid-utf8":    "<speak>\xff\xfe</speak>",
		"many-entities":   "<speak>" + strings.Repeat("&amp;", 100000) + "</speak>" + "<x>",
		"breaks-too-long": "<speak>" + strings.Repeat(`<break time="10s"/>`, 2) + `<break time="10001ms"/></speak>`,
	} {
		if _, err := Parse(doc); !errors.Is(err, ErrSSML) {
			t.Errorf("%s: %v, want ErrSSML", name, err)
		}
	}
}

// TestErrorsNameTheValid checks that a refusal lists what would have been accepted.
func TestErrorsNameTheValid(t *testing.T) {
	for doc, want := range map[string][]string{
		`<speak><audio/></speak>`:                                          {"<audio>", "say-as", "prosody"},
		`<speak><break strength="huge"/></speak>`:                          {"huge", "x-strong"},
		`<speak><prosody pitch="high">x</prosody></speak>`:                 {"pitch", "rate, volume"},
		`<speak><say-as interpret-as="expletive">x</say-as></speak>`:       {"expletive", "telephone"},
		`<speak><phoneme alphabet="arpabet" ph="x">y</phoneme></speak>`:    {"arpabet", "ipa, x-sampa"},
		`<speak><w role="verb">x</w></speak>`:                              {"verb", "amazon:VBD"},
		`<speak><lang xml:lang="xx">x</lang></speak>`:                      {"xx", "en-us"},
		`<speak><prosody volume="11">x</prosody></speak>`:                  {"11", "x-loud"},
		`<speak><emphasis level="max">x</emphasis></speak>`:                {"max", "reduced"},
		`<speak><say-as interpret-as="date" format="q">1</say-as></speak>`: {"q", "yyyymmdd"},
	} {
		_, err := Parse(doc)
		if err == nil {
			t.Errorf("%s: no error", doc)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not name %q", doc, err, w)
			}
		}
	}
}

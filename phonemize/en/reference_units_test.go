package en

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// referenceUnits holds the reference's outputs for the building blocks (written by
// scripts/reference/gen_phoneme_corpus.py --units): sub-token splits and num2words readings.
type referenceUnits struct {
	Subtokenize map[string][]string `json:"subtokenize"`
	Cardinal    map[string]string   `json:"cardinal"`
	Ordinal     map[string]string   `json:"ordinal"`
	Year        map[string]string   `json:"year"`
	Float       map[string]string   `json:"float"`
}

func loadReferenceUnits(t *testing.T) referenceUnits {
	t.Helper()
	raw, err := os.ReadFile("testdata/reference_units.json")
	if err != nil {
		t.Fatal(err)
	}
	var u referenceUnits
	if err := json.Unmarshal(raw, &u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSubtokenizeMatchesReference(t *testing.T) {
	t.Parallel()
	for word, want := range loadReferenceUnits(t).Subtokenize {
		if got := subtokenize(word); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("subtokenize(%q) = %q, reference %q", word, got, want)
		}
	}
}

func TestNumberWordsMatchReference(t *testing.T) {
	t.Parallel()
	u := loadReferenceUnits(t)
	check := func(kind string, got func(string) string, want map[string]string) {
		bad := 0
		for in, w := range want {
			if g := got(in); g != w {
				if bad++; bad <= 10 {
					t.Errorf("%s(%s) = %q, reference %q", kind, in, g, w)
				}
			}
		}
		if bad > 10 {
			t.Errorf("%s: %d of %d differ", kind, bad, len(want))
		}
	}
	check("cardinal", cardinalWords, u.Cardinal)
	check("ordinal", ordinalWords, u.Ordinal)
	check("year", yearWords, u.Year)
	check("float", floatWords, u.Float)
	if len(u.Cardinal) < 2000 || !strings.Contains(u.Cardinal["1234"], "thousand") {
		t.Fatalf("reference units look incomplete")
	}
}

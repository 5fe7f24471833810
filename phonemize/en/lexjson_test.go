package en

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseDictMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	docs := []string{
		`{}`,
		`{"a": "ˈA", "read": {"DEFAULT": "ɹˈid", "VBD": "ɹˈɛd", "NOUN": null}}`,
		"{\n  \"x\" : \"y\" ,\n\t\"z\":{\"DEFAULT\":\"q\"}\n}\n",
	}
	for _, doc := range docs {
		fast, err := parseDict(doc)
		if err != nil {
			t.Fatalf("parseDict(%q): %v", doc, err)
		}
		slow, err := decodeDict([]byte(doc))
		if err != nil {
			t.Fatalf("decodeDict(%q): %v", doc, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("parseDict(%q) = %v, encoding/json gives %v", doc, fast, slow)
		}
	}
	for _, doc := range []string{`{"a\u0041": "b"}`, `{"a": 1}`, `{"a": "b"`, `["a"]`, `{"a": {"NOUN": "x"}}`} {
		if _, err := parseDict(doc); err == nil {
			t.Errorf("parseDict(%q) accepted it", doc)
		} else if !errors.Is(err, errUnusualJSON) && doc != `{"a": {"NOUN": "x"}}` {
			t.Errorf("parseDict(%q) error %v should wrap errUnusualJSON", doc, err)
		}
	}
}

// Whatever the fast lexicon reader accepts, encoding/json reads the same way.
func FuzzParseDict(f *testing.F) {
	f.Add(`{"a": "ˈA", "read": {"DEFAULT": "ɹˈid", "VBD": "ɹˈɛd", "NOUN": null}}`)
	f.Add(`{"x":"y","x":"z"}`)
	f.Add(`{"a": {"NOUN": "x"}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		fast, err := parseDict(doc)
		if err != nil {
			return
		}
		slow, err := decodeDict([]byte(doc))
		if err != nil {
			t.Fatalf("parseDict accepted %q, encoding/json says %v", doc, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("parseDict(%q) = %v, encoding/json gives %v", doc, fast, slow)
		}
	})
}

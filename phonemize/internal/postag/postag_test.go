package postag

import (
	"bytes"
	"errors"
	"testing"
)

// toySentences are a small grammar in which the tag of "can" and "saw" depends on their
// neighbours, so a model that ignores context cannot tag them all.
func toySentences() []Sentence {
	var out []Sentence
	add := func(words, tags string) {
		out = append(out, Sentence{Words: fields(words), Tags: fields(tags)})
	}
	for range 30 {
		add("I can swim .", "PRP MD VB .")
		add("the can is red .", "DT NN VBZ JJ .")
		add("we saw the saw .", "PRP VBD DT NN .")
		add("a saw can cut .", "DT NN MD VB .")
		add("I saw a can .", "PRP VBD DT NN .")
	}
	return out
}

func fields(s string) []string {
	var out []string
	for _, f := range bytes.Fields([]byte(s)) {
		out = append(out, string(f))
	}
	return out
}

func TestTrainLearnsContext(t *testing.T) {
	t.Parallel()
	m := Train(toySentences(), TrainConfig{Epochs: 5, MinWeight: 0.01, DictMinFreq: 1000})
	for _, c := range []struct{ words, want string }{
		{"we can swim .", "PRP MD VB ."},
		{"the can is red .", "DT NN VBZ JJ ."},
		{"we saw a can .", "PRP VBD DT NN ."},
	} {
		got := m.Tag(fields(c.words))
		if want := fields(c.want); !equal(got, want) {
			t.Errorf("Tag(%q) = %v, want %v", c.words, got, want)
		}
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	t.Parallel()
	m := Train(toySentences(), TrainConfig{Epochs: 3, MinWeight: 0.01})
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range toySentences()[:5] {
		if a, b := m.Tag(s.Words), m2.Tag(s.Words); !equal(a, b) {
			t.Errorf("loaded model tags %v as %v, saved one as %v", s.Words, b, a)
		}
	}
	if _, err := Load(buf.Bytes()[:buf.Len()/2]); !errors.Is(err, ErrBadModel) {
		t.Errorf("truncated model: error %v, want ErrBadModel", err)
	}
}

func TestTagEmpty(t *testing.T) {
	t.Parallel()
	m := Train(toySentences(), TrainConfig{})
	if got := m.Tag(nil); len(got) != 0 {
		t.Errorf("Tag(nil) = %v", got)
	}
}

// TestTagOnlyDictionaryWords: a sentence whose every word the tag dictionary decides leaves
// nothing to score, with fresh working memory each time.
func TestTagOnlyDictionaryWords(t *testing.T) {
	t.Parallel()
	m := Train(toySentences(), TrainConfig{Epochs: 2, DictMinFreq: 1})
	if len(m.tagDict) == 0 {
		t.Fatal("the toy model has an empty tag dictionary")
	}
	var words []string
	for w := range m.tagDict {
		words = append(words, w)
	}
	for range 3 {
		if got := m.tag(words, new(scratch)); len(got) != len(words) {
			t.Fatalf("Tag(%v) = %v", words, got)
		}
	}
}

// FuzzLoad: any bytes either load or fail with ErrBadModel, never panic.
func FuzzLoad(f *testing.F) {
	var buf bytes.Buffer
	if err := Train(toySentences(), TrainConfig{Epochs: 1}).Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte{})
	f.Add([]byte("KPT1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(data)
		if err != nil {
			if !errors.Is(err, ErrBadModel) {
				t.Fatalf("error %v does not wrap ErrBadModel", err)
			}
			return
		}
		m.Tag([]string{"a", "B", "."})
	})
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTagAsTheFeatureStringsSay: tagging, which never builds a feature's string, gives the
// tags that summing the weights of each feature's string gives, also on words holding the
// parts' separator "|" or a template's name, and on a line in capitals.
func TestTagAsTheFeatureStringsSay(t *testing.T) {
	t.Parallel()
	sents := toySentences()
	for range 10 {
		sents = append(sents,
			Sentence{Words: fields("a|b saw c|d |"), Tags: fields("NN VBD NN SYM")},
			Sentence{Words: fields("a saw b|c| caps|t1= w=x"), Tags: fields("DT VBD NN NN NN")},
			Sentence{Words: fields("I SAW THE CAN ."), Tags: fields("PRP VBD DT NN .")},
		)
	}
	m := Train(sents, TrainConfig{Epochs: 4, MinWeight: 0.01, DictMinFreq: 1000})
	scale := quantScale(m.feats)
	byString := func(words []string) []string {
		var sp sentParts[string]
		sp.fill(newContext(words), func(s string) string { return s })
		var out []string
		prev, prev2 := startPad, startPad+"2"
		for i := range words {
			scores := make([]int32, len(m.tags))
			for _, f := range features(&sp, nil, i, prev, prev2) {
				for _, w := range m.feats[f] {
					scores[w.tag] += int32(quantize(w.w, scale))
				}
			}
			best := 0
			for t, s := range scores {
				if s > scores[best] {
					best = t
				}
			}
			out = append(out, m.tags[best])
			prev2, prev = prev, m.tags[best]
		}
		return out
	}
	for _, s := range []string{"a|b saw c|d |", "a saw b|c| caps|t1= w=x", "c|d a|b | saw", "I SAW THE CAN .", "we saw a|b .", "| | |", "w=x caps|t1="} {
		words := fields(s)
		if got, want := m.Tag(words), byString(words); !equal(got, want) {
			t.Errorf("Tag(%q) = %v, the feature strings give %v", s, got, want)
		}
	}
}

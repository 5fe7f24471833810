package bench

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDefaultTextsLookLikeTheReferenceWorkload(t *testing.T) {
	t.Parallel()
	texts := DefaultTexts()
	total := 0
	for _, s := range texts {
		total += utf8.RuneCountInString(s)
	}
	if mean := float64(total) / float64(len(texts)); mean < 20 || mean > 30 {
		t.Errorf("mean length %.1f characters; want about 25", mean)
	}
	if len(texts) < 20 {
		t.Errorf("only %d texts", len(texts))
	}
}

func TestLoadTexts(t *testing.T) {
	t.Parallel()
	got, err := LoadTexts(strings.NewReader("# utterances\nHello there.\n\n  Second line  \n"))
	if err != nil || !slices.Equal(got, []string{"Hello there.", "Second line"}) {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := LoadTexts(strings.NewReader("\n# only a comment\n")); err == nil {
		t.Error("an empty pool was accepted")
	}
}

func TestTextPickerIsSeededAndCoversThePool(t *testing.T) {
	t.Parallel()
	pool := []string{"a", "b", "c", "d", "e"}
	draw := func(seed uint64, run int) []string {
		p := newTextPicker(pool, seed, run)
		var out []string
		for range 10 {
			out = append(out, p.Next())
		}
		return out
	}
	a, b := draw(1, 1), draw(1, 1)
	if !slices.Equal(a, b) {
		t.Errorf("same seed gave %v and %v", a, b)
	}
	first := slices.Clone(a[:5])
	slices.Sort(first)
	if !slices.Equal(first, pool) {
		t.Errorf("a pass did not cover the pool once: %v", a[:5])
	}
	if slices.Equal(draw(1, 1), draw(2, 1)) && slices.Equal(draw(1, 1), draw(1, 2)) {
		t.Error("seed and run do not change the order")
	}
}

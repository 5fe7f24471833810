package tts

import (
	"fmt"
	"slices"
	"testing"
)

// TestVisemesFollowTheSounds: with the model's sound starts, each viseme is where its sound
// starts, a run of one viseme inside a word is kept once, a word's repeated shape after
// another word is not merged into it, and a pause after a word is sil at its end.
func TestVisemesFollowTheSounds(t *testing.T) {
	t.Parallel()
	c := Chunk{Words: []Word{
		{Text: "map", Start: 0, End: 300, Sounds: []Sound{{'m', 0}, {'æ', 100}, {'p', 200}}},
		{Text: "pin", Start: 300, End: 600, Sounds: []Sound{{'p', 300}, {'ɪ', 400}, {'n', 500}}},
		{Text: "bat", Start: 700, End: 900, Sounds: []Sound{{'b', 700}, {'m', 750}, {'æ', 800}, {'ˈ', 820}, {'t', 850}}},
	}}
	var got []string
	for _, m := range chunkVisemes(c) {
		got = append(got, fmt.Sprintf("%s@%d", m.Value, m.At))
	}
	want := []string{"p@0", "a@100", "p@200", "p@300", "i@400", "t@500", "sil@600", "p@700", "a@800", "t@850", "sil@900"}
	if !slices.Equal(got, want) {
		t.Errorf("visemes\n got %v\nwant %v", got, want)
	}
}

package phonemize

import "strings"

func lowerRune(r rune) string { return strings.ToLower(string(r)) }

package workflow

import (
	"os"
	"strings"
	"testing"
)

const (
	readmeTableStart = "<!-- configuration table: generated from workflow/settings.go -->\n"
	readmeTableEnd   = "<!-- end of the configuration table -->"
)

// The README's configuration table is the one in settings.go: a setting added, renamed or given a
// new default there fails this test until the README says so too.
func TestREADMEConfigurationTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, readmeTableStart), strings.Index(readme, readmeTableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no configuration table between %q and %q", readmeTableStart, readmeTableEnd)
	}
	want := MarkdownTable(ServeSettings(), EngineSettings())
	if got := readme[i+len(readmeTableStart) : j]; got != want {
		t.Errorf("README.md's configuration table differs from settings.go; it should read:\n%s", want)
	}
}

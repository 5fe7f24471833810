package corpus

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Row is one sentence of a reference file and the reference's phonemes for it.
type Row struct{ Text, Want string }

// Load reads a reference file of testdata/lang (scripts/reference/gen_lang_reference.py): a header line
// naming the reference, then text<TAB>phonemes rows. It returns the header's text.
func Load(t testing.TB, path string) (header string, rows []Row) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := filepath.Base(path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			header = strings.TrimSpace(strings.TrimPrefix(line, "#"))
			continue
		}
		text, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", name, line)
		}
		rows = append(rows, Row{text, want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return header, rows
}

package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every error code a client may receive is in the error table of docs/server.md.
func TestDocsListEveryErrorCode(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/server.md")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		vs, ok := node.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Err") {
			return true
		}
		lit, ok := vs.Values[0].(*ast.BasicLit)
		if !ok {
			return true
		}
		code, _ := strconv.Unquote(lit.Value)
		n++
		if !strings.Contains(string(doc), "`"+code+"`") {
			t.Errorf("%s (%q) is missing from docs/server.md", vs.Names[0].Name, code)
		}
		return true
	})
	if n < 20 {
		t.Fatalf("found %d error codes in errors.go; the parse went wrong", n)
	}
}

// Every docs/… page a comment in the code points to exists.
func TestDocPointersResolve(t *testing.T) {
	t.Parallel()
	ref := regexp.MustCompile(`docs/[a-z-]+\.md`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "assets" || strings.HasPrefix(d.Name(), ".") && path != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range ref.FindAllString(string(b), -1) {
			if _, err := os.Stat(filepath.Join("..", m)); err != nil {
				t.Errorf("%s points to %s, which does not exist", path, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

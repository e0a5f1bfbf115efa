package rdb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// constructors are the files of board and league that may name the
// client library: their public constructors take the caller's client, and
// they name nothing of it but rueidis.Client.
var constructors = []string{"board.go", "open.go", "periodic.go", "league/league.go"}

const rueidis = "github.com/redis/rueidis"

// forbidden reports a package that board and league reach only through
// this one: the client library (and its subpackages), and the retry layer
// over it.
func forbidden(path string) bool {
	return path == rueidis || strings.HasPrefix(path, rueidis+"/") || path == "github.com/tiebreak/tiebreak/internal/redisretry"
}

// TestOnlyRdbTalksToTheClientLibrary reads every file of board, league
// and board's other internal packages (tests aside): none imports the
// client library or the retry layer over it, but the constructors, which
// name only rueidis.Client.
func TestOnlyRdbTalksToTheClientLibrary(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, pattern := range []string{"*.go", "*/*.go", "internal/*/*.go"} {
		more, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	if len(files) < 50 {
		t.Fatalf("%d files of board found: the test reads the wrong directory", len(files))
	}
	seen := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "internal/rdb/") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !forbidden(p) {
				continue
			}
			if p != rueidis || !slices.Contains(constructors, rel) {
				t.Errorf("%s imports %s: send through package rdb", rel, p)
				continue
			}
			seen++
			local := "rueidis"
			if imp.Name != nil {
				local = imp.Name.Name
			}
			for _, name := range selectorsOf(f, local) {
				if name != "Client" {
					t.Errorf("%s names rueidis.%s: a constructor names only rueidis.Client", rel, name)
				}
			}
		}
	}
	if seen != len(constructors) {
		t.Errorf("%d of the %d constructor files import rueidis: the list is out of date", seen, len(constructors))
	}
}

// selectorsOf is every name that f selects from the package it imports
// as pkg.
func selectorsOf(f *ast.File, pkg string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && id.Name == pkg {
				out = append(out, s.Sel.Name)
			}
		}
		return true
	})
	return out
}

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

// forbidden are the packages that board and league reach only through
// this one.
var forbidden = []string{"github.com/redis/rueidis", "github.com/tiebreak/tiebreak/internal/redisretry"}

// TestOnlyRdbTalksToTheClientLibrary reads every file of board, league
// and board's other internal packages (tests aside): none imports the
// client library or the retry layer over it, but the constructors, which
// name only rueidis.Client.
func TestOnlyRdbTalksToTheClientLibrary(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"league", filepath.Join("internal", "hook")} {
		more, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
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
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(forbidden, p) {
				continue
			}
			if p != forbidden[0] || !slices.Contains(constructors, rel) {
				t.Errorf("%s imports %s: send through package rdb", rel, p)
				continue
			}
			seen++
			for _, name := range selectorsOf(f, "rueidis") {
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

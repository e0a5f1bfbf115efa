package docpaths

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// updateNames rewrites testdata/public-names.txt with the public names of
// the packages as they are now.
var updateNames = flag.Bool("update-names", false, "rewrite testdata/public-names.txt")

// The public names of every package users import (not internal packages,
// commands, examples or the bench module) are kept in
// testdata/public-names.txt, one per line under its package with their
// count: a change of the public API (a name added, renamed or removed)
// fails this test until the file is rewritten (-update-names), so that it
// shows in review, with the package's new count. A name is what the
// package exports at its top level (a type, a function, a constant, a
// variable) or a method of an exported type; struct fields are not
// counted.
func TestPublicNames(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	got := publicNames(t, root)
	file := filepath.Join("testdata", "public-names.txt")
	if *updateNames {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("the public API changed (-before +now); review it, then rewrite %s with go test ./internal/docpaths -run TestPublicNames -update-names:\n%s", file, diff)
	}
}

// publicNames lists the exported names of every public package under root,
// by package path, sorted, each package headed by its count.
func publicNames(t *testing.T, root string) string {
	t.Helper()
	var out strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case rel == ".":
			return nil
		case rel == "bench" || rel == "cmd" || rel == "examples" || d.Name() == "internal" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		}
		names := exportedNames(t, path)
		if len(names) == 0 {
			return nil
		}
		fmt.Fprintf(&out, "%s %d\n", filepath.ToSlash(rel), len(names))
		for _, n := range names {
			fmt.Fprintf(&out, "\t%s\n", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// exportedNames returns the exported names of the package in dir (its
// non-test files), sorted: "func New", "method Board.Top", "type Board".
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				names = append(names, declNames(d)...)
			}
		}
	}
	slices.Sort(names)
	return names
}

// declNames returns the exported names d declares.
func declNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv == nil {
			return []string{"func " + d.Name.Name}
		}
		typ := d.Recv.List[0].Type
		if s, ok := typ.(*ast.StarExpr); ok {
			typ = s.X
		}
		if ix, ok := typ.(*ast.IndexExpr); ok {
			typ = ix.X
		}
		if ix, ok := typ.(*ast.IndexListExpr); ok {
			typ = ix.X
		}
		if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
			return []string{"method " + id.Name + "." + d.Name.Name}
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					names = append(names, "type "+s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, id := range s.Names {
					if id.IsExported() {
						names = append(names, strings.ToLower(d.Tok.String())+" "+id.Name)
					}
				}
			}
		}
	}
	return names
}

package docpaths

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// bench/README.md's Go blocks show code of the workloads in
// internal/benchload, whose unexported names a block cannot be compiled
// without: each block is, token for token (comments and line breaks
// aside), code of a file there, which the build compiles.
func TestBenchReadmeBlocksAreCode(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(t, root, filepath.Join(root, "bench", "README.md"))
	if len(blocks) == 0 {
		t.Fatal("bench/README.md has no Go block: the search missed them")
	}
	files, err := filepath.Glob(filepath.Join(root, "internal", "benchload", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in internal/benchload: %v", err)
	}
	var code [][]string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code = append(code, goTokens(src))
	}
	for _, b := range blocks {
		want := goTokens([]byte(b.text))
		found := slices.ContainsFunc(code, func(c []string) bool { return containsRun(c, want) })
		if !found {
			t.Errorf("%s: the block is not code of internal/benchload:\n%s", b.where, b.text)
		}
	}
}

// goTokens returns src's Go tokens, less comments and the semicolons a
// line break inserts.
func goTokens(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var out []string
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return out
		case tok == token.SEMICOLON && lit == "\n":
			continue
		}
		out = append(out, tok.String()+" "+strings.TrimSpace(lit))
	}
}

// containsRun reports whether run appears in s, contiguous.
func containsRun(s, run []string) bool {
	for i := 0; i+len(run) <= len(s); i++ {
		if slices.Equal(s[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

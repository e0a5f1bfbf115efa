package docpaths

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every ```go block of README.md and docs/*.md compiles against the
// packages of this checkout. A block is one of two kinds:
//
//   - a whole file: its first line that is not a comment or blank starts
//     with "package". It is type-checked as it stands.
//   - a fragment: anything else. It is statements, type-checked as the
//     body of a function (inside a block of its own, so that it may
//     declare any name) that returns an error, with fragmentScope's names
//     in scope and every package of fragmentImports imported under its
//     own name. A variable it declares and does not use, or an import it
//     does not use, is not an error.
//
// The blocks are type-checked (go/types), against the export data that
// `go list -export` builds, once, for the packages they may import.
func TestGoSnippetsCompile(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var snippets []snippet
	for _, doc := range markdownFiles(t, root) {
		snippets = append(snippets, goBlocks(t, root, doc)...)
	}
	if len(snippets) < 3 {
		t.Fatalf("found only %d Go blocks in the documentation: the search missed them", len(snippets))
	}
	inComments := docCommentBlocks(t, root)
	if len(inComments) < 5 {
		t.Fatalf("found only %d Go blocks in doc comments: the search missed them", len(inComments))
	}
	snippets = append(snippets, inComments...)
	fset := token.NewFileSet()
	files := make([]*ast.File, len(snippets))
	imports := slices.Clone(fragmentImports)
	for i, s := range snippets {
		src := s.source()
		f, err := parser.ParseFile(fset, s.where, src, parser.ParseComments)
		if err != nil {
			t.Errorf("%s does not parse: %v\n%s", s.where, err, numbered(src))
			continue
		}
		files[i] = f
		for _, spec := range f.Imports {
			imports = append(imports, strings.Trim(spec.Path.Value, `"`))
		}
	}
	imp := exportImporter(t, root, fset, imports)
	for i, s := range snippets {
		if files[i] == nil {
			continue
		}
		t.Run(s.where, func(t *testing.T) {
			f, src := files[i], s.source()
			var errs []string
			conf := types.Config{
				Importer: imp,
				Error: func(err error) {
					msg := err.Error()
					if !isWholeFile(s.text) && (strings.Contains(msg, "declared and not used") || strings.Contains(msg, "imported and not used")) {
						return
					}
					errs = append(errs, msg)
				},
			}
			conf.Check(f.Name.Name, fset, []*ast.File{f}, nil) // errors go to conf.Error
			if len(errs) > 0 {
				t.Errorf("does not compile:\n%s\n%s", strings.Join(errs, "\n"), numbered(src))
			}
		})
	}
}

// fragmentImports are the packages a fragment may use, under their own
// names.
var fragmentImports = []string{
	"context", "errors", "fmt", "log", "net/http", "time",
	"github.com/redis/rueidis",
	"github.com/tiebreak/tiebreak/board",
	"github.com/tiebreak/tiebreak/board/league",
	"github.com/tiebreak/tiebreak/decimalmap",
	"github.com/tiebreak/tiebreak/observe",
	"github.com/tiebreak/tiebreak/pack",
	"github.com/tiebreak/tiebreak/ratelimit",
	"github.com/tiebreak/tiebreak/tiebreakotel",
	"github.com/tiebreak/tiebreak/tsid",
	"github.com/tiebreak/tiebreak/tsid/timeline",
}

// fragmentScope declares the names a fragment may use without declaring
// them: a context, a client, a board's layout and a board.
const fragmentScope = `ctx context.Context, client rueidis.Client, layout *pack.Layout, b *board.Board`

// wrapFragment makes a file of a fragment.
func wrapFragment(text string) string {
	var src strings.Builder
	src.WriteString("package fragment\n\nimport (\n")
	for _, p := range fragmentImports {
		fmt.Fprintf(&src, "\t%q\n", p)
	}
	src.WriteString(")\n\nfunc fragment(" + fragmentScope + ") error {\n\t{\n")
	src.WriteString(text)
	src.WriteString("\t}\n\treturn nil\n}\n")
	return src.String()
}

// source returns the file that s is, or that wraps it.
func (s snippet) source() string {
	if isWholeFile(s.text) {
		return s.text
	}
	return wrapFragment(s.text)
}

// isWholeFile reports whether a block is a whole Go file.
func isWholeFile(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		return strings.HasPrefix(line, "package ")
	}
	return false
}

// snippet is one ```go block and where it is ("docs/boards.md:12").
type snippet struct{ where, text string }

// markdownFiles returns README.md and every docs/*.md.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, docs...)
}

// goBlocks returns the ```go blocks of the Markdown file path.
func goBlocks(t *testing.T, root, path string) []snippet {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(root, path)
	var out []snippet
	var cur *strings.Builder
	start := 0
	sc := bufio.NewScanner(bytes.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur, start = &strings.Builder{}, n+1
		case cur != nil && strings.TrimSpace(line) == "```":
			out = append(out, snippet{fmt.Sprintf("%s:%d", rel, start), cur.String()})
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	if cur != nil {
		t.Errorf("%s:%d: a ```go block that does not end", rel, start-1)
	}
	return out
}

// docCommentBlocks returns the code blocks of the doc comments of every
// public package of the module and of tiebreakotel (not tests, internal
// packages, testdata, the bench module or the examples, whose code is
// compiled anyway) that are
// Go: a block holding ":=", "if err" or "(ctx" is Go and must compile;
// any other (a key layout, a bit diagram, a table of costs) is text.
func docCommentBlocks(t *testing.T, root string) []snippet {
	t.Helper()
	var out []snippet
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "bench" || rel == "examples" || d.Name() == "internal" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			var p comment.Parser
			for _, b := range p.Parse(cg.Text()).Content {
				code, ok := b.(*comment.Code)
				if !ok || !isGoBlock(code.Text) {
					continue
				}
				out = append(out, snippet{fmt.Sprintf("%s:%d", rel, fset.Position(cg.Pos()).Line), code.Text})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isGoBlock reports whether a doc comment's code block is Go.
func isGoBlock(text string) bool {
	return strings.Contains(text, ":=") || strings.Contains(text, "if err") || strings.Contains(text, "(ctx")
}

// exportImporter returns an importer of the export data of the packages
// imports and of their dependencies, built by one go list in
// the tiebreakotel module (whose go.mod replaces this module by this
// checkout, so that it sees both).
func exportImporter(t *testing.T, root string, fset *token.FileSet, imports []string) types.Importer {
	t.Helper()
	slices.Sort(imports)
	pkgs := slices.Compact(imports)
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, pkgs...)...)
	cmd.Dir = filepath.Join(root, "tiebreakotel")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "\t")
		exports[path] = file
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(file)
	})
}

// numbered returns src with line numbers, for a failure's message.
func numbered(src string) string {
	var b strings.Builder
	n := 0
	for line := range strings.Lines(src) {
		n++
		fmt.Fprintf(&b, "%4d  %s", n, line)
	}
	return b.String()
}

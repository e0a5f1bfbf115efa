package docpaths

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const module = "github.com/tiebreak/tiebreak"

// pathRE matches the module's import paths as text names them.
var pathRE = regexp.MustCompile(regexp.QuoteMeta(module) + `(/[A-Za-z0-9_./-]*[A-Za-z0-9_])?`)

// Every path of this module named in a Go file (code or comment) or a
// Markdown file is a directory of the repository that holds Go files
// (the module's own path aside).
func TestNamedPackagesExist(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range pathRE.FindAllString(string(text), -1) {
			named++
			rel := strings.TrimPrefix(strings.TrimPrefix(m, module), "/")
			if rel != "" && !hasGo(filepath.Join(root, rel)) { // the module itself: go get
				t.Errorf("%s names %s: no package there", strings.TrimPrefix(path, root+"/"), m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if named < 50 {
		t.Fatalf("found only %d named paths: the walk missed the repository", named)
	}
}

// hasGo reports whether dir holds a Go file.
func hasGo(dir string) bool {
	es, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

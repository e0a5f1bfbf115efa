package docpaths

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every example honours REDIS_URL: each Example function's file and each
// program of examples/ that builds its own client (rueidis.NewClient)
// reads REDIS_URL for its address, and none names an address of its own;
// each program of examples/ that does not build one connects through
// examples/internal/redisconn, which reads REDIS_URL first.
func TestExamplesHonourRedisURL(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		program := strings.HasPrefix(rel, "examples"+string(filepath.Separator)) && d.Name() == "main.go"
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(text)
		if !program && !(strings.HasSuffix(path, "_test.go") && strings.Contains(src, "\nfunc Example")) {
			return nil
		}
		checked++
		if strings.Contains(src, "InitAddress: []string{\"") {
			t.Errorf("%s: an example names an address of its own (InitAddress); read REDIS_URL", rel)
		}
		readsURL := strings.Contains(src, `os.Getenv("REDIS_URL")`)
		switch {
		case strings.Contains(src, "rueidis.NewClient(") && !readsURL:
			t.Errorf("%s: an example builds a client without reading REDIS_URL", rel)
		case program && !readsURL && !strings.Contains(src, "redisconn.Connect("):
			t.Errorf("%s: the program neither reads REDIS_URL nor connects through redisconn", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 15 {
		t.Fatalf("checked only %d files of examples: the walk missed them", checked)
	}
}

// The README fits: at most 15 KB. What does not fit goes to docs/ or to
// the packages' documentation.
func TestReadmeFits(t *testing.T) {
	const most = 15 * 1024
	fi, err := os.Stat("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > most {
		t.Errorf("README.md is %d bytes, over %d: move the detail to docs/ or to the package docs", fi.Size(), most)
	}
}

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Errorf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }
func (r *recorder) Fatalf(format string, a ...any) { r.failed = fmt.Sprintf(format, a...) }
func (r *recorder) Fatal(a ...any)                 { r.failed = fmt.Sprint(a...) }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x", "script.lua")
	r := &recorder{TB: t}
	Check(r, path, "a")
	if r.failed == "" {
		t.Error("a missing golden file passed")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("a\n"), 0o644)
	r = &recorder{TB: t}
	Check(r, path, "a\n")
	if r.failed != "" {
		t.Errorf("equal text failed: %s", r.failed)
	}
	Check(r, path, "b\n")
	if r.failed == "" {
		t.Error("different text passed")
	}
}

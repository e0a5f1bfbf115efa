package luascript

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestAssemble(t *testing.T) {
	fsys := fstest.MapFS{
		"lua/a.lua": {Data: []byte("local function a() return X end\n")},
		"lua/b.lua": {Data: []byte("return a()")},
	}
	got, err := Assemble(fsys, "lua", "demo", []Const{{"X", "1"}, {"Y", "'y'"}}, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	want := "-- demo\nlocal X = 1\nlocal Y = 'y'\n-- fragment: a.lua\nlocal function a() return X end\n-- fragment: b.lua\nreturn a()\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Assemble (-want +got):\n%s", diff)
	}
	// A line break in the title stays in its comment.
	if got, _ := Assemble(fsys, "lua", "x\nreturn 1\r--", nil, "b"); !strings.HasPrefix(got, "-- x\\nreturn 1\\r--\n-- fragment: b.lua\n") {
		t.Errorf("a title with line breaks: %q", got)
	}
	if _, err := Assemble(fsys, "lua", "demo", nil, "a", "missing"); !errors.Is(err, ErrFragment) {
		t.Errorf("missing fragment: err = %v, want ErrFragment", err)
	}
}

package luascript

import (
	"errors"
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
	if _, err := Assemble(fsys, "lua", "demo", nil, "a", "missing"); !errors.Is(err, ErrFragment) {
		t.Errorf("missing fragment: err = %v, want ErrFragment", err)
	}
}

package redisserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// startT starts a server for the duration of t.
func startT(t *testing.T, dir string, args ...string) *Server {
	t.Helper()
	s, err := StartServerWith(dir, args...)
	if err != nil {
		t.Fatalf("StartServerWith(%q, %q): %v", dir, args, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestStartServerAndClose(t *testing.T) {
	s, err := StartServer("")
	if err != nil {
		t.Fatal(err)
	}
	c := dialT(t, s.Addr)
	set(t, c, "k", "v")
	if got, _ := get(t, c, "k"); got != "v" {
		t.Errorf("GET k = %q, want %q", got, "v")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := os.Stat(s.Dir); !os.IsNotExist(err) {
		t.Errorf("temporary dir %s not removed by Close: %v", s.Dir, err)
	}
	if _, err := serverPID(s.Addr); err == nil {
		t.Errorf("%s still answers after Close", s.Addr)
	}
	if err := s.Restart(); err == nil {
		t.Errorf("Restart after Close succeeded, want an error")
	}
}

func TestStartServerKeepsCallersDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := startT(t, dir)
	if diff := cmp.Diff(dir, s.Dir); diff != "" {
		t.Errorf("Dir mismatch (-want +got):\n%s", diff)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, logName)); err != nil {
		t.Errorf("caller's dir not kept: %v", err)
	}
}

func TestRestartWithoutPersistenceForgets(t *testing.T) {
	s := startT(t, t.TempDir())
	addr := s.Addr
	set(t, dialT(t, s.Addr), "k", "v")
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(addr, s.Addr); diff != "" {
		t.Errorf("Addr changed on Restart (-want +got):\n%s", diff)
	}
	if v, ok := get(t, dialT(t, s.Addr), "k"); ok {
		t.Errorf("GET k = %q after restart without persistence, want nil", v)
	}
}

func TestRestartWithAOFKeepsData(t *testing.T) {
	s := startT(t, t.TempDir(), "--appendonly", "yes")
	c := dialT(t, s.Addr)
	for _, k := range []string{"a", "b", "c"} {
		set(t, c, k, "v"+k)
	}
	oldPID := s.pid()
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	if s.pid() == oldPID {
		t.Errorf("pid %d unchanged: server not restarted", oldPID)
	}
	after := dialT(t, s.Addr)
	got := map[string]string{}
	for _, k := range []string{"a", "b", "c"} {
		got[k], _ = get(t, after, k)
	}
	want := map[string]string{"a": "va", "b": "vb", "c": "vc"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("data after AOF restart mismatch (-want +got):\n%s", diff)
	}
	// The client from before the restart reconnects by itself.
	if v, _ := get(t, c, "a"); v != "va" {
		t.Errorf("old client: GET a = %q, want %q", v, "va")
	}
}

func TestStartServerReportsLog(t *testing.T) {
	_, err := StartServerWith(t.TempDir(), "--no-such-option", "1")
	if err == nil {
		t.Fatal("StartServerWith with a bad option succeeded, want an error")
	}
	t.Logf("error: %v", err)
}

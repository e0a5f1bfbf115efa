package redisserver

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestWaitReadyDetectsTakenPort(t *testing.T) {
	first := startT(t, t.TempDir())
	// Take first's port on purpose: redis-server must fail to bind and
	// report errPortInUse, not hang or pass off first as its own.
	_, port, _ := strings.Cut(first.Addr, ":")
	dir := t.TempDir()
	p, err := launch(dir, baseArgs(dir, mustAtoi(t, port)))
	if err != nil {
		t.Fatal(err)
	}
	err = p.waitReady(first.Addr)
	if !errors.Is(err, errPortInUse) {
		t.Errorf("waitReady on a taken port: %v, want errPortInUse", err)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

//go:build linux

package redisserver

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// processGone reports whether pid has exited (or is a zombie) within 5s.
func processGone(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && strings.Contains(string(stat), ") Z ") {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestCloseEndsProcess(t *testing.T) {
	s := startT(t, t.TempDir())
	pid := s.pid()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !processGone(pid) {
		t.Errorf("redis-server pid %d still running after Close", pid)
	}
}

const childEnv = "REDISTEST_DEATH_CHILD_DIR"

// TestServerDiesWithKilledParent runs this test binary again as a child that
// starts a server and prints its pid, SIGKILLs the child (so neither Close
// nor Main runs) and expects Pdeathsig to have killed the server.
func TestServerDiesWithKilledParent(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		serveUntilKilled(dir)
		return
	}
	becomeSubreaper(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerDiesWithKilledParent$")
	cmd.Env = append(os.Environ(), childEnv+"="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPID(t, out)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !reaped(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		reaped(pid)
		t.Fatalf("redis-server pid %d outlived its SIGKILLed parent", pid)
	}
}

// becomeSubreaper makes this process adopt its orphaned grandchildren for
// the duration of t, so that the test can reap the server (no zombie left).
func becomeSubreaper(t *testing.T) {
	t.Helper()
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	t.Cleanup(func() { syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 0, 0) })
}

// reaped waits up to 5s for pid to exit, and reaps it once it has been
// adopted. Until the killed parent's last thread is gone the server may not
// be our child yet (ECHILD): then it counts as gone only when the kernel no
// longer knows it, or knows it as a zombie.
func reaped(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		if got == pid {
			return true
		}
		if errors.Is(err, syscall.ECHILD) && processGone(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// serveUntilKilled is the child's side: start a server from a goroutine
// other than the spawner (as tests do), report its pid and wait to be killed.
func serveUntilKilled(dir string) {
	done := make(chan *Server)
	go func() {
		s, err := StartServer(dir)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		done <- s
	}()
	fmt.Printf("pid %d\n", (<-done).pid())
	time.Sleep(time.Minute)
	os.Exit(1)
}

// readPID reads the child's "pid N" line.
func readPID(t *testing.T, out interface{ Read([]byte) (int, error) }) int {
	t.Helper()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading child output %q: %v", line, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "pid ")))
	if err != nil {
		t.Fatalf("child said %q", line)
	}
	return pid
}

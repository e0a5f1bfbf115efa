package redisserver

import (
	"os/exec"
	"runtime"
	"sync"
)

// Child processes must not outlive the program that started them, even when
// it is killed (a test binary hitting -timeout, a Ctrl-C'd benchmark, a
// SIGKILL). On Linux each child is started with Pdeathsig=SIGKILL (see
// spawn_linux.go): the kernel kills it when its parent dies.
//
// The kernel's "parent" there is the OS thread that forked the child, not
// the process: Pdeathsig fires as soon as that thread exits. Go threads come
// and go (the runtime may end a thread, e.g. one left locked by a goroutine
// that returned), so forking from an arbitrary goroutine could kill a
// redis-server in the middle of a test run. Every child is therefore forked
// by one goroutine that locks itself to its OS thread and never returns, so
// that thread lives exactly as long as the process.

// spawnRequest asks the spawner to start cmd and report the result on done.
type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	spawnOnce sync.Once
	spawnCh   chan spawnRequest
)

// startCmd starts cmd from the spawner thread, with the platform's
// die-with-parent attributes applied.
func startCmd(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawnCh = make(chan spawnRequest)
		go spawner()
	})
	cmd.SysProcAttr = dieWithParent()
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawnCh <- req
	return <-req.done
}

// spawner forks every child. It locks its goroutine to the current OS thread
// and never returns nor unlocks, so the thread is never ended or reused.
func spawner() {
	runtime.LockOSThread()
	for req := range spawnCh {
		req.done <- req.cmd.Start()
	}
}

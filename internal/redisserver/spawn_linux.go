//go:build linux

package redisserver

import "syscall"

// dieWithParent makes the kernel SIGKILL the child when the thread that
// forked it exits; spawn.go keeps that thread alive as long as the process.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

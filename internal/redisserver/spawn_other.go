//go:build !linux

package redisserver

import "syscall"

// dieWithParent has no equivalent of Linux's Pdeathsig here: children are
// stopped by Close and Main only.
func dieWithParent() *syscall.SysProcAttr {
	return nil
}

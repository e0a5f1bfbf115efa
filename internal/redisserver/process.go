package redisserver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	logName      = "redis-server.log"
	readyTimeout = 15 * time.Second
	stopTimeout  = 10 * time.Second
)

// errPortInUse reports that redis-server could not bind its port(s).
var errPortInUse = errors.New("redis-server: port in use")

// process is one running redis-server.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // exit status, valid once done is closed
	log  string        // path of the log file
	from int64         // size of the log when this process started

	mended  chan struct{} // closed when the mend after its start is done (aofmend.go)
	mendErr error         // why that mend failed, valid once mended is closed
}

// baseArgs are the settings every server gets before the caller's extras:
// loopback only, no persistence, in the foreground, logging to stdout.
func baseArgs(dir string, port int) []string {
	return []string{
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--dir", dir,
		"--save", "",
		"--appendonly", "no",
		"--daemonize", "no",
		"--logfile", "",
	}
}

// launch starts redis-server with args, logging to dir/redis-server.log.
func launch(dir string, args []string) (*process, error) {
	logPath := filepath.Join(dir, logName)
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child keeps its own descriptor
	from, err := logFile.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("redis-server", args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := startCmd(cmd); err != nil {
		return nil, fmt.Errorf("start redis-server: %w", err)
	}
	p := &process{cmd: cmd, done: make(chan struct{}), log: logPath, from: from, mended: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// waitReady waits until the server on addr answers and is this process
// (not another server that owns the port), or fails with its log.
func (p *process) waitReady(addr string) error {
	deadline := time.Now().Add(readyTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return p.exitError()
		case <-time.After(20 * time.Millisecond):
		}
		if pid, err := serverPID(addr); err == nil && pid == p.cmd.Process.Pid {
			return nil
		}
	}
	p.kill()
	return fmt.Errorf("redis-server on %s not ready after %v; log:\n%s", addr, readyTimeout, p.logTail())
}

// exitError describes an early exit; errPortInUse when the port was taken.
func (p *process) exitError() error {
	tail := p.logTail()
	if strings.Contains(tail, "Address already in use") {
		return fmt.Errorf("%w; log:\n%s", errPortInUse, tail)
	}
	return fmt.Errorf("redis-server exited (%v); log:\n%s", p.err, tail)
}

// stop asks the server to shut down (SIGTERM: it flushes its AOF, if any)
// and kills it if it has not exited within stopTimeout.
func (p *process) stop() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.kill()
		return nil
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(stopTimeout):
		p.kill()
		return fmt.Errorf("redis-server pid %d ignored SIGTERM for %v; killed", p.cmd.Process.Pid, stopTimeout)
	}
}

// kill ends the process at once and waits for it.
func (p *process) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// logTail returns the end of what this process logged, for error messages.
func (p *process) logTail() string {
	if _, err := os.Stat(p.log); err != nil {
		return "(no log: " + err.Error() + ")"
	}
	b := p.logSince()
	const max = 4000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return b
}

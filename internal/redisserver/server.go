package redisserver

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// startAttempts bounds the retries when another process takes the port
// chosen for a server before it binds it.
const startAttempts = 5

// errClosed is returned by Restart after Close.
var errClosed = errors.New("redisserver: server is closed")

// Server is a redis-server process on a loopback port, started by this
// package. On Linux it dies with the process that started it, even when that
// process is killed without calling Close.
type Server struct {
	Addr string // "127.0.0.1:port"
	Dir  string // absolute working and data directory

	args   []string // complete redis-server command line
	ownDir bool     // Dir was created by StartServer and is removed by Close
	mu     sync.Mutex
	proc   *process
	closed bool

	keepTruncated atomic.Bool  // no rewrite after a start that truncated the AOF
	mends         atomic.Int64 // starts whose truncated AOF was rewritten
}

// StartServer starts a temporary redis-server on a free loopback port with
// its data in dir, without persistence, and returns once it answers. An
// empty dir means a new temporary directory, removed by Close.
func StartServer(dir string) (*Server, error) {
	return StartServerWith(dir)
}

// StartServerWith is StartServer with extra redis-server arguments, which
// override the defaults; e.g. StartServerWith(dir, "--appendonly", "yes")
// keeps an append-only file in dir, so that Restart finds the data again.
func StartServerWith(dir string, args ...string) (*Server, error) {
	return startServer(dir, false, args)
}

// startServer starts a server in dir, retrying on another port when the one
// drawn is taken. withBus also reserves the cluster bus port (port+10000).
func startServer(dir string, withBus bool, extra []string) (*Server, error) {
	dir, own, err := serverDir(dir)
	if err != nil {
		return nil, err
	}
	for range startAttempts {
		var port int
		if port, err = freePort(withBus); err != nil {
			break
		}
		s := &Server{Addr: loopback(port), Dir: dir, ownDir: own}
		s.args = append(baseArgs(dir, port), extra...)
		if err = s.start(); err == nil {
			return s, nil
		}
		if !errors.Is(err, errPortInUse) {
			break
		}
	}
	if own {
		os.RemoveAll(dir)
	}
	return nil, err
}

// serverDir makes dir absolute and creates it, or creates a temporary
// directory when dir is empty (own reports that case).
func serverDir(dir string) (abs string, own bool, err error) {
	if dir == "" {
		dir, err = os.MkdirTemp("", "redistest-")
		return dir, true, err
	}
	if abs, err = filepath.Abs(dir); err != nil {
		return "", false, err
	}
	return abs, false, os.MkdirAll(abs, 0o755)
}

// start launches the process and waits until it serves s.Addr.
func (s *Server) start() error {
	p, err := launch(s.Dir, s.args)
	if err != nil {
		return err
	}
	if err := p.waitReady(s.Addr); err != nil {
		return err
	}
	s.proc = p
	go s.mendAOF(p)
	return nil
}

// Restart shuts the server down cleanly (flushing its append-only file, if
// enabled) and starts it again on the same port, in the same directory,
// with the same arguments. Clients reconnect by themselves. It returns
// once the server answers, which may be before it has loaded its data. It
// first waits for the rewrite of an append-only file the last start
// truncated (aofmend.go), and returns that rewrite's error, if any and not
// returned by Crash already, once it has started the server again.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	mendErr := s.proc.waitMend()
	if err := s.proc.stop(); err != nil {
		return errors.Join(mendErr, err)
	}
	if err := s.start(); err != nil {
		return errors.Join(mendErr, fmt.Errorf("restart %s: %w", s.Addr, err))
	}
	return mendErr
}

// Close shuts the server down and removes its directory if StartServer
// created it. Closing twice is a no-op.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.proc.stop()
	if s.ownDir {
		err = errors.Join(err, os.RemoveAll(s.Dir))
	}
	return err
}

// Kill ends the server at once with SIGKILL, as a crash would, and waits
// for it to exit. Restart starts it again; Close does not mind.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		_ = s.proc.waitMend() // Kill reports nothing: its callers test failovers
		s.proc.kill()
	}
}

// alive reports whether the server's process is running.
func (s *Server) alive() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	select {
	case <-s.proc.done:
		return false
	default:
		return true
	}
}

// pid returns the process id of the running redis-server.
func (s *Server) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc.cmd.Process.Pid
}

// loopback returns "127.0.0.1:port".
func loopback(port int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

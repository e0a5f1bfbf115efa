package redisconn

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redisurl"
)

// Conn is a client and what it talks to.
type Conn struct {
	// Client is connected to the server Where names.
	Client rueidis.Client
	// Where says which server it is, for the program to print.
	Where string
	stop  func() error
}

// Close closes the client and stops any server Connect started.
func (c *Conn) Close() error {
	c.Client.Close()
	return c.stop()
}

// Connect uses REDIS_URL if set, else starts a temporary redis-server if
// one is on PATH, else an in-process miniredis.
func Connect() (*Conn, error) {
	if url := os.Getenv("REDIS_URL"); url != "" {
		opt, err := redisurl.Parse(url)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		return open(opt, "REDIS_URL "+redisurl.Redact(url), func() error { return nil })
	}
	if _, err := exec.LookPath("redis-server"); err == nil {
		srv, err := redisserver.StartServer("")
		if err != nil {
			return nil, err
		}
		return open(rueidis.ClientOption{InitAddress: []string{srv.Addr}}, "a temporary redis-server at "+srv.Addr, srv.Close)
	}
	mr, err := miniredis.Run()
	if err != nil {
		return nil, err
	}
	// rueidis needs these two to talk to miniredis.
	opt := rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true, ForceSingleClient: true}
	return open(opt, "an in-process miniredis (no redis-server on PATH)", func() error { mr.Close(); return nil })
}

// open connects with opt; on failure it stops the server at once.
func open(opt rueidis.ClientOption, where string, stop func() error) (*Conn, error) {
	c, err := rueidis.NewClient(opt)
	if err != nil {
		stop()
		return nil, fmt.Errorf("connecting to %s: %w", where, err)
	}
	return &Conn{Client: c, Where: where, stop: stop}, nil
}

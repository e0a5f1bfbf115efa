package main

import (
	"fmt"
	"os"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redisurl"
)

// connection is the Redis a run measures.
type connection struct {
	client rueidis.Client
	// source says where it came from, for the report (never the URL, which
	// may hold a password).
	source string
	// addr is the temporary server's host:port ("" with REDIS_URL), for
	// the clients of other modules (the ratelimit workload's peer).
	addr  string
	close func()
}

// connect uses REDIS_URL when set, else starts a temporary redis-server
// (no persistence, loopback, removed on close). Every variant uses this one
// client with rueidis's default settings.
func connect() (*connection, error) {
	if url := os.Getenv("REDIS_URL"); url != "" {
		opt, err := redisurl.Parse(url)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		c, err := rueidis.NewClient(opt)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
		return &connection{client: c, source: "REDIS_URL", close: c.Close}, nil
	}
	return startTemporary()
}

// startTemporary starts a temporary redis-server from PATH and connects
// to it.
func startTemporary() (*connection, error) {
	srv, err := redisserver.StartServer("")
	if err != nil {
		return nil, fmt.Errorf("no REDIS_URL, and starting a temporary redis-server failed "+
			"(install redis-server, or set REDIS_URL=redis://host:port/0): %w", err)
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}})
	if err != nil {
		srv.Close()
		return nil, err
	}
	closeAll := func() { c.Close(); srv.Close() }
	return &connection{client: c, source: "temporary redis-server " + srv.Addr, addr: srv.Addr, close: closeAll}, nil
}

package redistest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redisurl"
)

// backend is the Redis server shared by one test binary's Envs.
type backend struct {
	client rueidis.Client
	addr   string
	source string // "REDIS_URL", "redis-server" or "docker"
}

var (
	sharedOnce sync.Once
	shared     *backend
	sharedErr  error
)

// sharedBackend finds or starts the binary's Redis once.
func sharedBackend() (*backend, error) {
	sharedOnce.Do(func() { shared, sharedErr = openBackend() })
	return shared, sharedErr
}

// openBackend tries REDIS_URL, then redis-server, then Docker.
func openBackend() (*backend, error) {
	if url := os.Getenv("REDIS_URL"); url != "" {
		return openURL(url, "REDIS_URL")
	}
	if _, err := exec.LookPath("redis-server"); err == nil {
		return openLocal()
	}
	dockerErr := dockerEngine()
	if dockerErr == nil {
		b, err := openDocker()
		if err == nil {
			return b, nil
		}
		dockerErr = err
	}
	return nil, noRedisError(dockerErr)
}

// errNoRedis marks the failure to find any Redis, which New reports in
// full only once per `go test` run.
var errNoRedis = errors.New("no Redis for the tests")

// noRedisError explains that no Redis was found and how to get one.
func noRedisError(dockerErr error) error {
	return fmt.Errorf("%w: REDIS_URL is not set, redis-server is not on PATH "+
		"and Docker cannot be used (%v); %s", errNoRedis, dockerErr, installHint)
}

// openURL connects to the server at url; source names where url came from.
func openURL(url, source string) (*backend, error) {
	opt, err := redisurl.Parse(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	opt.DisableCache = true
	client, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, fmt.Errorf("connect to %s %s: %w", source, opt.InitAddress, err)
	}
	atExit(closeClient(client))
	return &backend{client: client, addr: opt.InitAddress[0], source: source}, nil
}

// openLocal starts the binary's own redis-server in a temporary directory.
func openLocal() (*backend, error) {
	s, err := StartServer("")
	if err != nil {
		return nil, err
	}
	atExit(s.Close)
	client, err := redisserver.Dial(s.Addr)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", s.Addr, err)
	}
	atExit(closeClient(client))
	return &backend{client: client, addr: s.Addr, source: "redis-server"}, nil
}

// closeClient adapts client.Close to atExit.
func closeClient(client rueidis.Client) func() error {
	return func() error {
		client.Close()
		return nil
	}
}

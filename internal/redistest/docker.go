package redistest

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
)

const (
	dockerImage        = "redis:7"
	dockerProbeTimeout = 5 * time.Second
	dockerStartTimeout = 5 * time.Minute
)

// dockerHealth reports whether a Docker engine answers. Without one it fails
// in about a millisecond (no socket to dial).
func dockerHealth() error {
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), dockerProbeTimeout)
	defer cancel()
	return provider.Health(ctx) // also closes provider
}

// openDocker runs a Redis container, terminated by Main (and by
// testcontainers' reaper should the binary die first).
func openDocker() (*backend, error) {
	ctx, cancel := context.WithTimeout(context.Background(), dockerStartTimeout)
	defer cancel()
	c, err := tcredis.Run(ctx, dockerImage)
	if err != nil {
		_ = testcontainers.TerminateContainer(c)
		return nil, fmt.Errorf("start a %s container: %w", dockerImage, err)
	}
	atExit(func() error { return testcontainers.TerminateContainer(c) })
	url, err := c.ConnectionString(ctx)
	if err != nil {
		return nil, fmt.Errorf("address of the %s container: %w", dockerImage, err)
	}
	return openURL(url, "docker")
}

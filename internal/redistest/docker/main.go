// Command docker runs a throwaway Redis container for the tests of
// tiebreak, on a machine that has a Docker engine but no redis-server. It
// lives in a module of its own so that tiebreak's users never carry the
// Docker client in their go.sum; internal/redistest runs it with `go run`.
//
// It prints the container's URL as one line "url redis://host:port" (or
// "error ..." and exits 1), then keeps the container until its standard
// input closes, which happens when the test binary that started it exits,
// however it exits. testcontainers' reaper removes the container too
// should this process die first.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcredis "github.com/testcontainers/testcontainers-go/modules/redis"
)

const (
	image        = "redis:7"
	startTimeout = 5 * time.Minute
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	c, err := tcredis.Run(ctx, image)
	if err != nil {
		fail(fmt.Errorf("start a %s container: %w", image, err), c)
	}
	url, err := c.ConnectionString(ctx)
	cancel()
	if err != nil {
		fail(fmt.Errorf("address of the %s container: %w", image, err), c)
	}
	fmt.Println("url", url)
	io.Copy(io.Discard, os.Stdin) // until the test binary goes away
	_ = testcontainers.TerminateContainer(c)
}

// fail reports err on the protocol line, removes c and exits.
func fail(err error, c testcontainers.Container) {
	fmt.Println("error", err)
	_ = testcontainers.TerminateContainer(c)
	os.Exit(1)
}

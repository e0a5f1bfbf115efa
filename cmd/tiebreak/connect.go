package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisurl"
)

// defaultURL is the server used when neither --url nor REDIS_URL names one.
const defaultURL = "redis://127.0.0.1:6379"

// urlForm is the form of a Redis URL, for the help.
const urlForm = "redis://[user:password@]host:port[/db]"

// env is what a command works with: a client and a printer.
type env struct {
	client rueidis.Client
	out    *printer
	notes  io.Writer // standard error: what a long command says on the way
	where  string    // the server, its URL without a password
	g      *globals
}

// execute connects as g says, runs fn and closes the connection.
func execute(ctx context.Context, g *globals, stdout, stderr io.Writer, fn func(context.Context, *env) error) error {
	if g.timeout <= 0 {
		return usagef("--timeout = %v, want more than 0", g.timeout)
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	client, where, err := connect(ctx, g)
	if err != nil {
		return err
	}
	defer client.Close()
	if g.watches {
		// It runs until interrupted, or for --timeout when given.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
		defer stop()
		if g.timeoutSet {
			ctx, cancel = context.WithTimeout(ctx, g.timeout)
			defer cancel()
		}
	}
	return fn(ctx, &env{client: client, out: &printer{w: stdout, json: g.json}, notes: stderr, where: where, g: g})
}

// connect opens a client to the server g names, cluster or not, and checks
// that it answers.
func connect(ctx context.Context, g *globals) (rueidis.Client, string, error) {
	raw, from := g.url, "--url"
	if raw == "" {
		raw, from = os.Getenv("REDIS_URL"), "REDIS_URL"
	}
	if raw == "" {
		raw, from = defaultURL, "the default, as neither --url nor REDIS_URL is set"
	}
	opt, err := redisurl.Parse(raw)
	if err != nil {
		return nil, "", usagef("%s: %v", from, err)
	}
	where := redisurl.Redact(raw)
	opt.DisableCache = true
	opt.Dialer = net.Dialer{Timeout: min(5*time.Second, g.timeout)}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		return nil, "", fmt.Errorf("cannot reach Redis at %s (%s): %w", where, from, err)
	}
	if err := client.Do(ctx, client.B().Ping().Build()).Error(); err != nil {
		client.Close()
		return nil, "", fmt.Errorf("Redis at %s (%s) does not answer: %w", where, from, err)
	}
	if g.cluster && client.Mode() != rueidis.ClientModeCluster {
		client.Close()
		return nil, "", fmt.Errorf("--cluster: Redis at %s is not a cluster node (a %s server)", where, client.Mode())
	}
	return client, where, nil
}

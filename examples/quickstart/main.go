package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

func main() {
	client, where, stop, err := connect()
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
	fmt.Println("using", where)
	if err := run(context.Background(), os.Stdout, client, "quickstart"); err != nil {
		log.Fatal(err)
	}
}

// connect finds a Redis: REDIS_URL, a temporary redis-server, or miniredis.
func connect() (rueidis.Client, string, func(), error) {
	if url := os.Getenv("REDIS_URL"); url != "" {
		opt, err := rueidis.ParseURL(url)
		if err != nil {
			return nil, "", nil, err
		}
		c, err := rueidis.NewClient(opt)
		return c, "REDIS_URL " + url, func() { c.Close() }, err
	}
	if _, err := exec.LookPath("redis-server"); err == nil {
		srv, err := redistest.StartServer("")
		if err != nil {
			return nil, "", nil, err
		}
		c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}})
		return c, "a temporary redis-server at " + srv.Addr, func() { c.Close(); srv.Close() }, err
	}
	mr, err := miniredis.Run()
	if err != nil {
		return nil, "", nil, err
	}
	// rueidis needs these two to talk to miniredis.
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{mr.Addr()}, DisableCache: true, ForceSingleClient: true})
	return c, "an in-process miniredis (no redis-server on PATH)", func() { c.Close(); mr.Close() }, err
}

// run builds the board, submits the five players and prints the ranking
// to w.
func run(ctx context.Context, w io.Writer, client rueidis.Client, name string) error {
	layout, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},                        // 0..1048575, higher first
		pack.Field{Name: "paid", Width: 1},                           // 1 before 0
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter}, // Unix seconds, earlier first
	)
	if err != nil {
		return err
	}
	b, err := board.New(client, name, layout, board.Options{})
	if err != nil {
		return err
	}
	defer b.Delete(ctx)
	t := time.Date(2019, 10, 23, 8, 23, 41, 0, time.UTC).Unix() // seed 002's 1571819021
	players := []struct {
		id           string
		points, paid float64
		at           int64
	}{{"A", 100, 1, t}, {"B", 200, 0, t}, {"C", 200, 1, t}, {"D", 400, 0, t}, {"E", 200, 1, t - 9020}}
	for _, p := range players {
		s := board.Submission{ID: p.id, Values: []float64{p.points, p.paid, float64(p.at)}}
		if _, err := b.Submit(ctx, s); err != nil {
			return err
		}
	}
	top, err := b.Top(ctx, 10)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "rank  id  points  paid  time")
	for _, e := range top.Entries {
		at := time.Unix(int64(e.Values[2]), 0).UTC().Format(time.DateTime)
		fmt.Fprintf(w, "%4d  %-2s  %6.0f  %4.0f  %s\n", e.Rank, e.ID, e.Values[0], e.Values[1], at)
	}
	return nil
}

// Command leaderboard ranks players by points, then paid first, then
// earliest, and prints the top three and the three around one player.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/pack"
)

// main writes to the server REDIS_URL names (redis://localhost:6379 when
// it is unset), and says which.
func main() {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://localhost:6379"
	}
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		log.Fatalf("REDIS_URL: %v", err)
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	fmt.Fprintln(os.Stderr, "writing board \"arena\" on", opt.InitAddress)
	if err := run(context.Background(), os.Stdout, client, "arena"); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, w io.Writer, client rueidis.Client, name string) error {
	// 20 + 1 + 32 bits: at most 53, so every score is exact.
	layout, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},                        // higher first
		pack.Field{Name: "paid", Width: 1},                           // 1 before 0
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter}, // earlier first
	)
	if err != nil {
		return err
	}
	b, err := board.New(ctx, client, name, layout, board.Options{})
	if err != nil {
		return err
	}
	noon := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).Unix()
	for i, p := range []struct {
		id           string
		points, paid float64
	}{{"ann", 300, 0}, {"bob", 200, 1}, {"cyd", 200, 0}, {"dee", 200, 1}, {"eve", 100, 1}} {
		at := float64(noon + int64(i)) // ann first, eve last
		s := board.Submission{ID: p.id, Values: []float64{p.points, p.paid, at}, Policy: board.Best}
		if _, err := b.Submit(ctx, s); err != nil {
			return err
		}
	}
	top, err := b.Top(ctx, 3)
	if err != nil {
		return err
	}
	around, err := b.Around(ctx, "cyd", 3)
	if err != nil {
		return err
	}
	for _, l := range []board.List{top, around} {
		for _, e := range l.Entries {
			fmt.Fprintf(w, "%d %s %v\n", e.Rank, e.ID, e.Values[:2])
		}
		fmt.Fprintln(w)
	}
	return nil
}

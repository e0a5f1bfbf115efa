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
	"github.com/tiebreak/tiebreak/examples/internal/redisconn"
	"github.com/tiebreak/tiebreak/pack"
)

func main() {
	conn, err := redisconn.Connect()
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	fmt.Println("using", conn.Where)
	if err := run(context.Background(), os.Stdout, conn.Client, "quickstart"); err != nil {
		log.Fatal(err)
	}
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
	b, err := board.New(ctx, client, name, layout, board.Options{})
	if err != nil {
		return err
	}
	defer b.Drop(ctx)
	t := time.Date(2019, 10, 23, 8, 23, 41, 0, time.UTC).Unix() // 1571819021
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

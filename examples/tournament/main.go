package main

import (
	"context"
	"errors"
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
// it is unset) the cup "cup", and says which.
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
	fmt.Fprintln(os.Stderr, "writing the daily cup \"cup\" on", opt.InitAddress)
	if err := run(context.Background(), os.Stdout, client, "cup", time.Now()); err != nil {
		log.Fatal(err)
	}
}

// newCup returns the cup name: one board a day (UTC), ranking by score,
// then by the earliest run, under its rules.
func newCup(client rueidis.Client, name string, end time.Time) (*board.Periodic, error) {
	l, err := pack.NewLayout(
		pack.Field{Name: "score", Width: 20},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		return nil, err
	}
	rules := board.Rules{End: end, JoinRequired: true, MaxMembers: 4, MaxAttempts: 3}
	return board.NewPeriodic(client, name, l, board.Daily(time.UTC), 7*24*time.Hour, board.Options{Rules: rules})
}

// answer is what the service tells a player whose run or join the cup
// refused: each rule has its own sentinel (all of them ErrArgument: the
// player's mistake, nothing written).
func answer(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, board.ErrNotJoined):
		return "join the cup first"
	case errors.Is(err, board.ErrFull):
		return "the cup is full"
	case errors.Is(err, board.ErrNoAttempts):
		return "no runs left today"
	case errors.Is(err, board.ErrClosed):
		return "the cup is over"
	case errors.Is(err, board.ErrArgument):
		return "bad request"
	}
	return "try again later: " + err.Error()
}

// run plays one day of the cup at now and prints what players are told
// and the standings. Today's board is emptied first, so that every run
// prints the same.
func run(ctx context.Context, w io.Writer, client rueidis.Client, name string, now time.Time) error {
	// The cup ends with the month after now's: a stored rule, the same
	// for every instance of the service.
	y, m, _ := now.UTC().Date()
	cup, err := newCup(client, name, time.Date(y, m+2, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return err
	}
	today := cup.At(now)
	if err := today.Clear(ctx); err != nil {
		return err
	}
	fmt.Fprintln(w, "ann plays before joining:", answer(play(ctx, today, "ann", 100, now)))
	fmt.Fprintln(w, "ann, bob, cyd and dee join:", answer(today.Join(ctx, "ann", "bob", "cyd", "dee")))
	fmt.Fprintln(w, "eve joins:", answer(today.Join(ctx, "eve")))
	for i, score := range []float64{120, 340, 200, 500} {
		fmt.Fprintf(w, "ann's run %d (%v): %s\n", i+1, score, answer(play(ctx, today, "ann", score, now)))
	}
	fmt.Fprintln(w, "bob's run (410):", answer(play(ctx, today, "bob", 410, now)))
	fmt.Fprintln(w, "cyd's run (340):", answer(play(ctx, today, "cyd", 340, now.Add(time.Second))))
	l, err := today.Top(ctx, 10)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "today's standings:")
	for _, e := range l.Entries {
		en, err := today.Entrant(ctx, e.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %d. %-3s %3v  (%d runs left)\n", e.Rank, e.ID, e.Values[0], en.AttemptsLeft)
	}
	return nil
}

// play records a run of id, keeping the player's best.
func play(ctx context.Context, b *board.Board, id string, score float64, at time.Time) error {
	_, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{score, float64(at.Unix())}, Policy: board.Best})
	return err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
	"github.com/tiebreak/tiebreak/pack"
)

// main writes to the server REDIS_URL names (redis://localhost:6379 when
// it is unset) the league "arena", and says which.
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
	fmt.Fprintln(os.Stderr, "writing the league \"arena\" on", opt.InitAddress)
	if err := run(context.Background(), os.Stdout, client, "arena"); err != nil {
		log.Fatal(err)
	}
}

// firstWeek is the league's first season: its weeks start on Mondays at
// 09:00 UTC.
var firstWeek = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// newLeague returns the league name: weekly seasons, three tiers, cohorts
// of 5, the best 2 up and the worst 2 down; players rank by XP, then by
// the earliest result.
func newLeague(ctx context.Context, client rueidis.Client, name string) (*league.League, error) {
	l, err := pack.NewLayout(pack.Field{Name: "xp", Width: 24}, pack.Field{Name: "time", Width: 29, Dir: pack.LowerIsBetter})
	if err != nil {
		return nil, err
	}
	return league.New(ctx, client, name, l, board.Weekly(time.UTC).From(firstWeek), league.Options{
		Tiers:      []string{"bronze", "silver", "gold"},
		CohortSize: 5,
		Promote:    league.Zone{Count: 2},
		Demote:     league.Zone{Count: 2},
	})
}

// run plays two weeks of the league and prints a player's cohort and
// the tiers after each roll. It drops the league first, so that every
// run prints the same.
func run(ctx context.Context, w io.Writer, client rueidis.Client, name string) error {
	l, err := newLeague(ctx, client, name)
	if err != nil {
		return err
	}
	if err := l.Drop(ctx); err != nil {
		return err
	}
	if l, err = newLeague(ctx, client, name); err != nil {
		return err
	}
	players := make([]string, 12)
	for i := range players {
		players[i] = "p" + strconv.Itoa(i+1)
	}
	for week := range 2 {
		s := l.At(firstWeek.AddDate(0, 0, 7*week))
		if err := play(ctx, s, players, week); err != nil {
			return err
		}
		c, err := s.Cohort(ctx, "p1")
		if err != nil {
			return err
		}
		around, err := c.Board.Around(ctx, "p1", 5)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "week %s: p1 competes in %s cohort %d:\n", s.Window().Label, c.Tier, c.Index)
		for _, e := range around.Entries {
			fmt.Fprintf(w, "  %d. %-3s %3v xp\n", e.Rank, e.ID, e.Values[0])
		}
		// The week ends: four instances roll it at once; each cohort
		// moves once.
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() { errs[i] = s.Roll(ctx) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		fmt.Fprintf(w, "after week %s:", s.Window().Label)
		for _, id := range players {
			tier, err := l.Tier(ctx, id)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, " %s=%s", id, tier)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// play submits every player's result of the week, in order, so that the
// example prints the same cohorts each run (any number of instances may
// submit at once: each member is placed once, no cohort overfills).
func play(ctx context.Context, s *league.Season, players []string, week int) error {
	for i, id := range players {
		xp := float64((i*37+week*11)%100 + 1)
		if _, err := s.Submit(ctx, board.Submission{ID: id, Values: []float64{xp, float64(i)}, Policy: board.Best}); err != nil {
			return err
		}
	}
	return nil
}

package league

import (
	"fmt"
	"sync"
	"testing"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A league keeps its own copies of the tiers (and the cohorts' bounds) it
// is given and hands out copies from Options: a caller changing either
// slice changes no tier the league names, and no goroutine reading the
// league races with it.
func TestLeagueOwnsItsSlices(t *testing.T) {
	env := redistest.New(t)
	tiers := []string{"wood", "stone"}
	l := newLeague(t, env.Client, env.Prefix+"_owned", Options{Tiers: tiers})
	tiers[0] = "given"
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 200 {
			o := l.Options()
			o.Tiers[0] = "returned"
		}
	})
	wg.Go(func() {
		for range 200 {
			if tier, err := l.Tier(t.Context(), "nobody"); err != nil || tier != "wood" {
				t.Errorf("Tier of a new member after the caller changed its slices: %q, %v; want wood", tier, err)
				return
			}
		}
	})
	wg.Wait()
}

// A cohort's board with CacheTop serves many goroutines at once: the
// cached reads of a board the league built (on the league's own client)
// share one command as a plain handle's do.
func TestCohortCachedTopConcurrentReaders(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	caching, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{env.Addr}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(caching.Close)
	l := newLeague(t, caching, env.Prefix+"_cachedcohort", Options{Board: board.Options{KeepTop: 5, CacheTop: true}})
	s := season(l, 0)
	for i := range 5 {
		if _, err := s.Submit(ctx, result(fmt.Sprint("p", i), float64(i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.Cohort(ctx, "p0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if l, err := c.Board.Top(ctx, 5); err != nil || len(l.Entries) != 5 {
					t.Errorf("a cohort's cached Top(5): %d entries, %v", len(l.Entries), err)
					return
				}
			}
		})
	}
	wg.Wait()
}

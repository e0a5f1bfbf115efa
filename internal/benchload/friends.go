package benchload

import (
	"context"
	"errors"
	"fmt"

	"github.com/tiebreak/tiebreak/board"
)

// A player's rank among friends on a large board: board.Among of 20 and of
// 1,000 ids (one script, one snapshot) against the N-Get approach (a Get
// per friend, one after the other: N round trips from N snapshots), for
// one caller. board's BenchmarkAmong runs it.
func init() {
	register(Workload{
		Num: 7, Name: "friends", Title: "7. Ranks among friends",
		RatioOf: "n-get's p50 / among's p50 (times faster for one caller), in the same round",
		Params: []Param{
			{Name: "friends-board", Usage: "entries of the friends workload's board", Full: "1e6", Quick: "1e4", Min: 1000, Max: 1e8},
			{Name: "friends", Usage: "sizes of the friends lists", Full: "20,1000", Quick: "20,1000", Min: 1, Max: 1000, List: true},
		},
		Rows:    func(c Config) int { return 2 * len(c.Ints("friends")) },
		Goals:   func(Config) int { return 0 },
		Prepare: prepareFriends,
	})
}

// The friends variants; FRBaseline is what ratios divide by.
const (
	FRAmong    = "among"
	FRBaseline = "n-get"
)

// prepareFriends loads a packed board and compares the two readers for
// every friends-list size.
func prepareFriends(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	size := int64(cfg.Int("friends-board"))
	b, err := board.New(ctx, env.Client, env.Prefix+"_w7_friends", Layout, board.Options{})
	if err != nil {
		return nil, err
	}
	f := &Fixture{Drop: b.Drop}
	rate, err := loadBoard(ctx, env, "friends: loading "+SizeLabel(size), b, size, LoadEntry)
	if err != nil {
		return f, err
	}
	f.Notes = friendsNotes(size, rate)
	var s seq
	for _, n64 := range cfg.Ints("friends") {
		n := int(n64)
		ids := func() []string {
			base, out := s.next(), make([]string, n)
			for j := range out {
				out[j] = IDOf(int64(pick(base*uint64(n)+uint64(j), int(size))))
			}
			return out
		}
		if err := checkFriends(ctx, b, ids()); err != nil {
			return f, err
		}
		f.Comparisons = append(f.Comparisons, Comparison{Name: fmt.Sprintf("friends%d", n), Case: fmt.Sprintf("friends%d %s", n, SizeLabel(size)),
			Baseline: FRBaseline, Metric: SpeedP50, Callers: 1, Variants: []Variant{
				{Name: FRAmong, Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
					_, err := b.Among(ctx, ids())
					return err
				}},
				{Name: FRBaseline, Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
					for _, id := range ids() {
						if _, err := b.Get(ctx, id); err != nil {
							return err
						}
					}
					return nil
				}},
			}})
	}
	return f, nil
}

// checkFriends makes sure both readers give every friend the same rank.
func checkFriends(ctx context.Context, b *board.Board, ids []string) error {
	l, err := b.Among(ctx, ids)
	if err != nil {
		return err
	}
	for _, e := range l.Entries {
		g, err := b.Get(ctx, e.ID)
		if err != nil || g.Rank != e.Rank {
			return errors.Join(err, fmt.Errorf("friends: %s has rank %d by Among, %d by Get", e.ID, e.Rank, g.Rank))
		}
	}
	return nil
}

// friendsNotes explains the section.
func friendsNotes(size int64, rate float64) []string {
	return []string{
		fmt.Sprintf("A packed board of %s entries (loaded at %.0f entries/s); each operation draws a new list of N ids on the board.", SizeLabel(size), rate),
		"among: board.Among, one read-only script (ZSCORE and ZRANK per id), one round trip, one snapshot. n-get: board.Get per id, one after the other: N round trips, N snapshots.",
	}
}

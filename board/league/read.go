package league

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// Cohort returns the member id's cohort of the season: one HGET, one
// round trip (then read the cohort's Board). A member with no result in
// the season is ErrNotFound. It refuses an empty id or one longer than
// the cohort boards' MaxIDLen (ErrArgument), sending nothing. Redis
// errors wrap ErrRedis.
func (s *Season) Cohort(ctx context.Context, id string) (Cohort, error) {
	if err := s.usable(ctx); err != nil {
		return Cohort{}, err
	}
	if o := s.l.opts.Board.Observer; o != nil {
		return observed.Call(ctx, o, s.op("Cohort"), errKinds, func(ctx context.Context) (Cohort, error) { return s.cohort(ctx, id) }, nil)
	}
	return s.cohort(ctx, id)
}

// cohort is Cohort.
func (s *Season) cohort(ctx context.Context, id string) (Cohort, error) {
	if err := s.l.checkID("Cohort", id); err != nil {
		return Cohort{}, err
	}
	p := s.l.partition(id)
	where, err := s.l.conn.HGet(ctx, s.l.partKey(p, s.w.Label+":placed"), id).ToString()
	if rdb.IsNil(err) {
		return Cohort{}, fmt.Errorf("league: %s: %s has no cohort in season %s: %w", s.l.name, clip.Quote(id), s.w.Label, ErrNotFound)
	}
	if err != nil {
		return Cohort{}, s.l.redisErr("cohort", err)
	}
	return s.cohortOf(p, where)
}

// Cohorts returns every cohort of tier in the season, partition after
// partition, each in the order it opened: one HGET per partition, in one
// round trip. It refuses a tier that is not the league's (ErrArgument).
// Redis errors wrap ErrRedis.
func (s *Season) Cohorts(ctx context.Context, tier string) ([]Cohort, error) {
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	if o := s.l.opts.Board.Observer; o != nil {
		return observed.Call(ctx, o, s.op("Cohorts"), errKinds, func(ctx context.Context) ([]Cohort, error) { return s.cohorts(ctx, tier) }, func(cs []Cohort, o observe.Outcome) observe.Outcome { return observed.Count(len(cs), o) })
	}
	return s.cohorts(ctx, tier)
}

// cohorts is Cohorts.
func (s *Season) cohorts(ctx context.Context, tier string) ([]Cohort, error) {
	t := s.l.tierIndex(tier)
	if t == 0 {
		return nil, fmt.Errorf("league: Cohorts: tier %q is not one of %q: %w", tier, s.l.opts.Tiers, ErrArgument)
	}
	c := s.l.conn
	res := c.DoMulti(ctx, func(pp *rdb.Pipe) {
		for p := range s.l.opts.Partitions {
			pp.HGet(s.l.partKey(p, s.w.Label+":cohorts"), strconv.Itoa(t))
		}
	})
	var out []Cohort
	for p, r := range res {
		n, err := r.AsInt64()
		if rdb.IsNil(err) {
			continue
		}
		if err != nil {
			return nil, s.l.redisErr("cohorts", err)
		}
		for i := 1; i <= int(n); i++ {
			co, err := s.cohortOf(p, strconv.Itoa(t)+":"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out = append(out, co)
		}
	}
	return out, nil
}

// tierIndex returns the tier's number, from 1; 0 for none.
func (l *League) tierIndex(tier string) int {
	for i, t := range l.opts.Tiers {
		if t == tier {
			return i + 1
		}
	}
	return 0
}

// Tier returns the tier of the member id's next first result: the
// lowest until a roll moved it. One HGET, one round trip. It refuses an
// id as Cohort does. Redis errors wrap ErrRedis.
func (l *League) Tier(ctx context.Context, id string) (string, error) {
	if err := l.usable(ctx); err != nil {
		return "", err
	}
	if o := l.opts.Board.Observer; o != nil {
		return observed.Call(ctx, o, l.op("Tier"), errKinds, func(ctx context.Context) (string, error) { return l.tier(ctx, id) }, nil)
	}
	return l.tier(ctx, id)
}

// tier is Tier.
func (l *League) tier(ctx context.Context, id string) (string, error) {
	if err := l.checkID("Tier", id); err != nil {
		return "", err
	}
	t, err := l.conn.HGet(ctx, l.partKey(l.partition(id), "tiers"), id).AsInt64()
	if rdb.IsNil(err) {
		return l.opts.Tiers[0], nil
	}
	if err != nil {
		return "", l.redisErr("tier", err)
	}
	if t < 1 || int(t) > len(l.opts.Tiers) {
		return "", fmt.Errorf("league: %s: stored tier %d of %s: %w", l.name, t, clip.Quote(id), ErrRedis)
	}
	return l.opts.Tiers[t-1], nil
}

// History returns the member id's cohort in every season it competed in,
// oldest first: its tier, its index and its board, whose entries are the
// cohort's final standings once the season is rolled (until the season's
// boards expire, Retention after its end). Two round trips (the
// partition's seasons, then the member's placement in each); the boards'
// handles cost none. It refuses an id as Cohort does. Redis errors wrap
// ErrRedis.
func (l *League) History(ctx context.Context, id string) ([]Cohort, error) {
	if err := l.usable(ctx); err != nil {
		return nil, err
	}
	if o := l.opts.Board.Observer; o != nil {
		return observed.Call(ctx, o, l.op("History"), errKinds, func(ctx context.Context) ([]Cohort, error) { return l.history(ctx, id) }, func(ps []Cohort, o observe.Outcome) observe.Outcome { return observed.Count(len(ps), o) })
	}
	return l.history(ctx, id)
}

// history is History.
func (l *League) history(ctx context.Context, id string) ([]Cohort, error) {
	if err := l.checkID("History", id); err != nil {
		return nil, err
	}
	p, c := l.partition(id), l.conn
	seasons, err := c.Do(ctx, func(pp *rdb.Pipe) { pp.ZRange(l.partKey(p, "seasons"), 0, -1) }).AsStrSlice()
	if err != nil || len(seasons) == 0 {
		return nil, l.redisErr("history", err)
	}
	res := c.DoMulti(ctx, func(pp *rdb.Pipe) {
		for _, label := range seasons {
			pp.HGet(l.partKey(p, label+":placed"), id)
		}
	})
	var out []Cohort
	for i, r := range res {
		where, err := r.ToString()
		if rdb.IsNil(err) {
			continue
		}
		if err != nil {
			return nil, l.redisErr("history", err)
		}
		s := &Season{l: l, w: board.Window{Label: seasons[i]}}
		co, err := s.cohortOf(p, where)
		if err != nil {
			return nil, err
		}
		out = append(out, co)
	}
	return out, nil
}

// checkID refuses, for op, an id the cohort boards would refuse: empty, or
// longer than their MaxIDLen (ErrArgument).
func (l *League) checkID(op, id string) error {
	if n := l.maxIDLen; id == "" || len(id) > n {
		return fmt.Errorf("league: %s: id of %d bytes out of range [1, %d]: %w", op, len(id), n, ErrArgument)
	}
	return nil
}

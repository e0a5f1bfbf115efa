package league

import (
	"context"
	"strconv"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Drop removes the whole league: every season's cohort boards (each with
// board's Drop, one script each), placements, cohorts and roll marks, the
// members' tiers, and the league's descriptor, partition after
// partition. It is not one atomic step: stop writing to the league
// first; a Drop cut short is finished by calling it again. Round trips:
// per partition, one read, then one per season and two per cohort board
// (board's Drop), then one removal; then one.
// The results of writes remembered under request ids are forgotten and
// left to expire, as board's Drop leaves them. Redis errors wrap ErrRedis.
func (l *League) Drop(ctx context.Context) error {
	if err := l.usable(ctx); err != nil {
		return err
	}
	if o := l.opts.Board.Observer; o != nil {
		return observed.Do(ctx, o, l.op("Drop"), errKinds, l.drop)
	}
	return l.drop(ctx)
}

func (l *League) drop(ctx context.Context) error {
	c := l.conn
	o := l.opts.Board
	o.Observer = nil // the Drop's own span covers its cohorts'
	for p := range l.opts.Partitions {
		seasons, err := c.Do(ctx, func(pp *rdb.Pipe) { pp.ZRange(l.partKey(p, "seasons"), 0, -1) }).AsStrSlice()
		if err != nil {
			return l.redisErr("drop", err)
		}
		keys := []string{l.partKey(p, "league"), l.partKey(p, "tiers")}
		for _, label := range seasons {
			counts, err := c.Do(ctx, func(pp *rdb.Pipe) { pp.HGetAll(l.partKey(p, label+":cohorts")) }).AsStrMap()
			if err != nil {
				return l.redisErr("drop", err)
			}
			for t := 1; t <= len(l.opts.Tiers); t++ {
				n, _ := strconv.Atoi(counts[strconv.Itoa(t)])
				for i := 1; i <= n; i++ {
					b, err := l.cohortHandle(p, label, t, i, o)
					if err != nil {
						return err
					}
					if err := b.Drop(ctx); err != nil {
						return err
					}
				}
			}
			keys = append(keys, l.partKey(p, label+":placed"), l.partKey(p, label+":cohorts"), l.partKey(p, label+":rolled"))
		}
		// The seasons last: a Drop cut short finds them again.
		keys = append(keys, l.partKey(p, "seasons"))
		if err := c.Do(ctx, func(pp *rdb.Pipe) { pp.Unlink(keys...) }).Error(); err != nil {
			return l.redisErr("drop", err)
		}
	}
	return l.redisErr("drop", c.Do(ctx, func(pp *rdb.Pipe) { pp.Unlink("tb:{" + l.name + "}:league") }).Error())
}

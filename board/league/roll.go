package league

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
)

var (
	closeScript  = luascript.New(luascript.MustAssemble(luaFiles, "lua", "league: close", nil, "close"))
	applyScript  = luascript.New(luascript.MustAssemble(luaFiles, "lua", "league: apply", nil, "apply"))
	finishScript = luascript.New(luascript.MustAssemble(luaFiles, "lua", "league: finish", nil, "finish"))
)

// faultPoint, when set (by tests only), runs at every step of a roll:
// "close" (a partition closed), "cohort" (a cohort applied), "finish" (a
// partition marked rolled).
var faultPoint func(step string)

func atStep(step string) {
	if faultPoint != nil {
		faultPoint(step)
	}
}

// Roll ends the season: in each partition it closes the season (no write
// of it is accepted after), then for each cohort ranks its members in
// the board's order and records the next tier of those the promotion
// and demotion zones move (Options.Promote, Options.Demote), the cohort
// marked rolled in the same script, then marks the partition rolled.
// Each cohort is applied exactly once, however many processes roll at
// once; a roll cut short (a killed process, a lost connection) leaves
// every step done or not, and resumes when Roll is called again (or when
// a member's first result of a later season rolls its partition). It
// does not check that the season has ended: a season rolled early is
// closed early.
//
// A step that fails because Redis restarted or failed over starts the
// partition's roll again (each step is idempotent), for up to 30
// seconds. The steps do not wait for replicas: a failover loses the
// last steps the dead master had not replicated, in order, and the roll
// (or the next one, or the next season's first placement) does them
// again from what the new master holds.
//
// Round trips: per partition, one to close, one read and one write per
// cohort, one to finish. Redis errors wrap ErrRedis.
func (s *Season) Roll(ctx context.Context) error {
	if err := s.usable(ctx); err != nil {
		return err
	}
	if o := s.l.opts.Board.Observer; o != nil {
		return observed.Do(ctx, o, s.op("Roll"), errKinds, s.roll)
	}
	return s.roll(ctx)
}

func (s *Season) roll(ctx context.Context) error {
	for p := range s.l.opts.Partitions {
		if err := s.l.rollPartition(ctx, p, s.w.Label); err != nil {
			return err
		}
	}
	return nil
}

// rideOutFor bounds how long a roll goes on trying while Redis is
// unreachable or lost a reply: a restart, or a failover (a replica takes
// over a few seconds after its master dies).
const rideOutFor = 30 * time.Second

// rollPartition rolls season label in partition p, starting again while
// a step fails because Redis could not be reached, lost the connection
// before a reply or did not replicate a step in time (every step is
// idempotent), until rideOutFor has passed or ctx ends.
func (l *League) rollPartition(ctx context.Context, p int, label string) error {
	deadline := time.Now().Add(rideOutFor)
	for {
		err := l.rollPartitionOnce(ctx, p, label)
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// transient reports an error that a restart or a failover causes: a
// step the dead master acknowledged and did not replicate is lost, with
// every step after it (replication keeps their order), and the roll
// starts again from the state the new master holds.
func transient(err error) bool {
	return rdb.ConnectionLost(err) || errors.Is(err, errStepLost)
}

// errStepLost reports a partition whose finish found a cohort not rolled
// after the roll applied every one: a failover lost the step.
var errStepLost = errors.New("a step of the roll was lost")

// rollPartitionOnce rolls season label in partition p.
func (l *League) rollPartitionOnce(ctx context.Context, p int, label string) error {
	keyM, keyC, keyR := l.partKey(p, "league"), l.partKey(p, label+":cohorts"), l.partKey(p, label+":rolled")
	counts, err := l.conn.Run(ctx, closeScript, []string{keyM, keyC}, []string{label}).AsStrMap()
	if err != nil {
		return l.redisErr("roll: close", err)
	}
	atStep("close")
	for t := 1; t <= len(l.opts.Tiers); t++ {
		n, _ := strconv.Atoi(counts[strconv.Itoa(t)])
		for i := 1; i <= n; i++ {
			if err := l.rollCohort(ctx, p, label, t, i); err != nil {
				return err
			}
			atStep("cohort")
		}
	}
	done, err := l.conn.Run(ctx, finishScript, []string{keyM, keyC, keyR}, []string{label}).AsInt64()
	if err != nil {
		return l.redisErr("roll: finish", err)
	}
	if done != 1 {
		return fmt.Errorf("league: %s: roll of %s: a cohort of partition %d is not rolled: %w: %w", l.name, label, p, errStepLost, ErrRedis)
	}
	atStep("finish")
	return nil
}

// rollCohort applies the zones of cohort i of tier t: its standings are
// final (the season is closed), so racing rollers compute the same moves,
// and apply.lua applies them once.
func (l *League) rollCohort(ctx context.Context, p int, label string, t, i int) error {
	o := l.opts.Board
	o.Observer = nil // the roll's own span covers its reads
	b, err := l.cohortHandle(p, label, t, i, o)
	if err != nil {
		return err
	}
	top, err := b.Top(ctx, l.opts.CohortSize)
	if err != nil {
		return fmt.Errorf("league: %s: roll of %s: cohort %s: %w", l.name, label, b.Name(), err)
	}
	args := []string{label, strconv.Itoa(t) + ":" + strconv.Itoa(i)}
	for _, m := range l.moves(t, len(top.Entries)) {
		args = append(args, top.Entries[m.rank].ID, strconv.Itoa(m.tier))
	}
	_, err = l.conn.Run(ctx, applyScript, []string{l.partKey(p, "tiers"), l.partKey(p, label+":rolled"), l.partKey(p, "league")}, args).AsInt64()
	if err != nil && strings.Contains(err.Error(), "TBLEAGUE open") {
		return fmt.Errorf("league: %s: roll of %s: the season is not closed: %w", l.name, label, ErrRedis)
	}
	return l.redisErr("roll: apply", err)
}

// move is one member a roll moves: its index in the cohort's standings
// (0 = best) and its next tier.
type move struct{ rank, tier int }

// moves returns the members a cohort of m members in tier t moves: the
// best Promote up (not from the highest tier), then the worst Demote of
// the others down (not from the lowest).
func (l *League) moves(t, m int) []move {
	var out []move
	up := 0
	if t < len(l.opts.Tiers) {
		up = l.opts.Promote.of(m)
		for r := range up {
			out = append(out, move{r, t + 1})
		}
	}
	if t > 1 {
		down := min(l.opts.Demote.of(m), m-up)
		for r := m - down; r < m; r++ {
			out = append(out, move{r, t - 1})
		}
	}
	return out
}

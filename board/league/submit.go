package league

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/internal/hook"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// Cohort is one cohort of a season: a board.
type Cohort struct {
	// Season is the season's label.
	Season string
	// Tier is the cohort's tier, by name.
	Tier string
	// Index numbers the cohort among its tier's in its partition, from 1.
	Index int
	// Partition is the cohort's partition, from 0.
	Partition int
	// Board is the cohort's board: read it (Top, Rank, Around, ...);
	// write through the league only.
	Board *board.Board
}

// Result is a write's result: the board's, and the member's cohort.
type Result struct {
	board.Result
	// Cohort is where the member competes this season.
	Cohort Cohort
}

// maxUnrolled bounds how many seasons before its own one Submit rolls.
const maxUnrolled = 3

// Submit writes s to its member's cohort of the season, placing the
// member first when it is its first result of the season (see the
// package doc): one script, atomic, one round trip. When the member's
// partition has not rolled the season before, Submit rolls that
// partition's part of it first (Roll's steps, once) and writes again.
//
// A RequestID is remembered in the member's partition, as a sharded
// board remembers it on the entry's shard: one used again for another
// member is refused (ErrArgument) only when both members share a
// partition. Keep request ids unique per write.
//
// It refuses what board's Submit refuses (ErrArgument, values the layout
// refuses: nothing written, no placement), and a season closed (rolled,
// or older than its partition's latest: ErrClosed). Redis errors wrap
// ErrRedis.
func (s *Season) Submit(ctx context.Context, sub board.Submission) (Result, error) {
	if err := s.usable(ctx); err != nil {
		return Result{}, err
	}
	if o := s.l.opts.Board.Observer; o != nil {
		op := s.op("Submit")
		op.Policy = hook.PolicyName(sub)
		return observed.Call(ctx, o, op, errKinds, func(ctx context.Context) (Result, error) { return s.submit(ctx, sub) }, resultOutcome)
	}
	return s.submit(ctx, sub)
}

// op describes the operation name of the season ("Season." .. name, as
// for a method of a type other than the package's main one): its object
// the league's name and the season's label.
func (s *Season) op(name string) observe.Op {
	o := s.l.op("Season." + name)
	o.Object += ":" + s.w.Label
	return o
}

// op describes the operation name of the league.
func (l *League) op(name string) observe.Op {
	return observe.Op{Package: "league", Name: name, Object: l.name, Strategy: l.opts.Board.Strategy.String()}
}

// resultOutcome reports a submission's stored rank, change and trim, as
// board's Submit reports them: when it succeeded, or was applied but not
// replicated.
func resultOutcome(r Result, o observe.Outcome) observe.Outcome {
	if o.Err != nil && !errors.Is(o.Err, board.ErrNotReplicated) {
		return o
	}
	o.Rank, o.Changed, o.Trimmed = r.Entry.Rank, r.Changed, r.Trimmed
	o.Has |= observe.HasRank | observe.HasChanged | observe.HasTrimmed
	return o
}

func (s *Season) submit(ctx context.Context, sub board.Submission) (Result, error) {
	p := s.l.partition(sub.ID)
	req := ""
	if sub.RequestID != "" {
		req = s.l.partKey(p, s.w.Label+":r:"+sub.RequestID)
	}
	retention := s.l.retention
	args := []string{sub.ID, s.w.Label, strconv.FormatInt(s.w.Start.UnixMilli(), 10), s.l.group(p), req, strconv.FormatInt(retention.Milliseconds(), 10)}
	for range maxUnrolled + 1 {
		res, where, err := s.l.placed.Submit(ctx, s.keys(p), args, sub)
		refusal, season := leagueRefusal(err)
		switch {
		case refusal == "request":
			return Result{}, fmt.Errorf("league: %s: season %s: the request id was used for id %s: %w", s.l.name, s.w.Label, season, ErrArgument)
		case refusal == "unrolled":
			if err := s.l.rollPartition(ctx, p, season); err != nil {
				return Result{}, err
			}
			continue
		case refusal == "closed":
			return Result{}, fmt.Errorf("league: %s: season %s: %w", s.l.name, season, ErrClosed)
		case refusal != "":
			return Result{}, fmt.Errorf("league: %s: %v: %w", s.l.name, err, board.ErrReply)
		case err != nil:
			return Result{}, err
		}
		c, err := s.cohortOf(p, where)
		if err != nil {
			return Result{}, err
		}
		return Result{Result: res.(board.Result), Cohort: c}, nil
	}
	return Result{}, fmt.Errorf("league: %s: season %s: the seasons before it stayed unrolled: %w", s.l.name, s.w.Label, ErrRedis)
}

// leagueRefusal reads a TBLEAGUE error: its kind and season; "" for any
// other error.
func leagueRefusal(err error) (kind, season string) {
	text, ok := rdb.ErrorText(err)
	if !ok {
		return "", ""
	}
	f := strings.SplitN(text, " ", 3)
	if len(f) != 3 || f[0] != "TBLEAGUE" {
		return "", ""
	}
	return f[1], f[2]
}

// cohortOf returns the cohort "tier:n" of partition p.
func (s *Season) cohortOf(p int, where string) (Cohort, error) {
	t, n, ok := strings.Cut(where, ":")
	tier, err1 := strconv.Atoi(t)
	idx, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || tier < 1 || tier > len(s.l.opts.Tiers) || idx < 1 {
		return Cohort{}, fmt.Errorf("league: %s: stored cohort %q: %w", s.l.name, where, board.ErrReply)
	}
	b, err := s.l.cohortBoard(p, s.w.Label, tier, idx)
	if err != nil {
		return Cohort{}, err
	}
	return Cohort{Season: s.w.Label, Tier: s.l.opts.Tiers[tier-1], Index: idx, Partition: p, Board: b}, nil
}

// redisErr wraps a Redis error of op.
func (l *League) redisErr(op string, err error) error {
	return errs.FromRedis("league: "+l.name+": "+op, err)
}

package board

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Rules make a board a tournament: they are stored with the board, in its
// descriptor, and every write (Submit, SubmitMany, Update, a Group's
// Submit) checks them inside its own script, with the server's clock,
// before it writes anything. A write a rule refuses changes nothing and
// returns an error wrapping the rule's sentinel, which wraps ErrArgument.
// The zero value has no rule.
//
// A board with rules keeps one record per entrant (a member that joined
// or wrote) in the HASH tb:{name}:a: its scored attempts. A periodic
// board keeps one per window, so MaxAttempts counts per window; Start
// and End hold for every window, and a window's handle (Periodic.At)
// refuses writes and joins outside the window too (ErrClosed): each
// window is a round, stored with the window's rules, so that a handle
// from Open refuses as At's does. Remove keeps a member's record (it
// stays an entrant, its attempts spent); Clear and Drop remove every
// record with the entries.
//
// Rules are a board setting: New refuses a handle whose Rules differ from
// the stored ones (ErrMismatch), Open reads them, Migrate may change
// them (the entrants stay). A sharded board refuses Rules (ErrOptions):
// its members are spread over shards, and no one script counts them. An
// archive (Periodic.Archive) has none: it holds final standings.
type Rules struct {
	// Start is when the tournament opens: a write before it is refused
	// with ErrClosed. Joining is allowed before it. Default zero: open
	// from the start. Kept to the millisecond.
	Start time.Time

	// End is when the tournament closes: a write or a Join at or after it
	// is refused with ErrClosed. Default zero: it never closes. Must be
	// after Start. Kept to the millisecond.
	End time.Time

	// JoinRequired refuses a write for a member that has not joined (Join)
	// with ErrNotJoined. Default false: a member's first write makes it
	// an entrant.
	JoinRequired bool

	// MaxMembers is the most entrants: a write (or a Join) that would make
	// a new one beyond it is refused with ErrFull; the entrants keep
	// writing. A member already on the board when the rules were set
	// counts as one. Default 0: no limit. At most 2^53.
	MaxMembers int64

	// MaxAttempts is the most scored attempts of one member: each write
	// the rules accept is one, whether or not it changed the entry (an
	// Update's compare-and-set that lost writes nothing and is none). The
	// write beyond it is refused with ErrNoAttempts; Entrant says how many
	// remain. On a periodic board it counts per window. Default 0: no
	// limit. At most 2^53.
	MaxAttempts int64
}

// The refusals of a tournament's rules (Rules), each wrapping ErrArgument:
// the write changed nothing.
var (
	// ErrClosed reports a write before Rules.Start or at or after
	// Rules.End, or a Join at or after Rules.End, by the server's clock,
	// and the same outside its window on a periodic board's window; a
	// league's write to a season rolled.
	ErrClosed = errs.Invalid("competition closed")
	// ErrNotJoined reports a write for a member that has not joined a
	// board whose Rules.JoinRequired is set.
	ErrNotJoined = errs.Invalid("member has not joined")
	// ErrFull reports a write or a Join that would make an entrant beyond
	// Rules.MaxMembers.
	ErrFull = errs.Invalid("tournament full")
	// ErrNoAttempts reports a write of a member that has made
	// Rules.MaxAttempts scored attempts already.
	ErrNoAttempts = errs.Invalid("no attempts left")
)

// errNoRules reports Join or Entrant on a board without Rules.
var errNoRules = fmt.Errorf("the board has no Rules: %w", ErrArgument)

// maxRuleCount bounds Rules.MaxMembers and MaxAttempts: Lua's numbers are
// exact up to 2^53.
const maxRuleCount = 1 << 53

// Entrant is what a board with Rules knows of one member.
type Entrant struct {
	// ID is the member's id.
	ID string
	// Entered is true once the member joined (Join) or wrote.
	Entered bool
	// Attempts is how many scored attempts the member made (in the
	// window, on a periodic board).
	Attempts int64
	// AttemptsLeft is how many more the rules accept: Rules.MaxAttempts
	// less Attempts, or -1 when there is no MaxAttempts.
	AttemptsLeft int64
}

// set reports whether r holds any rule.
func (r Rules) set() bool { return r != Rules{} }

// check refuses rules no tournament could have (ErrOptions).
func (r Rules) check() error {
	switch {
	case r.Start.Before(time.UnixMilli(0)) && !r.Start.IsZero(), r.End.Before(time.UnixMilli(0)) && !r.End.IsZero():
		return fmt.Errorf("board: Options.Rules: Start %v, End %v: want zero or after 1970: %w", r.Start, r.End, ErrOptions)
	case !r.Start.IsZero() && !r.End.IsZero() && r.End.UnixMilli() <= r.Start.UnixMilli():
		return fmt.Errorf("board: Options.Rules: End %v is not after Start %v: %w", r.End, r.Start, ErrOptions)
	case r.MaxMembers < 0 || r.MaxMembers > maxRuleCount || r.MaxAttempts < 0 || r.MaxAttempts > maxRuleCount:
		return fmt.Errorf("board: Options.Rules: MaxMembers %d, MaxAttempts %d: want 0 (no limit) to 2^53: %w", r.MaxMembers, r.MaxAttempts, ErrOptions)
	}
	return nil
}

// rulesDescriptor is Rules as the descriptor stores them: times in Unix
// milliseconds, 0 for none.
type rulesDescriptor struct {
	Start        int64 `json:"start,omitempty"`
	End          int64 `json:"end,omitempty"`
	JoinRequired bool  `json:"joinRequired,omitempty"`
	MaxMembers   int64 `json:"maxMembers,omitempty"`
	MaxAttempts  int64 `json:"maxAttempts,omitempty"`
	// RoundStart and RoundEnd bound the round of a periodic board's
	// window (its window, Periodic.At), in Unix ms, so that a handle from
	// Open refuses writes outside it as one from At does; 0 elsewhere.
	RoundStart int64 `json:"roundStart,omitempty"`
	RoundEnd   int64 `json:"roundEnd,omitempty"`
}

// describeRules returns r, of a board whose round is round (zero but on
// a periodic board's window), as the descriptor stores it: nil for no
// rules.
func describeRules(r Rules, round Window) *rulesDescriptor {
	if !r.set() {
		return nil
	}
	d := &rulesDescriptor{JoinRequired: r.JoinRequired, MaxMembers: r.MaxMembers, MaxAttempts: r.MaxAttempts}
	if !round.Start.IsZero() {
		d.RoundStart, d.RoundEnd = round.Start.UnixMilli(), round.End.UnixMilli()
	}
	if !r.Start.IsZero() {
		d.Start = r.Start.UnixMilli()
	}
	if !r.End.IsZero() {
		d.End = r.End.UnixMilli()
	}
	return d
}

// rules returns the stored rules as Rules (times in UTC).
func (d *rulesDescriptor) rules() Rules {
	if d == nil {
		return Rules{}
	}
	r := Rules{JoinRequired: d.JoinRequired, MaxMembers: d.MaxMembers, MaxAttempts: d.MaxAttempts}
	if d.Start != 0 {
		r.Start = time.UnixMilli(d.Start).UTC()
	}
	if d.End != 0 {
		r.End = time.UnixMilli(d.End).UTC()
	}
	return r
}

// round returns the stored round: the zero Window but on a periodic
// board's window.
func (d *rulesDescriptor) round() Window {
	if d == nil || d.RoundStart == 0 {
		return Window{}
	}
	return Window{Start: time.UnixMilli(d.RoundStart).UTC(), End: time.UnixMilli(d.RoundEnd).UTC()}
}

// String describes the stored rules as the command prints them.
func (d *rulesDescriptor) String() string {
	if d == nil {
		return "none"
	}
	var parts []string
	if d.Start != 0 {
		parts = append(parts, "start "+time.UnixMilli(d.Start).UTC().Format(time.RFC3339Nano))
	}
	if d.End != 0 {
		parts = append(parts, "end "+time.UnixMilli(d.End).UTC().Format(time.RFC3339Nano))
	}
	if d.JoinRequired {
		parts = append(parts, "join required")
	}
	if d.MaxMembers > 0 {
		parts = append(parts, "at most "+strconv.FormatInt(d.MaxMembers, 10)+" members")
	}
	if d.MaxAttempts > 0 {
		parts = append(parts, "at most "+strconv.FormatInt(d.MaxAttempts, 10)+" attempts")
	}
	if d.RoundStart != 0 {
		parts = append(parts, "round "+time.UnixMilli(d.RoundStart).UTC().Format(time.RFC3339Nano)+" to "+time.UnixMilli(d.RoundEnd).UTC().Format(time.RFC3339Nano))
	}
	return strings.Join(parts, ", ")
}

// rulesConst is the RULES constant of the board's scripts (lua/submit.lua):
// false, or a table of the rules.
func (b *Board) rulesConst() string {
	d := b.desc.Rules
	if d == nil {
		return "false"
	}
	start, stop := d.Start, d.End
	if w := b.opts.round; !w.Start.IsZero() {
		start = max(start, w.Start.UnixMilli())
		if stop == 0 || w.End.UnixMilli() < stop {
			stop = w.End.UnixMilli()
		}
	}
	return fmt.Sprintf("{start = %d, stop = %d, join = %t, members = %d, attempts = %d}", start, stop, d.JoinRequired, d.MaxMembers, d.MaxAttempts)
}

// refusedByRule turns a script's rule refusal ("TBRULE <rule>") into its
// sentinel, or returns nil for any other text.
func (b *Board) refusedByRule(op, text string) error {
	_, rule, ok := strings.Cut(text, "TBRULE ")
	if !ok {
		return nil
	}
	rule, id, _ := strings.Cut(rule, " ")
	sentinel := map[string]error{"closed": ErrClosed, "notjoined": ErrNotJoined, "full": ErrFull, "attempts": ErrNoAttempts}[rule]
	if sentinel == nil {
		return nil
	}
	return fmt.Errorf("board: %s: %s: id %s: %s: %w", op, b.label(), id, b.desc.Rules, sentinel)
}

// Join makes each of ids an entrant of the board's tournament (Rules),
// all or none, in one atomic script (one round trip): a member that had
// joined or written already stays as it is. It refuses, joining none,
// a board without Rules or a sharded one (ErrArgument), an invalid id
// (ErrArgument), more than 10,000 ids (ErrArgument), a Join at or after
// Rules.End (ErrClosed), and ids that would make more entrants than
// Rules.MaxMembers (ErrFull). It writes the board's descriptor when the
// board has none yet (a window not yet written), as a write does. Redis
// errors wrap ErrRedis.
func (b *Board) Join(ctx context.Context, ids ...string) error {
	if err := b.usable(ctx); err != nil {
		return err
	}
	if b.opts.Observer != nil {
		return observed.Do(ctx, b.opts.Observer, b.op("Join", len(ids)), errKinds, func(ctx context.Context) error { return b.join(ctx, ids) })
	}
	return b.join(ctx, ids)
}

// maxJoin is the most ids one Join takes.
const maxJoin = 10_000

func (b *Board) join(ctx context.Context, ids []string) error {
	if b.sh != nil || !b.opts.Rules.set() {
		return fmt.Errorf("board: %s: Join: %w", b.label(), errNoRules)
	}
	if len(ids) == 0 || len(ids) > maxJoin {
		return fmt.Errorf("board: Join: len(ids) = %d out of range [1, %d]: %w", len(ids), maxJoin, ErrArgument)
	}
	expire, err := b.expireArg()
	if err != nil {
		return err
	}
	args := append(make([]string, 0, len(ids)+1), expire)
	for _, id := range ids {
		if err := b.checkID(id); err != nil {
			return err
		}
		args = append(args, id)
	}
	_, err = rdb.Durable(ctx, b.conn, b.opts.wait(), "board: join", func(c rdb.Conn) (struct{}, error) {
		return inGen(ctx, b, func(g *generation) (struct{}, error) {
			return struct{}{}, b.scriptErr("join", c.Run(ctx, g.scripts.join, g.keys.script, args).Error())
		})
	})
	return err
}

// Entrant returns what the board's tournament (Rules) knows of id: whether
// it entered and its attempts (in the current window, on a periodic
// board's handle for it). One HGET, one round trip; it may run on a
// replica. A member that never entered is an Entrant with Entered false,
// not an error. It refuses a board without Rules or a sharded one and an
// invalid id (ErrArgument). Redis errors wrap ErrRedis.
func (b *Board) Entrant(ctx context.Context, id string) (Entrant, error) {
	if err := b.usable(ctx); err != nil {
		return Entrant{}, err
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Entrant", 1), errKinds, func(ctx context.Context) (Entrant, error) { return b.entrant(ctx, id) }, nil)
	}
	return b.entrant(ctx, id)
}

func (b *Board) entrant(ctx context.Context, id string) (Entrant, error) {
	if b.sh != nil || !b.opts.Rules.set() {
		return Entrant{}, fmt.Errorf("board: %s: Entrant: %w", b.label(), errNoRules)
	}
	if err := b.checkID(id); err != nil {
		return Entrant{}, err
	}
	e := Entrant{ID: id, AttemptsLeft: -1}
	s, err := b.conn.HGet(ctx, b.prefix+"a", id).ToString()
	switch {
	case rdb.IsNil(err):
	case err != nil:
		return Entrant{}, redisErr("entrant", err)
	default:
		e.Entered = true
		if e.Attempts, err = strconv.ParseInt(s, 10, 64); err != nil {
			return Entrant{}, fmt.Errorf("board: entrant %s: attempts %q: %w", id, s, ErrReply)
		}
	}
	if m := b.opts.Rules.MaxAttempts; m > 0 {
		e.AttemptsLeft = max(m-e.Attempts, 0)
	}
	return e, nil
}

package board

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// maxGroup is the most boards one Group holds.
const maxGroup = 16

// Group writes one result to several boards in one call: a game's global,
// weekly and regional boards, say, each applying its own policy.
//
// Boards that set the same Options.Group share its hash tag, so a Group
// of them writes all of them in one atomic script and one round trip:
// every board's write is checked first (values, operators, stored
// descriptors), and nothing is written unless all of them can be. A Group
// of boards of different tags writes each board in its own script, all
// sent at once (one pipelined round trip), and is not atomic across them:
// each board's result or error is its own. Atomic says which.
//
// The group's calls are observed by its first board's Options.Observer,
// as one operation each (Group.Submit, Group.RemoveData).
//
// A Group is safe for concurrent use.
type Group struct {
	boards  []*Board
	atomic  bool
	scripts sync.Map // the boards' generations' constants -> *luascript.Script
}

// GroupSubmission is one result for every board of a group.
type GroupSubmission struct {
	// ID identifies the entry on every board.
	ID string
	// Data, when not nil, replaces the entry's member data: once in the
	// shared HASH for the boards with Options.SharedData, on each of the
	// others. Nil leaves it as it is.
	Data []byte
	// Entries hold, for each board of the group in order, the values,
	// policy and operators of its write, as a Submission's.
	Entries []GroupEntry
}

// GroupEntry is one board's part of a GroupSubmission.
type GroupEntry struct {
	// Values holds one value per field of the board's layout, as
	// Submission.Values.
	Values []float64
	// Policy combines Values with the board's stored entry, as
	// Submission.Policy. Default Replace.
	Policy Policy
	// Ops holds the PerField operators, as Submission.Ops.
	Ops []Op
}

// NewGroup returns a group of boards, written in the order given. It
// refuses (ErrOptions) no boards, more than 16, a nil board and one
// board twice. The group is atomic (see Group) when every board sets the
// same Options.Group and uses the same client: a periodic window of a
// Periodic built with that Group included (its current window: build the
// group again when the window turns, which costs no round trip).
func NewGroup(boards ...*Board) (*Group, error) {
	if len(boards) == 0 || len(boards) > maxGroup {
		return nil, fmt.Errorf("board: NewGroup: %d boards, want 1 to %d: %w", len(boards), maxGroup, ErrOptions)
	}
	seen := map[string]bool{}
	atomic := true
	for _, b := range boards {
		if b == nil {
			return nil, fmt.Errorf("board: NewGroup: a nil board: %w", ErrOptions)
		}
		if b.sh != nil {
			return nil, fmt.Errorf("board: NewGroup: board %q is sharded: its shards have hash tags of their own: %w", b.name, ErrOptions)
		}
		if seen[b.prefix] {
			return nil, fmt.Errorf("board: NewGroup: board %q given twice: %w", b.name, ErrOptions)
		}
		seen[b.prefix] = true
		atomic = atomic && b.opts.Group != "" && b.opts.Group == boards[0].opts.Group &&
			b.given == boards[0].given
	}
	return &Group{boards: boards, atomic: atomic}, nil
}

// Atomic reports whether Submit writes every board in one atomic script.
func (g *Group) Atomic() bool { return g.atomic }

// Submit writes s to every board of the group and returns one result per
// board, in order. It refuses, writing nothing: a number of entries other
// than the number of boards (ErrArgument), and what each board's Submit
// refuses (with the board's name). In an atomic group any refusal,
// including one only the script can see (an add that leaves a field's
// range), is the call's error and nothing is written; otherwise each
// board's error is in its ManyResult, the others written.
func (g *Group) Submit(ctx context.Context, s GroupSubmission) ([]ManyResult, error) {
	if o := g.boards[0].opts.Observer; o != nil {
		return observed.Call(ctx, o, g.op("Group.Submit"), errKinds, func(ctx context.Context) ([]ManyResult, error) { return g.submit(ctx, s) },
			func(rs []ManyResult, o observe.Outcome) observe.Outcome {
				if o.Err != nil {
					return o
				}
				return manyOutcome(rs, o)
			})
	}
	return g.submit(ctx, s)
}

// op describes the group's operation name: the first board's name and
// group, and the number of boards.
func (g *Group) op(name string) observe.Op {
	op := g.boards[0].op(name, len(g.boards))
	op.Strategy = ""
	return op
}

// submit is Submit.
func (g *Group) submit(ctx context.Context, s GroupSubmission) ([]ManyResult, error) {
	if len(s.Entries) != len(g.boards) {
		return nil, fmt.Errorf("board: group submit: %d entries for %d boards: %w", len(s.Entries), len(g.boards), ErrArgument)
	}
	subs := g.submissions(s)
	for i, b := range g.boards {
		if err := b.checkSubmission(subs[i]); err != nil {
			return nil, fmt.Errorf("board %s: %w", b.name, err)
		}
	}
	if !g.atomic {
		return g.submitEach(ctx, subs), nil
	}
	gens := make([]*generation, len(g.boards))
	for i, b := range g.boards {
		gens[i] = b.gen.Load()
	}
	for reloads := 0; ; reloads++ {
		out, err := g.submitAtomic(ctx, gens, subs)
		if !errors.Is(err, errStale) || reloads == maxReloads {
			return out, err
		}
		for i, b := range g.boards {
			if gens[i], err = b.reload(ctx, gens[i]); err != nil {
				return nil, err
			}
		}
	}
}

// submissions splits s into one Submission per board: the data goes to
// the first board that shares it and to every board that does not.
func (g *Group) submissions(s GroupSubmission) []Submission {
	subs := make([]Submission, len(g.boards))
	shared := false
	for i, b := range g.boards {
		e := s.Entries[i]
		subs[i] = Submission{ID: s.ID, Values: e.Values, Policy: e.Policy, Ops: e.Ops, Data: s.Data}
		if b.opts.SharedData {
			if shared {
				subs[i].Data = nil
			}
			shared = true
		}
	}
	return subs
}

// submitEach writes every board in its own script, all at once.
func (g *Group) submitEach(ctx context.Context, subs []Submission) []ManyResult {
	out := make([]ManyResult, len(g.boards))
	var wg sync.WaitGroup
	for i, b := range g.boards {
		wg.Go(func() {
			res, _, err := b.submit(ctx, subs[i], "", "", "")
			if err != nil {
				err = fmt.Errorf("board %s: %w", b.name, err)
			}
			out[i] = ManyResult{Result: res, Err: err}
		})
	}
	wg.Wait()
	return out
}

// submitAtomic writes every board in one script, in generations gens.
func (g *Group) submitAtomic(ctx context.Context, gens []*generation, subs []Submission) ([]ManyResult, error) {
	calls := make([]submitCall, len(g.boards))
	var keys, args []string
	for i, b := range g.boards {
		c, err := b.prepare(gens[i], subs[i], "", "", "")
		if err != nil {
			return nil, fmt.Errorf("board %s: %w", b.name, err)
		}
		c.keys = gens[i].keys.script // every key: the script's key counts are fixed
		calls[i] = c
		keys = append(keys, c.keys...)
		args = append(args, strconv.Itoa(len(c.args)))
	}
	for _, c := range calls {
		args = append(args, c.args...)
	}
	arr, err := g.script(gens).Exec(ctx, g.boards[0].client, keys, args).ToArray()
	if err != nil {
		return nil, g.scriptErr(err)
	}
	if len(arr) != len(g.boards) {
		return nil, fmt.Errorf("board: group reply of %d elements for %d boards: %w", len(arr), len(g.boards), ErrReply)
	}
	out := make([]ManyResult, len(g.boards))
	for i, b := range g.boards {
		res, _, err := b.finishMsg(calls[i], arr[i])
		if err != nil {
			return nil, fmt.Errorf("board %s: %w", b.name, err)
		}
		out[i] = ManyResult{Result: res}
	}
	return out, nil
}

// scriptErr reads an error of the group script: a board's refusal
// ("TBBOARD <i> <text>") becomes that board's error.
func (g *Group) scriptErr(err error) error {
	if rerr, ok := rueidis.IsRedisErr(err); ok {
		var i int
		if n, _ := fmt.Sscanf(rerr.Error(), "TBBOARD %d", &i); n == 1 && i >= 1 && i <= len(g.boards) {
			b := g.boards[i-1]
			text := strings.SplitN(rerr.Error(), " ", 3)[2]
			if known := b.refusal("group submit", text); known != nil {
				return fmt.Errorf("board %s: %w", b.name, known)
			}
			return fmt.Errorf("board %s: group submit: %s: %w", b.name, text, ErrReply)
		}
	}
	return redisErr("group submit", err)
}

// script returns the group script for the boards in generations gens.
func (g *Group) script(gens []*generation) *luascript.Script {
	var key strings.Builder
	for _, gen := range gens {
		fmt.Fprint(&key, gen.mig != nil, gen.consts)
	}
	if s, ok := g.scripts.Load(key.String()); ok {
		return s.(*luascript.Script)
	}
	s, _ := g.scripts.LoadOrStore(key.String(), luascript.New(groupSource(g.boards, gens)))
	return s.(*luascript.Script)
}

// groupSource writes the group script: a function per board (its
// constants and submit fragments), then group.lua.
func groupSource(boards []*Board, gens []*generation) string {
	var src strings.Builder
	funcs, nkeys := make([]string, len(boards)), make([]string, len(boards))
	for i, gen := range gens {
		mirror := "nomirror"
		if gen.mig != nil {
			mirror = "mirror"
		}
		body := luascript.MustAssemble(luaFiles, "lua", "board: group write of "+boards[i].name, gen.consts, "lookup", "side", mirror, "submit")
		funcs[i], nkeys[i] = "board_"+strconv.Itoa(i+1), strconv.Itoa(len(gen.keys.script))
		fmt.Fprintf(&src, "local function %s(KEYS, ARGV, CHECK)\n%send\n", funcs[i], body)
	}
	consts := []luascript.Const{
		{Name: "BOARDS", Value: "{" + strings.Join(funcs, ", ") + "}"},
		{Name: "NKEYS", Value: "{" + strings.Join(nkeys, ", ") + "}"},
	}
	src.WriteString(luascript.MustAssemble(luaFiles, "lua", "board: group", consts, "group"))
	return src.String()
}

// RemoveData removes the shared member data (Options.SharedData) of ids,
// which removing their entries leaves, and returns how many ids had some.
// It refuses no ids, more than 1000 and an invalid id (ErrArgument,
// ErrArgument), and a group whose boards share no data (ErrOptions).
func (g *Group) RemoveData(ctx context.Context, ids ...string) (int64, error) {
	if o := g.boards[0].opts.Observer; o != nil {
		op := g.op("Group.RemoveData")
		op.N = int64(len(ids))
		return observed.Call(ctx, o, op, errKinds, func(ctx context.Context) (int64, error) { return g.removeData(ctx, ids) }, observed.Count[int64])
	}
	return g.removeData(ctx, ids)
}

// removeData is RemoveData.
func (g *Group) removeData(ctx context.Context, ids []string) (int64, error) {
	var b *Board
	for _, x := range g.boards {
		if x.opts.SharedData {
			b = x
		}
	}
	if b == nil {
		return 0, fmt.Errorf("board: RemoveData: no board of the group shares its data: %w", ErrOptions)
	}
	if len(ids) == 0 || len(ids) > maxRemove {
		return 0, fmt.Errorf("board: RemoveData: len(ids) = %d out of range [1, %d]: %w", len(ids), maxRemove, ErrArgument)
	}
	for _, id := range ids {
		if err := b.checkID(id); err != nil {
			return 0, err
		}
	}
	n, err := b.client.Do(ctx, b.client.B().Hdel().Key(sharedDataKey(b.opts.Group)).Field(ids...).Build()).AsInt64()
	return n, redisErr("remove data", err)
}

package board

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/observe"
)

// maxGroup is the most boards one Group holds: a game's all-time and
// regional boards and half a year of weekly windows with their archives.
// Its script holds one function per kind of board with the same
// settings (not per board: groupFuncs).
const maxGroup = 64

// maxGroupRemovals bounds one Group.Remove's work, ids times boards, so
// that its script holds Redis no longer than the removal of 1,000 ids
// from 16 boards.
const maxGroupRemovals = 16 * maxRemove

// Group writes one result to several boards in one call, and removes ids
// from all of them: a game's global, weekly and regional boards, say,
// each applying its own policy.
//
// Every board of a Group sets the same Options.Group, so their keys
// share its hash tag and one script reaches all of them: each call is
// one atomic script and one round trip. Every board's part is checked
// first (values, policies, stored descriptors, the generation it is
// in), and nothing is written unless all of them can be. The group's
// calls wait for no replica (Options.WaitReplicas).
//
// The group's calls are observed by its first board's Options.Observer,
// as one operation each (Group.Submit, Group.Remove).
//
// A Group is safe for concurrent use.
type Group struct {
	boards  []*Board
	shared  bool     // some board keeps its member data in the group's shared HASH
	scripts sync.Map // the call and the boards' generations' constants -> *luascript.Script
}

// NewGroup returns a group of boards, written in the order given. It
// refuses (ErrOptions), changing nothing: no boards, more than 64, a nil
// board, one board twice, a sharded board (its shards have hash tags of
// their own), a board that sets no Options.Group, boards of different
// Options.Group, and boards of different clients. A periodic window of a
// Periodic built with the same Options.Group may be one of the boards
// (its current window: build the group again when the window turns,
// which costs no round trip). NewGroup does not talk to Redis.
func NewGroup(boards ...*Board) (*Group, error) {
	if len(boards) == 0 || len(boards) > maxGroup {
		return nil, fmt.Errorf("board: NewGroup: %d boards, want 1 to %d: %w", len(boards), maxGroup, ErrOptions)
	}
	seen := map[string]bool{}
	g := &Group{boards: slices.Clone(boards)} // the caller may change its slice
	for _, b := range boards {
		switch {
		case b == nil:
			return nil, fmt.Errorf("board: NewGroup: a nil board: %w", ErrOptions)
		case b.sh != nil:
			return nil, fmt.Errorf("board: NewGroup: board %q is sharded: its shards have hash tags of their own: %w", b.name, ErrOptions)
		case b.opts.Group == "":
			return nil, fmt.Errorf("board: NewGroup: board %q sets no Options.Group: %w", b.name, ErrOptions)
		case b.opts.Group != boards[0].opts.Group:
			return nil, fmt.Errorf("board: NewGroup: board %q is in group %q, board %q in %q: %w", b.name, b.opts.Group, boards[0].name, boards[0].opts.Group, ErrOptions)
		case !b.conn.Same(boards[0].conn):
			return nil, fmt.Errorf("board: NewGroup: board %q uses another client than board %q: %w", b.name, boards[0].name, ErrOptions)
		case seen[b.prefix]:
			return nil, fmt.Errorf("board: NewGroup: board %q given twice: %w", b.name, ErrOptions)
		}
		seen[b.prefix] = true
		g.shared = g.shared || b.opts.SharedData
	}
	return g, nil
}

// Submit writes subs, one Submission per board of the group in its
// order, each with the board's own values and policy (or Fields), in one
// atomic script and one round trip, and returns one result per board, in
// order (each ManyResult's Err is nil: a refusal is the call's error).
//
// Every Submission has the same ID. Member data is the entry's, not a
// board's: a Submission that sets Data (not nil) sets it for every board
// of the group, written once in the group's shared HASH for the boards
// with Options.SharedData and on each of the other boards; Submissions
// that set Data set the same bytes. When none sets it, every board's
// member data stays as it is.
//
// It refuses, writing nothing on any board: a number of Submissions other
// than the number of boards, Submissions of different IDs, Submissions
// setting different Data (ErrArgument); what each board's Submit refuses
// (the error names the board), including what only the script can see
// (an add that leaves a field's range, ErrArgument wrapping
// pack.ErrOverflow; a window's stored descriptor that differs,
// ErrMismatch). A board that migrated since its handle last looked is
// read again and the write sent again (nothing was written). Redis
// errors wrap ErrRedis.
func (g *Group) Submit(ctx context.Context, subs []Submission) ([]ManyResult, error) {
	if err := g.usable(ctx); err != nil {
		return nil, err
	}
	if o := g.boards[0].opts.Observer; o != nil {
		return observed.Call(ctx, o, g.op("Group.Submit"), errKinds, func(ctx context.Context) ([]ManyResult, error) { return g.submit(ctx, subs) },
			func(rs []ManyResult, o observe.Outcome) observe.Outcome {
				if o.Err != nil {
					return o
				}
				return manyOutcome(rs, o)
			})
	}
	return g.submit(ctx, subs)
}

// op describes the group's operation name: the first board's name and
// group, and the number of boards.
func (g *Group) op(name string) observe.Op {
	op := g.boards[0].op(name, len(g.boards))
	op.Strategy = ""
	return op
}

// submit is Submit.
func (g *Group) submit(ctx context.Context, in []Submission) ([]ManyResult, error) {
	subs, err := g.submissions(in)
	if err != nil {
		return nil, err
	}
	plans := make([]writePlan, len(g.boards))
	for i, b := range g.boards {
		if plans[i], err = b.plan(subs[i], nil); err != nil {
			return nil, inBoard(b, err)
		}
	}
	req, err := g.requestID(in)
	if err != nil {
		return nil, err
	}
	return inGroupGens(ctx, g, func(gens []*generation) ([]ManyResult, error) { return g.submitAtomic(ctx, gens, plans, req) })
}

// requestID returns the key remembering the request id of the group
// write in ("" for none): the submissions that carry one carry the same.
func (g *Group) requestID(in []Submission) (string, error) {
	rid := ""
	for _, s := range in {
		switch {
		case s.RequestID == "":
		case rid != "" && s.RequestID != rid:
			return "", fmt.Errorf("board: group submit: id %s: submissions carry different request ids: %w", clip.Quote(s.ID), ErrArgument)
		case len(s.RequestID) > maxRequestIDLen:
			return "", fmt.Errorf("board: group submit: request id of %d bytes, over %d: %w", len(s.RequestID), maxRequestIDLen, ErrArgument)
		default:
			rid = s.RequestID
		}
	}
	if rid == "" {
		return "", nil
	}
	b := g.boards[0]
	return b.requestKey("tb:{"+b.opts.Group+"}:", rid), nil
}

// submissions checks in (one Submission per board, one ID, one Data) and
// returns the Submission each board's part writes: the data goes to the
// first board that shares it and to every board that does not.
func (g *Group) submissions(in []Submission) ([]Submission, error) {
	if len(in) != len(g.boards) {
		return nil, fmt.Errorf("board: group submit: %d submissions for %d boards: %w", len(in), len(g.boards), ErrArgument)
	}
	var data []byte
	for i, s := range in {
		if s.ID != in[0].ID {
			return nil, fmt.Errorf("board: group submit: submission %d has id %s, submission 1 %s: %w", i+1, clip.Quote(s.ID), clip.Quote(in[0].ID), ErrArgument)
		}
		if s.Data == nil {
			continue
		}
		if data != nil && !bytes.Equal(data, s.Data) {
			return nil, fmt.Errorf("board: group submit: id %s: submissions set different data: %w", clip.Quote(s.ID), ErrArgument)
		}
		data = s.Data
	}
	subs := make([]Submission, len(in))
	shared := false
	for i, b := range g.boards {
		subs[i] = Submission{ID: in[i].ID, Values: in[i].Values, Policy: in[i].Policy, Fields: in[i].Fields, Data: data, Overtaken: in[i].Overtaken}
		if b.opts.SharedData {
			if shared {
				subs[i].Data = nil
			}
			shared = true
		}
	}
	return subs, nil
}

// inGroupGens runs op on the boards' current generations and, when op
// finds that one moved (errStale, nothing written), on the boards'
// generations read again, at most maxReloads times.
func inGroupGens[T any](ctx context.Context, g *Group, op func(gens []*generation) (T, error)) (T, error) {
	gens := make([]*generation, len(g.boards))
	for i, b := range g.boards {
		gens[i] = b.gen.Load()
	}
	for reloads := 0; ; reloads++ {
		out, err := op(gens)
		if !errors.Is(err, errStale) || reloads == maxReloads {
			return out, err
		}
		for i, b := range g.boards {
			if gens[i], err = b.reload(ctx, gens[i]); err != nil {
				var zero T
				return zero, err
			}
		}
	}
}

// submitAtomic writes every board's plan in one script, in generations
// gens.
func (g *Group) submitAtomic(ctx context.Context, gens []*generation, plans []writePlan, req string) ([]ManyResult, error) {
	argv := make([][]string, len(g.boards))
	var keys, args []string
	for i, b := range g.boards {
		a, err := b.scriptArgs(&plans[i])
		if err != nil {
			return nil, inBoard(b, err)
		}
		argv[i] = a
		keys = append(keys, gens[i].keys.script...) // every key: the script's key counts are fixed
		args = append(args, strconv.Itoa(len(a)))
	}
	for _, a := range argv {
		args = append(args, a...)
	}
	args = append(args, plans[0].id, req, strconv.FormatInt(g.boards[0].opts.RequestRetention.Milliseconds(), 10))
	at := 0
	for _, gen := range gens {
		args = append(args, strconv.Itoa(at+1+slices.Index(gen.keys.script, gen.keys.meta)))
		at += len(gen.keys.script)
	}
	arr, err := g.boards[0].conn.Run(ctx, g.script("submit", gens, groupSource), keys, args).ToArray()
	if err != nil {
		return nil, g.scriptErr(err)
	}
	if len(arr) != len(g.boards) {
		return nil, fmt.Errorf("board: group reply of %d elements for %d boards: %w", len(arr), len(g.boards), ErrReply)
	}
	out := make([]ManyResult, len(g.boards))
	for i, b := range g.boards {
		res, _, err := b.finishMsg(&plans[i], arr[i])
		if err != nil {
			return nil, inBoard(b, err)
		}
		out[i] = ManyResult{Result: res}
	}
	return out, nil
}

// scriptErr reads an error of the group write script: a board's refusal
// ("TBBOARD <i> <text>") becomes that board's error.
func (g *Group) scriptErr(err error) error {
	if lost := g.lookupLost(err); lost != nil {
		return lost
	}
	if text, ok := rdb.ErrorText(err); ok {
		var i int
		if n, _ := fmt.Sscanf(text, "TBBOARD %d", &i); n == 1 && i >= 1 && i <= len(g.boards) {
			b := g.boards[i-1]
			// Redis may have given a one-word error_reply of a board's
			// script the code ERR ("ERR TBMISMATCH").
			text := strings.TrimPrefix(strings.SplitN(text, " ", 3)[2], "ERR ")
			if known := b.refusal("group submit", text); known != nil {
				return inBoard(b, known)
			}
			return fmt.Errorf("board %s: group submit: %s: %w", b.label(), text, ErrReply)
		}
	}
	return redisErr("group submit", err)
}

// lookupLost is the error of a group script stopped by a board whose id
// lookup is gone (lookup.lua's check, "TBLOOKUP <key>"): that board's;
// nil for any other error.
func (g *Group) lookupLost(err error) error {
	text, ok := rdb.ErrorText(err)
	if !ok {
		return nil
	}
	key, ok := strings.CutPrefix(text, "TBLOOKUP ")
	if !ok {
		return nil
	}
	for _, b := range g.boards {
		if strings.HasPrefix(key, b.prefix) {
			return inBoard(b, fmt.Errorf("board: group write: %w", errLookupLost))
		}
	}
	return fmt.Errorf("board: group write: %w", errLookupLost)
}

// script returns the group script of kind ("submit" or "remove") for
// the boards in generations gens, built by source on first use.
func (g *Group) script(kind string, gens []*generation, source func([]*Board, []*generation) string) *luascript.Script {
	var key strings.Builder
	key.WriteString(kind)
	for _, gen := range gens {
		fmt.Fprint(&key, gen.mig != nil, gen.consts)
	}
	if s, ok := g.scripts.Load(key.String()); ok {
		return s.(*luascript.Script)
	}
	s, _ := g.scripts.LoadOrStore(key.String(), luascript.New(source(g.boards, gens)))
	return s.(*luascript.Script)
}

// groupSource writes the group write script: a function per board (its
// constants and submit fragments), then group.lua.
func groupSource(boards []*Board, gens []*generation) string {
	src, consts := groupFuncs(boards, gens, "(KEYS, ARGV, CHECK)", "group write", "lookup", "side", "keeptop", "mirror", "guard", "rules", "submit")
	src.WriteString(luascript.MustAssemble(luaFiles, "lua", "board: group", consts, "group"))
	return src.String()
}

// groupRemoveSource writes the group remove script: a function per board
// (its constants and remove fragments), then groupremove.lua.
func groupRemoveSource(boards []*Board, gens []*generation) string {
	src, consts := groupFuncs(boards, gens, "(KEYS, ARGV)", "group remove", "lookup", "side", "common", "keeptop", "mirror", "groupremoveboard")
	shared := false
	for _, b := range boards {
		shared = shared || b.opts.SharedData
	}
	consts = append(consts, luascript.Const{Name: "GROUPDATA", Value: strconv.FormatBool(shared)})
	src.WriteString(luascript.MustAssemble(luaFiles, "lua", "board: group remove", consts, "groupremove"))
	return src.String()
}

// groupFuncs writes one Lua function per kind of board of the group,
// board_1 ... board_k, with the parameters params: the board's constants
// in its generation and the fragments given ("mirror" standing for
// mirror.lua in a migrating board's function and nomirror.lua in the
// others'). Boards whose functions would be the same text (the windows
// of one periodic board without Rules, say) share one, so that the script
// grows with the kinds of boards in the group, not with their number. It
// returns them with the constants BOARDS (each board's function, in the
// group's order) and NKEYS (each board's number of keys).
func groupFuncs(boards []*Board, gens []*generation, params, title string, fragments ...string) (*strings.Builder, []luascript.Const) {
	funcs, nkeys := make([]string, len(boards)), make([]string, len(boards))
	var bodies []string       // each function's body, in order of first use
	users := [][]string{}     // the boards using each function
	named := map[string]int{} // function body -> its index in bodies
	for i, gen := range gens {
		frags := slices.Clone(fragments)
		if j := slices.Index(frags, "mirror"); j >= 0 && gen.mig == nil {
			frags[j] = "nomirror"
		}
		body := luascript.MustAssemble(luaFiles, "lua", "board: "+title+", one board's part", gen.consts, frags...)
		nkeys[i] = strconv.Itoa(len(gen.keys.script))
		k, ok := named[body]
		if !ok {
			k = len(bodies)
			named[body] = k
			bodies, users = append(bodies, body), append(users, nil)
		}
		funcs[i] = "board_" + strconv.Itoa(k+1)
		users[k] = append(users[k], strconv.Quote(boards[i].name))
	}
	var src strings.Builder
	for k, body := range bodies {
		// Names may hold any byte but a brace: each is quoted, so that
		// none ends the comment's line.
		fmt.Fprintf(&src, "-- %s\nlocal function board_%d%s\n%send\n", strings.Join(users[k], ", "), k+1, params, body)
	}
	return &src, []luascript.Const{
		{Name: "BOARDS", Value: "{" + strings.Join(funcs, ", ") + "}"},
		{Name: "NKEYS", Value: "{" + strings.Join(nkeys, ", ") + "}"},
	}
}

// Remove removes ids from every board of the group, each as the board's
// Remove does (its entry, its own member data, its rank indexes; a
// migrating board's target too, as its writes are mirrored), and from the
// group's shared member-data HASH (Options.SharedData: the data every
// board of the Options.Group that shares data reads, in this Group or
// not) when a board of the group shares data. It is one atomic script
// and one round trip, whatever each board's strategy, cap and dense
// ranks, and whether a board is a periodic window or migrating: every
// board finds its ids before any is written, and a board that moved to
// another generation since its handle last looked is read again and the
// call sent again (nothing was written). It waits for no replica.
//
// It returns the number of entries removed, counted once per board and
// id: an id on three boards counts 3; an id given twice counts once;
// shared member data removed does not count.
//
// It refuses, removing nothing: no ids or more than 1000, more than
// 16,000 ids times boards (1,000 ids from 16 boards, 250 from 64), and an
// id that any board of the group would refuse (ErrArgument). Redis errors
// wrap ErrRedis.
func (g *Group) Remove(ctx context.Context, ids ...string) (int64, error) {
	if err := g.usable(ctx); err != nil {
		return 0, err
	}
	if o := g.boards[0].opts.Observer; o != nil {
		op := g.op("Group.Remove")
		op.N = int64(len(ids))
		return observed.Call(ctx, o, op, errKinds, func(ctx context.Context) (int64, error) { return g.remove(ctx, ids) }, observed.Count[int64])
	}
	return g.remove(ctx, ids)
}

// remove is Remove.
func (g *Group) remove(ctx context.Context, ids []string) (int64, error) {
	if len(ids) == 0 || len(ids) > maxRemove {
		return 0, fmt.Errorf("board: group remove: len(ids) = %d out of range [1, %d]: %w", len(ids), maxRemove, ErrArgument)
	}
	if n := len(ids) * len(g.boards); n > maxGroupRemovals {
		return 0, fmt.Errorf("board: group remove: %d ids from %d boards, %d removals, over %d: remove fewer ids per call: %w", len(ids), len(g.boards), n, maxGroupRemovals, ErrArgument)
	}
	for _, b := range g.boards {
		for _, id := range ids {
			if err := b.checkID(id); err != nil {
				return 0, inBoard(b, err)
			}
		}
	}
	return inGroupGens(ctx, g, func(gens []*generation) (int64, error) {
		var keys []string
		for _, gen := range gens {
			keys = append(keys, gen.keys.script...)
		}
		if g.shared {
			keys = append(keys, sharedDataKey(g.boards[0].opts.Group))
		}
		ns, err := g.boards[0].conn.Run(ctx, g.script("remove", gens, groupRemoveSource), keys, ids).AsIntSlice()
		if err != nil {
			if lost := g.lookupLost(err); lost != nil {
				return 0, lost
			}
			return 0, redisErr("group remove", err)
		}
		if len(ns) != len(g.boards) {
			return 0, fmt.Errorf("board: group remove reply of %d counts for %d boards: %w", len(ns), len(g.boards), ErrReply)
		}
		var n int64
		for _, x := range ns {
			n += x
		}
		return n, nil
	})
}

// boardError is an error of one board of a group: it names the board as
// Open and the command do (group/name), once, before the board's own
// error, and wraps it.
type boardError struct {
	name string
	err  error
}

// inBoard returns err as an error of board b of a group.
func inBoard(b *Board, err error) error {
	return &boardError{name: fullName(b.opts.Group, b.name), err: err}
}

func (e *boardError) Error() string {
	return "board: " + e.name + ": " + strings.TrimPrefix(e.err.Error(), "board: ")
}

func (e *boardError) Unwrap() error { return e.err }

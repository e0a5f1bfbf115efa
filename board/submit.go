package board

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Policy says how a submission's values combine with the entry stored:
// for the whole entry (Submission.Policy) or field by field
// (Submission.Fields). For an id not yet on the board every policy stores
// the submitted values.
type Policy uint8

const (
	// Replace stores the submitted values whatever was there. The default.
	Replace Policy = iota
	// Best keeps the better of the stored and the submitted entry,
	// comparing whole tuples: (100,5) then (90,9) keeps (100,5), never a
	// mix of the two. It is a policy of the whole entry: Fields refuses it.
	Best
	// Add adds the submitted value (which may be negative) to the stored
	// one. A result outside the field's range is an error and changes
	// nothing; it never carries into the neighbouring field.
	Add
	// Max keeps the larger of the stored and submitted values, field by
	// field: (100,5) then (90,9) keeps (100,9).
	Max
	// Min keeps the smaller of the stored and submitted values.
	Min
	// Keep keeps the stored value. The submitted value must still be
	// valid: it is stored when the id is new.
	Keep
)

var policyNames = [...]string{Replace: "Replace", Best: "Best", Add: "Add", Max: "Max", Min: "Min", Keep: "Keep"}

// String returns the policy's name, such as "Replace" or "Add".
func (p Policy) String() string { return enumName(policyNames[:], "Policy", p) }

// policyCodes are submit.lua's codes of a whole-entry policy ("f": field
// by field), and fieldCodes those of a field's.
var policyCodes = [...]string{Replace: "r", Best: "b"}
var fieldCodes = [...]byte{Replace: 's', Add: 'a', Max: 'x', Min: 'n', Keep: 'k'}

// policyName is how an Observer is told s's policy: its Policy, or its
// Fields' joined by commas ("Add,Keep").
func policyName(s Submission) string {
	if s.Fields == nil {
		return s.Policy.String()
	}
	names := make([]string, len(s.Fields))
	for i, p := range s.Fields {
		names[i] = p.String()
	}
	return strings.Join(names, ",")
}

// Submission is one write.
type Submission struct {
	// ID identifies the entry: any bytes, 1 to MaxIDLen of them.
	ID string
	// Values holds one value per layout field, most significant first.
	Values []float64
	// Policy combines Values with the stored entry: Replace (the
	// default) or Best, comparing whole entries, or Add, Max, Min or Keep,
	// the same for every field: Add adds a time tie-break field too (a
	// time that grows with every write, until it leaves its range), so a
	// layout of points then a time adds with Fields {Add, Keep} (the
	// first write's time) or {Add, Replace} (the last one's).
	Policy Policy
	// Fields, when not nil, holds one policy per field, most significant
	// first: Replace, Add, Max, Min or Keep (Best compares whole entries:
	// refused here). Policy must then be Replace, its zero value. Default
	// nil: Policy for every field.
	Fields []Policy
	// Data, when not nil, replaces the entry's member data in the same
	// script: at most 64 KiB bytes. Nil leaves it as it is.
	Data []byte
	// RequestID, when not empty, makes the write idempotent: the first
	// write with it applies and is remembered, with its result, for
	// Options.RequestRetention; a write with it again within that time
	// (a retry after a timeout or a lost connection) writes nothing and
	// returns the first write's result, whatever the policy (Add adds
	// once). The request id and the write are one atomic step,
	// and so are replicated together. Request ids are the board's own
	// (a periodic board's window's): send a retry to the same board. A
	// request id used for another ID is refused (ErrArgument). Clear,
	// Drop, Migrate and Reshard forget the request ids remembered: a retry
	// after them writes again. On a sharded board the id is remembered on
	// the entry's shard, and a retry's Rank is the remembered entry's
	// rank over the shards now. At
	// most 200 bytes. Default "": none. Each remembered id costs Redis one
	// key of about 140 bytes (MEMORY USAGE), deleted when its time is up;
	// Clear and Drop forget every one.
	RequestID string
	// Overtaken asks the write for the ids its entry passed, at most
	// Overtaken of them, best first, in Result.Overtaken: those ranked
	// before the entry's old place and after its new one (for a new
	// entry, those now right behind it), in the same script and round
	// trip. 0 to 100; default 0: none. A sharded board refuses it
	// (ErrArgument): no one shard's script sees the others' entries.
	Overtaken int

	dropData bool // with Data nil: remove the member data (a resharding's copy)
}

// Result is what a write stored.
type Result struct {
	// Entry is the entry as stored after the write, with its new ordinal
	// rank (0 when the cap trimmed it away at once).
	Entry Entry
	// Changed reports whether the entry's values changed (or it is new).
	Changed bool
	// Trimmed reports that the cap removed the entry in the same write.
	Trimmed bool
	// Overtaken are the ids the entry passed, best first, when the
	// submission asked for them (Submission.Overtaken): nil otherwise.
	Overtaken []string
}

// Submit writes one entry in one atomic step and one round trip (on a
// sharded board, a second one reads the entry's rank on the other shards,
// unless Options.SkipWriteRank), and returns the stored entry, its rank
// and whether anything changed. The
// step is a script, or, for Replace and Best on a packed board that keeps
// nothing beside its entries (no dense ranks, cap, member data or expiry),
// Redis's own ZADD, ZSCORE and ZRANK in one MULTI/EXEC. Concurrent callers
// of one handle share those transactions under load: past 8 in flight,
// writes wait for one to end and go together, up to 64 in one MULTI/EXEC,
// each still its own atomic step. The same writes on a key-suffix board
// (a layout of two fields or more; one field writes as a packed board)
// run a lean script, shared the same way past 2 calls in flight, up to 64
// writes in one call, made in turn. A caller whose context ends while its
// write waits gets an error wrapping the context's error, and
// the write is not sent; except the first caller of a waiting batch, which
// sends it when its turn comes, its own context ended or not, so that the
// others' writes go.
//
// It refuses, changing nothing: an invalid id (ErrArgument); a wrong number of
// values or of Fields, a NaN, infinite, non-integer or out-of-range value,
// or an add whose result leaves the field's range (ErrArgument, wrapping
// pack.ErrOverflow for ranges); an unknown policy, Best in Fields, or
// Fields with a Policy other than Replace, member data over 64 KiB bytes
// (ErrArgument); a write to a periodic window
// past its retention (ErrArgument). Redis errors wrap ErrRedis; an error
// of ctx wraps ctx's error (context.Canceled, context.DeadlineExceeded).
//
// With Options.WaitReplicas, it returns once that many replicas hold the
// write; when fewer acknowledged it within Options.WaitTimeout, it
// returns the result with an error wrapping ErrNotReplicated.
//
// A write (Submit, SubmitMany, Update, a group's) to a board dropped
// since the handle read it stores the handle's descriptor with the entry,
// atomically: the board exists again, whole (see Drop). On a sharded
// board it is refused instead, with an error wrapping ErrNotFound.
func (b *Board) Submit(ctx context.Context, s Submission) (Result, error) {
	if err := b.usable(ctx); err != nil {
		return Result{}, err
	}
	if b.sh != nil {
		return b.sh.Submit(ctx, s)
	}
	if b.opts.Observer != nil {
		op := b.op("Submit", 0)
		op.Policy = policyName(s)
		return observed.Call(ctx, b.opts.Observer, op, errKinds, func(ctx context.Context) (Result, error) { return b.submitOne(ctx, s) }, resultOutcome)
	}
	return b.submitOne(ctx, s)
}

// submitOne is Submit.
func (b *Board) submitOne(ctx context.Context, s Submission) (Result, error) {
	p, err := b.plan(s, nil)
	if err != nil {
		return Result{}, err
	}
	if res, done, err := b.submitFast(ctx, &p); done {
		return res, err
	}
	res, conflict, err := b.submit(ctx, &p)
	if err == nil && conflict {
		err = fmt.Errorf("board: submit: unexpected conflict: %w", ErrReply)
	}
	return res, err
}

// submitFast is Submit's shortest path: a native write (see
// writePlan.nativeIn) that waits for no replica, sent at once or with
// other callers' (see combiner). done is false when the path does not
// apply, or when the board moved to another generation (nothing was
// written): submit then takes the write, reading the board again.
func (b *Board) submitFast(ctx context.Context, p *writePlan) (res Result, done bool, err error) {
	g := b.gen.Load()
	if b.opts.WaitReplicas != 0 || b.opts.WaitAOF {
		return Result{}, false, nil
	}
	lean := !p.nativeIn(g) && b.submitsLean(g, p)
	if !lean && !p.nativeIn(g) {
		return Result{}, false, nil
	}
	res, err = b.writeNative(ctx, g, p, lean)
	if errors.Is(err, errStale) {
		return Result{}, false, nil
	}
	return res, true, err
}

// submit writes p in b's generation, natively or with submit.lua;
// conflict is true when p's expectation did not hold.
func (b *Board) submit(ctx context.Context, p *writePlan) (Result, bool, error) {
	type out struct {
		res      Result
		conflict bool
	}
	o, err := rdb.Durable(ctx, b.conn, b.opts.wait(), "board: submit", func(client rdb.Conn) (out, error) {
		return inGen(ctx, b, func(g *generation) (out, error) {
			if p.nativeIn(g) {
				res, err := b.submitNative(ctx, client, g, p)
				return out{res: res}, err
			}
			if b.submitsLean(g, p) {
				res, err := b.submitLeanOne(ctx, client, g, p)
				return out{res: res}, err
			}
			args, err := b.scriptArgs(p)
			if err != nil {
				return out{}, err
			}
			res, conflict, err := b.finish(p, client.Run(ctx, g.scripts.submit, b.scriptKeys(g, p), args))
			if err == nil && conflict {
				err = errConflict // nothing written: no replica to wait for
			}
			return out{res, conflict}, err
		})
	})
	if errors.Is(err, errConflict) {
		return Result{}, true, nil
	}
	return o.res, o.conflict, err
}

// errConflict reports, inside submit, a compare-and-set that did not
// hold: the script wrote nothing.
var errConflict = errors.New("board: the entry changed since it was read")

package board

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/observed"
)

// Policy says how a submission combines with the entry already stored.
type Policy uint8

const (
	// Replace stores the submitted values whatever was there. The default.
	Replace Policy = iota
	// Best keeps the better of the stored and the submitted entry,
	// comparing whole tuples: (100,5) then (90,9) keeps (100,5), never a
	// mix of the two.
	Best
	// PerField applies Submission.Ops, one operator per field.
	PerField
)

var policyNames = [...]string{Replace: "Replace", Best: "Best", PerField: "PerField"}

// String returns the policy's name: "Replace", "Best" or "PerField".
func (p Policy) String() string { return enumName(policyNames[:], "Policy", p) }

// Op is a per-field operator of the PerField policy. For an id not yet on
// the board every operator stores the submitted value.
type Op uint8

const (
	// OpSet stores the submitted value. The default.
	OpSet Op = iota
	// OpAdd adds the submitted value (which may be negative) to the stored
	// one. A result outside the field's range is an error and changes
	// nothing; it never carries into the neighbouring field.
	OpAdd
	// OpMax keeps the larger of the stored and submitted values.
	OpMax
	// OpMin keeps the smaller of the stored and submitted values.
	OpMin
	// OpKeep keeps the stored value. The submitted value must still be
	// valid: it is stored when the id is new.
	OpKeep
)

var opNames = [...]string{OpSet: "OpSet", OpAdd: "OpAdd", OpMax: "OpMax", OpMin: "OpMin", OpKeep: "OpKeep"}

// String returns the operator's name, such as "OpAdd".
func (o Op) String() string { return enumName(opNames[:], "Op", o) }

var policyCodes = [...]string{Replace: "r", Best: "b", PerField: "f"}
var opCodes = [...]byte{OpSet: 's', OpAdd: 'a', OpMax: 'x', OpMin: 'n', OpKeep: 'k'}

// Submission is one write.
type Submission struct {
	// ID identifies the entry: any bytes, 1 to MaxIDLen of them.
	ID string
	// Values holds one value per layout field, most significant first.
	Values []float64
	// Policy combines Values with the stored entry. Default Replace.
	Policy Policy
	// Ops holds one operator per field for the PerField policy; nil means
	// OpSet for every field. Other policies refuse it (ErrArgument).
	Ops []Op
	// Data, when not nil, replaces the entry's member data in the same
	// script: at most 64 KiB bytes. Nil leaves it as it is.
	Data []byte

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
}

// Submit writes one entry in one atomic step and one round trip, and
// returns the stored entry, its rank and whether anything changed. The
// step is a script, or, for Replace and Best on a packed board that keeps
// nothing beside its entries (no dense ranks, cap, member data or expiry),
// Redis's own ZADD, ZSCORE and ZRANK in one MULTI/EXEC. Concurrent callers
// of one handle share those transactions under load: past 8 in flight,
// writes wait for one to end and go together, up to 64 in one MULTI/EXEC,
// each still its own atomic step. A caller whose context ends while its
// write waits gets an error wrapping the context's error, and
// the write is not sent; except the first caller of a waiting batch, which
// sends it when its turn comes, its own context ended or not, so that the
// others' writes go.
//
// It refuses, changing nothing: an invalid id (ErrArgument); a wrong number of
// values or operators, a NaN, infinite, non-integer or out-of-range value,
// or an add whose result leaves the field's range (ErrArgument, wrapping
// pack.ErrOverflow for ranges); an unknown policy or operator, or
// operators without PerField, member data over 64 KiB bytes
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
	if b.sh != nil {
		return b.sh.Submit(ctx, s)
	}
	if b.opts.Observer != nil {
		op := b.op("Submit", 0)
		op.Policy = s.Policy.String()
		return observed.Call(ctx, b.opts.Observer, op, errKinds, func(ctx context.Context) (Result, error) { return b.submitOne(ctx, s) }, resultOutcome)
	}
	return b.submitOne(ctx, s)
}

// submitOne is Submit.
func (b *Board) submitOne(ctx context.Context, s Submission) (Result, error) {
	if res, done, err := b.submitFast(ctx, s); done {
		return res, err
	}
	res, conflict, err := b.submit(ctx, s, "", "", "")
	if err == nil && conflict {
		err = fmt.Errorf("board: submit: unexpected conflict: %w", ErrReply)
	}
	return res, err
}

// submitFast is Submit's shortest path: a native write (see native) that
// waits for no replica, sent at once or with other callers' (see
// combiner). done is false when the path does not
// apply, or when the board moved to another generation (nothing was
// written): submit then takes the write, reading the board again.
func (b *Board) submitFast(ctx context.Context, s Submission) (res Result, done bool, err error) {
	g := b.gen.Load()
	if b.opts.WaitReplicas != 0 || b.opts.WaitAOF || !b.native(g, s, "") {
		return Result{}, false, nil
	}
	if err := b.checkSubmission(s); err != nil {
		return Result{}, true, err
	}
	score, _, err := b.encode(s.ID, s.Values)
	if err != nil {
		return Result{}, true, err
	}
	res, err = b.writeNative(ctx, g, s, score)
	if errors.Is(err, errStale) {
		return Result{}, false, nil
	}
	return res, true, err
}

// submit runs submit.lua for s with the expectation given (see prepare)
// in b's generation; conflict is true when the expectation did not hold.
func (b *Board) submit(ctx context.Context, s Submission, expect, expScore, expMember string) (Result, bool, error) {
	type out struct {
		res      Result
		conflict bool
	}
	o, err := durable.Write(ctx, b.client, b.opts.wait(), "board: submit", func(client rueidis.Client) (out, error) {
		return inGen(ctx, b, func(g *generation) (out, error) {
			if b.native(g, s, expect) {
				if err := b.checkSubmission(s); err != nil {
					return out{}, err
				}
				res, err := b.submitNative(ctx, client, g, s)
				return out{res: res}, err
			}
			c, err := b.prepare(g, s, expect, expScore, expMember)
			if err != nil {
				return out{}, err
			}
			res, conflict, err := b.finish(c, g.scripts.submit.Exec(ctx, client, c.keys, c.args))
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

// submitCall is one call of submit.lua, ready to send.
type submitCall struct {
	s    Submission
	keys []string
	args []string
}

// prepare validates s and builds submit.lua's KEYS and ARGV. For Replace
// and Best the new stored score and member are computed here; the script
// computes them only for the per-field operators, which need the old
// values. The member-data key is left out when nothing can touch it.
func (b *Board) prepare(g *generation, s Submission, expect, expScore, expMember string) (submitCall, error) {
	if err := b.checkSubmission(s); err != nil {
		return submitCall{}, err
	}
	expire, err := b.expireArg()
	if err != nil {
		return submitCall{}, err
	}
	third, fourth := b.opsString(s), ""
	if s.Policy != PerField {
		score, member, err := b.encode(s.ID, s.Values)
		if err != nil {
			return submitCall{}, err
		}
		third, fourth = fmtFloat(score), member
	}
	c := submitCall{s: s, keys: g.keys.script}
	c.args = []string{s.ID, policyCodes[s.Policy], third, fourth}
	if s.Data == nil && !s.dropData && expire == "0" && b.opts.Cap == 0 && b.fence == "" {
		c.keys = g.keys.lean()
	}
	if expect == "" && s.Data == nil && !s.dropData && s.Policy != PerField && expire == "0" && b.fence == "" {
		return c, nil // the common case: no optional arguments (a fenced write's script reads its expire-at)
	}
	c.args = append(c.args, expire)
	hasData := ""
	if s.Data != nil {
		hasData = "1"
	} else if s.dropData {
		hasData = "0"
	}
	c.args = append(c.args, expect, expScore, expMember, hasData, string(s.Data))
	if s.Policy == PerField {
		for _, v := range s.Values {
			c.args = append(c.args, fmtFloat(v))
		}
	}
	return c, nil
}

func (b *Board) checkSubmission(s Submission) error {
	if err := b.checkID(s.ID); err != nil {
		return err
	}
	if len(s.Data) > maxDataLen {
		return fmt.Errorf("board: id %s: %d bytes of data, over maxDataLen = %d: %w", clip.Quote(s.ID), len(s.Data), maxDataLen, ErrArgument)
	}
	if int(s.Policy) >= len(policyCodes) {
		return fmt.Errorf("board: unknown policy %v, want Replace, Best or PerField: %w", s.Policy, ErrArgument)
	}
	n := b.layout.Len()
	if len(s.Values) != n {
		return fmt.Errorf("board: %d values for %d fields: %w", len(s.Values), n, errValue)
	}
	if s.Policy != PerField && s.Ops != nil {
		return fmt.Errorf("board: operators given with policy %v; they need PerField: %w", s.Policy, ErrArgument)
	}
	if s.Policy == PerField && s.Ops != nil && len(s.Ops) != n {
		return fmt.Errorf("board: %d operators for %d fields: %w", len(s.Ops), n, errValue)
	}
	for i, v := range s.Values {
		if err := b.checkFieldArg(s, i, v); err != nil {
			return err
		}
	}
	return nil
}

func (b *Board) checkFieldArg(s Submission, i int, v float64) error {
	op := OpSet
	if s.Policy == PerField && s.Ops != nil {
		op = s.Ops[i]
	}
	switch {
	case int(op) >= len(opCodes):
		return fmt.Errorf("board: unknown operator %v for field %d, want OpSet, OpAdd, OpMax, OpMin or OpKeep: %w", op, i, ErrArgument)
	case op == OpAdd:
		return b.checkDelta(i, v)
	}
	return b.checkValue(i, v)
}

func (b *Board) opsString(s Submission) string {
	var o strings.Builder
	if s.Ops == nil {
		return strings.Repeat("s", len(s.Values))
	}
	for _, op := range s.Ops {
		o.WriteByte(opCodes[op])
	}
	return o.String()
}

// finish reads submit.lua's reply to c: conflict is true when the
// expectation did not hold.
func (b *Board) finish(c submitCall, r rueidis.RedisResult) (res Result, conflict bool, err error) {
	msg, err := r.ToMessage()
	if err != nil {
		return Result{}, false, b.scriptErr("submit", err)
	}
	return b.finishMsg(c, msg)
}

// finishMsg reads one submit.lua reply, msg, to c.
func (b *Board) finishMsg(c submitCall, msg rueidis.RedisMessage) (res Result, conflict bool, err error) {
	if s, err := msg.ToString(); err == nil {
		if s == "conflict" {
			return Result{}, true, nil
		}
		return Result{}, false, fmt.Errorf("board: submit reply %q: %w", s, ErrReply)
	}
	arr, err := msg.ToArray()
	if err != nil || (len(arr) != 3 && len(arr) != 5) {
		return Result{}, false, fmt.Errorf("board: submit reply of unexpected shape: %w", ErrReply)
	}
	var n [3]int64
	for i := range n {
		if n[i], err = arr[i].AsInt64(); err != nil {
			return Result{}, false, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
		}
	}
	res = Result{Entry: Entry{ID: c.s.ID, Rank: n[0]}, Changed: n[1] == 1, Trimmed: n[2] == 1}
	res.Entry.Values, err = b.storedValues(c, arr[3:])
	return res, false, err
}

// storedValues returns the values the script stored: those sent, or those
// of the member and score it replied.
func (b *Board) storedValues(c submitCall, ms []rueidis.RedisMessage) ([]float64, error) {
	if len(ms) == 0 {
		vals := make([]float64, len(c.s.Values))
		for i, v := range c.s.Values {
			vals[i] = v + 0 // one zero: never -0
		}
		return vals, nil
	}
	member, err1 := ms[0].ToString()
	score, err2 := ms[1].ToString()
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
	}
	_, vals, err := b.decode(score, member)
	return vals, err
}

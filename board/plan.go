package board

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
)

// writePlan is one submission ready for every route that sends it:
// checked, encoded (the stored score and member of Replace and Best, the
// codes of the fields' policies otherwise), whether Redis's own commands may write it, and
// Update's expectation. A route sends it its own way (a native write
// alone or batched, submit.lua alone or pipelined, the group script) and
// reads its reply into the Result with nativeResult or finish.
type writePlan struct {
	id       string
	values   []float64    // as submitted
	data     []byte       // the member data to store; nil leaves it
	score    float64      // Replace and Best: the score stored
	member   string       // Replace and Best: the member stored
	ops      string       // field by field: the fields' policies' codes, one a field; "" for Replace and Best
	expect   *expectation // Update's compare-and-set; nil for none
	policy   Policy       // Replace or Best when ops is ""
	dropData bool         // with data nil: remove the member data (a resharding's copy)
	reqKey   string       // the key remembering the request id; "" for none
	passed   int          // Submission.Overtaken
	native   bool         // a native write may take it, in a generation at rest (see nativeIn)
	plain    bool         // Replace or Best of the entry alone: nothing but it written, nothing more replied
}

// expectation is what a compare-and-set write requires of the stored
// entry: op "-", that there is none; "=", that its score and member are
// those given.
type expectation struct{ op, score, member string }

// plan checks s and builds its writePlan, with the expectation e (nil for
// none). For Replace and Best the new stored score and member are
// computed here; submit.lua computes them only for the other policies,
// field by field, which need the old values.
func (b *Board) plan(s Submission, e *expectation) (writePlan, error) {
	if err := b.checkSubmission(s); err != nil {
		return writePlan{}, err
	}
	p := writePlan{id: s.ID, values: s.Values, data: s.Data, expect: e, policy: s.Policy, dropData: s.dropData, passed: s.Overtaken}
	if s.RequestID != "" {
		p.reqKey = b.requestKey(b.prefix, s.RequestID)
	}
	if byField(s) {
		p.policy, p.ops = Replace, opsString(s)
	} else {
		var err error
		if p.score, p.member, err = b.encode(s.ID, s.Values); err != nil {
			return writePlan{}, err
		}
	}
	p.plain = e == nil && s.Data == nil && !s.dropData && s.RequestID == "" && s.Overtaken == 0 && p.ops == ""
	p.native = p.plain && b.writesNative()
	return p, nil
}

// writesNative reports whether b's writes may use Redis's own commands
// instead of submit.lua: a board whose member is the id (packed, or key
// suffix of one field: no lookup) and whose writes keep nothing beside
// the entry (no dense index, cap, expiry or rules), not a shard (whose
// write must refuse a dropped board: a transaction cannot) and not fenced.
func (b *Board) writesNative() bool {
	return b.fence == "" && !b.opts.shard && !b.lookup() && !b.opts.DenseRanks && b.opts.Cap == 0 && b.opts.expireAt.IsZero() && !b.opts.Rules.set() && !b.opts.Hiding && b.opts.KeepTop == 0
}

// nativeIn reports whether p is written with Redis's own commands in
// generation g: a native plan (Replace or Best, no member data, no
// expectation, on a board that allows it) in generation 0, not
// migrating. Past generation 0 (a board migrated) a write is submit.lua,
// which checks that the board is still in the handle's generation: a
// transaction cannot, and after a Drop and a New (generation 0 again) a
// handle of generation 2 would write keys nothing reads.
func (p *writePlan) nativeIn(g *generation) bool {
	return p.native && g.n == 0 && g.mig == nil && g.state == ""
}

// submitsLean reports whether p is written with submitlean.lua in
// generation g: a plain plan (see writePlan.plain) on a key-suffix board
// with an id lookup whose writes keep nothing beside the entry (no dense
// index, cap, expiry, rules or hiding), in a live generation (not
// migrating or exporting), not fenced: g has the script then (scriptSources).
func (b *Board) submitsLean(g *generation, p *writePlan) bool {
	return p.plain && g.scripts.submitLean != nil && b.opts.expireAt.IsZero() && b.fence == ""
}

// appendLeanArgs appends submitlean.lua's ARGV for p to args: id,
// policy, score, member and the id's bucket hash, the first 32 bits of its
// SHA1 in 8 hex digits (lookup.lua's h, computed here rather than in Redis).
func (p *writePlan) appendLeanArgs(args []string) []string {
	sum := sha1.Sum([]byte(p.id))
	return append(args, p.id, p.code(), fmtFloat(p.score), p.member, hex.EncodeToString(sum[:4]))
}

// scriptKeys is submit.lua's KEYS for p in generation g: the member-data
// key is left out when nothing can touch it.
func (b *Board) scriptKeys(g *generation, p *writePlan) []string {
	if p.data == nil && !p.dropData && b.opts.expireAt.IsZero() && b.opts.Cap == 0 && b.fence == "" {
		return g.keys.lean()
	}
	return g.keys.script
}

// scriptArgs is submit.lua's ARGV for p, with the board's expire-at read
// now (see expireArg).
func (b *Board) scriptArgs(p *writePlan) ([]string, error) {
	expire, err := b.expireArg()
	if err != nil {
		return nil, err
	}
	if p.expect == nil && p.data == nil && !p.dropData && p.ops == "" && expire == "0" && b.opts.span == "" && b.fence == "" && p.reqKey == "" && p.passed == 0 {
		// The common case: no optional arguments (a fenced write's script reads its expire-at).
		return []string{p.id, p.code(), fmtFloat(p.score), p.member}, nil
	}
	return p.fullArgs(expire, b.opts.span, b.opts.RequestRetention), nil
}

// fullArgs is submit.lua's ARGV for p with its optional arguments: the
// expire-at given, the expectation, the member data, the window's span
// given, and the values of a write field by field (which the script
// combines with the stored ones).
func (p *writePlan) fullArgs(expire, span string, retention time.Duration) []string {
	third, n := fmtFloat(p.score), 14
	if p.ops != "" {
		third, n = p.ops, n+len(p.values)
	}
	var e expectation
	if p.expect != nil {
		e = *p.expect
	}
	hasData := ""
	if p.data != nil {
		hasData = "1"
	} else if p.dropData {
		hasData = "0"
	}
	args := append(make([]string, 0, n), p.id, p.code(), third, p.member, expire, e.op, e.score, e.member, hasData, string(p.data),
		p.reqKey, strconv.FormatInt(retention.Milliseconds(), 10), strconv.Itoa(p.passed), span)
	if p.ops != "" {
		for _, v := range p.values {
			args = append(args, fmtFloat(v))
		}
	}
	return args
}

func (b *Board) checkSubmission(s Submission) error {
	if err := b.checkID(s.ID); err != nil {
		return err
	}
	if s.Overtaken < 0 || s.Overtaken > maxOvertaken || (s.Overtaken > 0 && b.opts.shard) {
		return fmt.Errorf("board: id %s: Overtaken = %d, want 0 to %d, and 0 on a sharded board: %w", clip.Quote(s.ID), s.Overtaken, maxOvertaken, ErrArgument)
	}
	if len(s.RequestID) > maxRequestIDLen {
		return fmt.Errorf("board: id %s: request id of %d bytes, over %d: %w", clip.Quote(s.ID), len(s.RequestID), maxRequestIDLen, ErrArgument)
	}
	if len(s.Data) > maxDataLen {
		return fmt.Errorf("board: id %s: %d bytes of data, over the %d member data may hold: %w", clip.Quote(s.ID), len(s.Data), maxDataLen, ErrArgument)
	}
	if int(s.Policy) >= len(policyNames) {
		return fmt.Errorf("board: unknown policy %v, want Replace, Best, Add, Max, Min or Keep: %w", s.Policy, ErrArgument)
	}
	n := b.layout.Len()
	if len(s.Values) != n {
		return fmt.Errorf("board: %d values for %d fields: %w", len(s.Values), n, errValue)
	}
	if s.Fields != nil && s.Policy != Replace {
		return fmt.Errorf("board: Fields given with policy %v; the fields' policies need Policy Replace, the zero value: %w", s.Policy, ErrArgument)
	}
	if s.Fields != nil && len(s.Fields) != n {
		return fmt.Errorf("board: %d policies in Fields for %d fields: %w", len(s.Fields), n, errValue)
	}
	for i, v := range s.Values {
		if err := b.checkFieldArg(s, i, v); err != nil {
			return err
		}
	}
	return nil
}

func (b *Board) checkFieldArg(s Submission, i int, v float64) error {
	p := fieldPolicy(s, i)
	switch {
	case s.Fields != nil && (p == Best || int(p) >= len(fieldCodes)):
		return fmt.Errorf("board: policy %v for field %d, want Replace, Add, Max, Min or Keep (Best compares whole entries): %w", p, i, ErrArgument)
	case p == Add:
		return b.checkDelta(i, v)
	}
	if err := b.checkValue(i, v); err != nil {
		return err
	}
	if byField(s) {
		return nil // submit.lua checks the result against the bounds
	}
	return b.checkBound(i, v)
}

// byField reports whether s is written field by field, by submit.lua
// with the stored values: it has Fields, or a Policy of Add, Max, Min or
// Keep.
func byField(s Submission) bool { return s.Fields != nil || s.Policy > Best }

// fieldPolicy is s's policy for field i.
func fieldPolicy(s Submission, i int) Policy {
	if s.Fields != nil {
		return s.Fields[i]
	}
	return s.Policy
}

// opsString is submit.lua's code of s's fields' policies, one a field.
func opsString(s Submission) string {
	var o strings.Builder
	for i := range s.Values {
		o.WriteByte(fieldCodes[fieldPolicy(s, i)])
	}
	return o.String()
}

// code is submit.lua's code of p's policy: "r" Replace, "b" Best, "f"
// field by field (p.ops).
func (p *writePlan) code() string {
	if p.ops != "" {
		return "f"
	}
	return policyCodes[p.policy]
}

// sentValues is a copy of the values p sends, each zero a positive one.
func (p *writePlan) sentValues() []float64 {
	vals := make([]float64, len(p.values))
	for i, v := range p.values {
		vals[i] = v + 0 // one zero: never -0
	}
	return vals
}

// finish reads submit.lua's reply to p: conflict is true when the
// expectation did not hold.
func (b *Board) finish(p *writePlan, r rdb.Result) (res Result, conflict bool, err error) {
	msg, err := r.ToMessage()
	if err != nil {
		return Result{}, false, b.scriptErr("submit", err)
	}
	return b.finishMsg(p, msg)
}

// finishMsg reads one submit.lua reply, msg, to p.
func (b *Board) finishMsg(p *writePlan, msg rdb.Reply) (res Result, conflict bool, err error) {
	if msg.IsString() {
		s, _ := msg.ToString()
		if s == "conflict" {
			return Result{}, true, nil
		}
		return Result{}, false, fmt.Errorf("board: submit reply %q: %w", s, ErrReply)
	}
	arr, err := msg.ToArray()
	if err != nil {
		return Result{}, false, fmt.Errorf("board: submit reply of unexpected shape: %w", ErrReply)
	}
	res, err = b.finishArr(p, arr)
	return res, false, err
}

// finishArr reads the array of one submit.lua reply to p.
func (b *Board) finishArr(p *writePlan, arr []rdb.Reply) (res Result, err error) {
	if len(arr) == 6 {
		passed, err := arr[5].AsStrSlice()
		if err != nil {
			return Result{}, fmt.Errorf("board: submit reply's overtaken ids: %w: %w", ErrReply, err)
		}
		defer func() { res.Overtaken = passed }()
		arr = arr[:5]
	}
	if len(arr) != 3 && len(arr) != 5 {
		return Result{}, fmt.Errorf("board: submit reply of unexpected shape: %w", ErrReply)
	}
	var n [3]int64
	for i := range n {
		if n[i], err = arr[i].AsInt64(); err != nil {
			return Result{}, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
		}
	}
	res = Result{Entry: Entry{ID: p.id, Rank: n[0]}, Changed: n[1] == 1, Trimmed: n[2] == 1}
	res.Entry.Values, err = b.storedValues(p, arr[3:])
	return res, err
}

// storedValues returns the values the script stored: those sent, or those
// of the member and score it replied.
func (b *Board) storedValues(p *writePlan, ms []rdb.Reply) ([]float64, error) {
	if len(ms) == 0 {
		return p.sentValues(), nil
	}
	member, err1 := ms[0].ToString()
	score, err2 := ms[1].ToString()
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("board: submit reply: %w: %w", ErrReply, err)
	}
	_, vals, err := b.decode(score, member)
	return vals, err
}

// requestKey is the key remembering request id rid of a board whose keys
// start with prefix: in its hash tag, so that the write and the id are
// one script.
func (b *Board) requestKey(prefix, rid string) string { return prefix + "r:" + rid }

package board

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/rueidis"
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

// Op is a per-field operator of the PerField policy. For an id not yet on
// the board every operator stores the submitted value.
type Op uint8

const (
	// Set stores the submitted value. The default.
	Set Op = iota
	// Add adds the submitted value (which may be negative) to the stored
	// one. A result outside the field's range is an error and changes
	// nothing; it never carries into the neighbouring field.
	Add
	// Max keeps the larger of the stored and submitted values.
	Max
	// Min keeps the smaller of the stored and submitted values.
	Min
	// Keep keeps the stored value. The submitted value must still be valid:
	// it is stored when the id is new.
	Keep
)

var policyCodes = [...]string{Replace: "r", Best: "b", PerField: "f"}
var opCodes = [...]byte{Set: 's', Add: 'a', Max: 'x', Min: 'n', Keep: 'k'}

// Submission is one write.
type Submission struct {
	// ID identifies the entry: any bytes, 1 to MaxIDLen of them.
	ID string
	// Values holds one value per layout field, most significant first.
	Values []float64
	// Policy combines Values with the stored entry. Default Replace.
	Policy Policy
	// Ops holds one operator per field for the PerField policy; nil means
	// Set for every field. Other policies refuse it (ErrArgument).
	Ops []Op
	// Data, when not nil, replaces the entry's member data in the same
	// script. Nil leaves it as it is.
	Data []byte
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

// Submit writes one entry in one atomic script and one round trip, and
// returns the stored entry, its rank and whether anything changed.
//
// It refuses, changing nothing: an invalid id (ErrID); a wrong number of
// values or operators, a NaN, infinite, non-integer or out-of-range value,
// or an add whose result leaves the field's range (ErrValue, wrapping
// pack.ErrOverflow for ranges); an unknown policy or operator, or
// operators without PerField (ErrArgument); a write to a periodic window
// past its retention (ErrExpired). Redis errors and a cancelled context
// wrap ErrRedis.
func (b *Board) Submit(ctx context.Context, s Submission) (Result, error) {
	args, err := b.submitArgs(s, "", "", "")
	if err != nil {
		return Result{}, err
	}
	res, conflict, err := b.parseSubmit(b.scripts.submit.Exec(ctx, b.client, b.keys.script, args))
	if err == nil && conflict {
		err = fmt.Errorf("board: submit: unexpected conflict: %w", ErrReply)
	}
	return res, err
}

// submitArgs validates s and builds submit.lua's ARGV. For Replace and
// Best the new stored score and member are computed here; the script
// computes them only for the per-field operators, which need the old values.
func (b *Board) submitArgs(s Submission, expect, expScore, expMember string) ([]string, error) {
	if err := b.checkSubmission(s); err != nil {
		return nil, err
	}
	data, hasData := "", ""
	if s.Data != nil {
		data, hasData = string(s.Data), "1"
	}
	expire, err := b.expireArg()
	if err != nil {
		return nil, err
	}
	third, fourth := b.opsString(s), ""
	if s.Policy != PerField {
		score, member, err := b.encode(s.ID, s.Values)
		if err != nil {
			return nil, err
		}
		third, fourth = fmtFloat(score), member
	}
	args := []string{s.ID, policyCodes[s.Policy], third, fourth, expire}
	if expect == "" && hasData == "" && s.Policy != PerField {
		return args, nil // the common case: no optional arguments
	}
	args = append(args, expect, expScore, expMember, hasData, data)
	if s.Policy == PerField {
		for _, v := range s.Values {
			args = append(args, fmtFloat(v))
		}
	}
	return args, nil
}

func (b *Board) checkSubmission(s Submission) error {
	if err := b.checkID(s.ID); err != nil {
		return err
	}
	if int(s.Policy) >= len(policyCodes) {
		return fmt.Errorf("board: unknown policy %d: %w", s.Policy, ErrArgument)
	}
	n := b.layout.Len()
	if len(s.Values) != n {
		return fmt.Errorf("board: %d values for %d fields: %w", len(s.Values), n, ErrValue)
	}
	if s.Policy != PerField && s.Ops != nil {
		return fmt.Errorf("board: operators given with policy %d; they need PerField: %w", s.Policy, ErrArgument)
	}
	if s.Policy == PerField && s.Ops != nil && len(s.Ops) != n {
		return fmt.Errorf("board: %d operators for %d fields: %w", len(s.Ops), n, ErrValue)
	}
	for i, v := range s.Values {
		if err := b.checkFieldArg(s, i, v); err != nil {
			return err
		}
	}
	return nil
}

func (b *Board) checkFieldArg(s Submission, i int, v float64) error {
	op := Set
	if s.Policy == PerField && s.Ops != nil {
		op = s.Ops[i]
	}
	switch {
	case int(op) >= len(opCodes):
		return fmt.Errorf("board: unknown operator %d for field %d: %w", op, i, ErrArgument)
	case op == Add:
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

// parseSubmit reads submit.lua's reply.
func (b *Board) parseSubmit(r rueidis.RedisResult) (Result, bool, error) {
	strs, err := b.arrayReply("submit", r)
	if err != nil {
		return Result{}, false, err
	}
	if len(strs) == 1 && strs[0] == "conflict" {
		return Result{}, true, nil
	}
	if len(strs) != 6 || strs[0] != "ok" {
		return Result{}, false, fmt.Errorf("board: submit reply %q: %w", strs, ErrReply)
	}
	e, err := b.entry(strs[2], strs[1], strs[3])
	if err != nil {
		return Result{}, false, err
	}
	return Result{Entry: e, Changed: strs[4] == "1", Trimmed: strs[5] == "1"}, false, nil
}

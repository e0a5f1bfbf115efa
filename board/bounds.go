package board

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tiebreak/tiebreak/internal/errs"
)

// Bound limits the values a submission may store in one field
// (Options.Bounds): a result outside [Min, Max] is refused before
// anything is written, with an error wrapping ErrOutOfBounds. It bounds
// what submissions store (the result of Add, Max, Min or Keep included), not
// entries already stored nor a migration's copies.
type Bound struct {
	// Field names the field, as the layout does.
	Field string
	// Min and Max bound its values, inclusive: finite, Min <= Max, within
	// the field's own range.
	Min, Max float64
}

// ErrOutOfBounds reports a submission whose value (or, for Add, Max, Min or Keep, its
// result) is outside its field's Bound. It wraps ErrArgument: nothing was
// written.
var ErrOutOfBounds = errs.Invalid("value out of bounds")

// boundDescriptor is a Bound as the descriptor stores it.
type boundDescriptor struct {
	Field string  `json:"field"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
}

// checkBounds refuses bounds of fields the layout lacks, twice the same
// field, or outside the field's range (ErrOptions); it returns them by
// field index.
func (b *Board) checkBounds(bs []Bound) (map[int]Bound, error) {
	out := map[int]Bound{}
	for _, bd := range bs {
		i := b.layout.Index(bd.Field)
		if i < 0 {
			return nil, fmt.Errorf("board: Options.Bounds: no field %q in the layout: %w", bd.Field, ErrOptions)
		}
		if _, dup := out[i]; dup {
			return nil, fmt.Errorf("board: Options.Bounds: field %q bounded twice: %w", bd.Field, ErrOptions)
		}
		lo, hi := b.fieldRange(i)
		if !(bd.Min >= lo && bd.Max <= hi && bd.Min <= bd.Max) {
			return nil, fmt.Errorf("board: Options.Bounds: field %q in [%s, %s], want Min <= Max within the field's range [%s, %s]: %w",
				bd.Field, fmtNum(bd.Min), fmtNum(bd.Max), fmtNum(lo), fmtNum(hi), ErrOptions)
		}
		out[i] = bd
	}
	return out, nil
}

// describeBounds returns the bounds as the descriptor stores them, in
// field order: nil for none.
func (b *Board) describeBounds() []boundDescriptor {
	var out []boundDescriptor
	for i := range b.layout.Len() {
		if bd, ok := b.bounds[i]; ok {
			out = append(out, boundDescriptor{Field: bd.Field, Min: bd.Min, Max: bd.Max})
		}
	}
	return out
}

// boundsString is the stored bounds as one comparable string.
func boundsString(bs []boundDescriptor) string {
	if len(bs) == 0 {
		return "none"
	}
	j, _ := json.Marshal(bs) // plain values: cannot fail
	return string(j)
}

// checkBound refuses value v of field i outside its bound.
func (b *Board) checkBound(i int, v float64) error {
	bd, ok := b.bounds[i]
	if !ok || (v >= bd.Min && v <= bd.Max) {
		return nil
	}
	return fmt.Errorf("board: %s: field %q: value %s outside its bounds [%s, %s]: %w", b.label(), bd.Field, fmtNum(v), fmtNum(bd.Min), fmtNum(bd.Max), ErrOutOfBounds)
}

// boundsConst is the BOUNDS constant of submit.lua: false, or a table of
// the bounded fields by index from 1.
func (b *Board) boundsConst() string {
	if len(b.bounds) == 0 {
		return "false"
	}
	var s strings.Builder
	s.WriteString("{")
	for i := range b.layout.Len() {
		if bd, ok := b.bounds[i]; ok {
			fmt.Fprintf(&s, "[%d] = {min = %s, max = %s}, ", i+1, fmtFloat(bd.Min), fmtFloat(bd.Max))
		}
	}
	s.WriteString("}")
	return s.String()
}

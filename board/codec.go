package board

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/pack"
)

// checkID refuses an empty id and one over MaxIDLen bytes. Any bytes are
// allowed.
func (b *Board) checkID(id string) error {
	if id == "" {
		return fmt.Errorf("board: id is empty, want 1 to %d bytes (Options.MaxIDLen): %w", b.opts.MaxIDLen, errID)
	}
	if len(id) > b.opts.MaxIDLen {
		return fmt.Errorf("board: id of %d bytes out of range [1, %d] (Options.MaxIDLen): %w", len(id), b.opts.MaxIDLen, errID)
	}
	return nil
}

// checkValue refuses a value field i cannot hold: NaN, infinite, not an
// integer (but for the key-suffix first field) or outside the range.
func (b *Board) checkValue(i int, v float64) error {
	f := b.layout.Field(i)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("board: field %q: %v is not a finite number: %w", f.Name, v, errValue)
	}
	if !(i == 0 && b.suffix()) && v != math.Trunc(v) {
		return fmt.Errorf("board: field %q: %v is not an integer: %w", f.Name, v, errValue)
	}
	if min, max := b.fieldRange(i); v < min || v > max {
		return fmt.Errorf("board: field %q: value %s outside [%s, %s]: %w: %w",
			f.Name, fmtNum(v), fmtNum(min), fmtNum(max), errValue, pack.ErrOverflow)
	}
	return nil
}

// checkDelta refuses an increment for field i that is not finite, not an
// integer where the field needs one, or larger than the field's whole
// range (no add of it could stay in range).
func (b *Board) checkDelta(i int, d float64) error {
	f := b.layout.Field(i)
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return fmt.Errorf("board: field %q: increment %v is not a finite number: %w", f.Name, d, errValue)
	}
	if i == 0 && b.suffix() {
		return nil
	}
	if d != math.Trunc(d) {
		return fmt.Errorf("board: field %q: increment %v is not an integer: %w", f.Name, d, errValue)
	}
	if math.Abs(d) > float64(f.RawMax) {
		return fmt.Errorf("board: field %q: increment %v exceeds the field's range: %w: %w",
			f.Name, d, errValue, pack.ErrOverflow)
	}
	return nil
}

// decode turns a stored (score, member) into the id and its values.
func (b *Board) decode(score, member string) (string, []float64, error) {
	s, err := strconv.ParseFloat(score, 64)
	if err != nil {
		return "", nil, fmt.Errorf("board: score %q: %w", score, ErrReply)
	}
	return b.decodeScore(s, member)
}

// decodeScore is decode of a score already parsed.
func (b *Board) decodeScore(s float64, member string) (string, []float64, error) {
	return b.decodeInto(make([]float64, b.layout.Len()), s, member)
}

// decodeInto is decodeScore into vals, of the layout's length.
func (b *Board) decodeInto(vals []float64, s float64, member string) (string, []float64, error) {
	if !b.suffix() {
		var buf [8]int64 // most layouts: no allocation
		ints := buf[:0]
		if len(vals) > len(buf) {
			ints = make([]int64, 0, len(vals))
		}
		ints = ints[:len(vals)]
		if err := b.layout.UnpackTo(ints, -s); err != nil {
			return "", nil, fmt.Errorf("board: stored score %v: %w: %w", s, ErrReply, err)
		}
		for i, v := range ints {
			vals[i] = float64(v)
		}
		return member, vals, nil
	}
	return b.decodeSuffix(s, member, vals)
}

func (b *Board) decodeSuffix(s float64, member string, vals []float64) (string, []float64, error) {
	vals[0] = s
	if b.layout.Field(0).Dir == pack.HigherIsBetter {
		vals[0] = -s
	}
	if vals[0] == 0 {
		vals[0] = 0 // never -0
	}
	if len(member) < b.width {
		return "", nil, fmt.Errorf("board: member %q shorter than its prefix: %w", member, ErrReply)
	}
	if b.width == 0 {
		return member, vals, nil
	}
	r, err := strconv.ParseUint(member[:b.width], 10, 64)
	if err != nil || r > b.rest {
		return "", nil, fmt.Errorf("board: member prefix %q: %w", member[:b.width], ErrReply)
	}
	rest := b.rest - r
	for i := 1; i < len(vals); i++ {
		f := b.layout.Field(i)
		vals[i] = float64(f.Value(rest / f.Mul))
	}
	return member[b.width:], vals, nil
}

// encode gives the stored (score, member) of id holding vals, the Go twin
// of encode in common.lua. vals must be valid for the board.
func (b *Board) encode(id string, vals []float64) (float64, string, error) {
	if !b.suffix() {
		var buf [8]int64 // most layouts: no allocation
		ints := buf[:0]
		if len(vals) > len(buf) {
			ints = make([]int64, 0, len(vals))
		}
		ints = ints[:len(vals)]
		for i, v := range vals {
			ints[i] = int64(v)
		}
		s, err := b.layout.Pack(ints...)
		if err != nil {
			return 0, "", fmt.Errorf("board: %w: %w", errValue, err)
		}
		return -s.Float64() + 0, id, nil
	}
	score := vals[0]
	if b.layout.Field(0).Dir == pack.HigherIsBetter {
		score = -score
	}
	if b.width == 0 {
		return score + 0, id, nil
	}
	var rest uint64
	for i := 1; i < len(vals); i++ {
		f := b.layout.Field(i)
		raw, err := f.Raw(int64(vals[i]))
		if err != nil {
			return 0, "", fmt.Errorf("board: %w: %w", errValue, err)
		}
		rest += raw * f.Mul
	}
	prefix := strconv.FormatUint(b.rest-rest, 10)
	return score + 0, strings.Repeat("0", b.width-len(prefix)) + prefix + id, nil
}

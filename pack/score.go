package pack

import (
	"fmt"
	"math"
)

// Score is a packed score: an integer in [0, 2^53-1] that a float64 holds
// exactly.
type Score uint64

// Float64 returns the score as a float64, exactly.
func (s Score) Float64() float64 { return float64(s) }

// Uint64 returns the score as a uint64.
func (s Score) Uint64() uint64 { return uint64(s) }

// Raw returns the stored digit of value v in this field: v-Min when higher
// is better, Max-v when lower is better. A value outside [Min, Max] is an
// error wrapping ErrOverflow that names the field, the value and the range.
func (f *FieldInfo) Raw(v int64) (uint64, error) {
	if v < f.Min || v > f.Max {
		return 0, f.overflow(v)
	}
	if f.Dir == LowerIsBetter {
		return uint64(f.Max - v), nil
	}
	return uint64(v - f.Min), nil
}

func (f *FieldInfo) overflow(v int64) error {
	return fmt.Errorf("pack: field %q: value %d outside [%d, %d]: %w",
		f.Name, v, f.Min, f.Max, ErrOverflow)
}

// Value returns the value whose stored digit is raw; raw must be at most
// RawMax (larger digits are reduced modulo RawMax+1).
func (f *FieldInfo) Value(raw uint64) int64 {
	raw %= f.RawMax + 1
	if f.Dir == LowerIsBetter {
		return f.Max - int64(raw)
	}
	return f.Min + int64(raw)
}

// Pack packs one value per field, most significant first, into a score.
// It refuses a number of values other than Len (ErrArity) and a value
// outside its field's range (ErrOverflow); it never masks or wraps a value
// into range.
func (l *Layout) Pack(values ...int64) (Score, error) {
	if err := l.unmade(); err != nil {
		return 0, err
	}
	if len(values) != len(l.fields) {
		return 0, l.arity(len(values))
	}
	if l.fast == nil {
		var s uint64
		for i := range l.fields {
			raw, err := l.fields[i].Raw(values[i])
			if err != nil {
				return 0, err
			}
			s += raw * l.fields[i].Mul
		}
		return Score(s), nil
	}
	var s uint64
	values = values[:len(l.fast)]
	for i := range l.fast {
		f, v := &l.fast[i], values[i]
		if v < f.min || v > f.max {
			return 0, l.fields[i].overflow(v)
		}
		raw := uint64(v - f.min)
		if f.lower {
			raw = uint64(f.max - v)
		}
		s |= raw << f.shift
	}
	return Score(s), nil
}

// Unpack returns the values packed into score, most significant first.
// It refuses (ErrScore) a score that is NaN, infinite, negative, not an
// integer or above MaxScore.
func (l *Layout) Unpack(score float64) ([]int64, error) {
	if err := l.unmade(); err != nil {
		return nil, err
	}
	dst := make([]int64, len(l.fields))
	if err := l.UnpackTo(dst, score); err != nil {
		return nil, err
	}
	return dst, nil
}

// UnpackTo is Unpack writing into dst, which must have length Len
// (ErrArity otherwise). It does not allocate.
func (l *Layout) UnpackTo(dst []int64, score float64) error {
	if err := l.unmade(); err != nil {
		return err
	}
	if u := uint64(score); l.fast != nil && len(dst) == len(l.fast) && score >= 0 && score <= float64(l.max) && float64(u) == score {
		dst = dst[:len(l.fast)]
		for i := range l.fast {
			f := &l.fast[i]
			dst[i] = f.base + f.sign*int64(u>>f.shift&f.mask)
		}
		return nil
	}
	s, err := l.Check(score)
	if err != nil {
		return err
	}
	return l.UnpackScoreTo(dst, s)
}

// UnpackScoreTo is UnpackTo for a score held as a Score. It refuses a score
// above MaxScore (ErrScore) and a dst whose length is not Len (ErrArity).
func (l *Layout) UnpackScoreTo(dst []int64, s Score) error {
	if err := l.unmade(); err != nil {
		return err
	}
	if len(dst) != len(l.fields) {
		return l.arity(len(dst))
	}
	if uint64(s) > l.max {
		return fmt.Errorf("pack: score %d above the layout's maximum %d: %w", s, l.max, ErrScore)
	}
	if l.fast == nil {
		for i := range l.fields {
			dst[i] = l.fields[i].Value(uint64(s) / l.fields[i].Mul)
		}
		return nil
	}
	dst = dst[:len(l.fast)]
	for i := range l.fast {
		f := &l.fast[i]
		dst[i] = f.base + f.sign*int64(uint64(s)>>f.shift&f.mask)
	}
	return nil
}

// Check converts a float64 score to a Score, refusing (ErrScore) NaN,
// infinities, negatives, non-integers and values above MaxScore. Negative
// zero is zero.
func (l *Layout) Check(score float64) (Score, error) {
	if err := l.unmade(); err != nil {
		return 0, err
	}
	// Fast path: a whole number in range converts to uint64 and back
	// unchanged; NaN and infinities fail the comparisons.
	if score >= 0 && score <= float64(l.max) {
		if u := uint64(score); float64(u) == score {
			return Score(u), nil
		}
	}
	if math.IsNaN(score) || math.IsInf(score, 0) || score < 0 || score != math.Trunc(score) {
		return 0, fmt.Errorf("pack: score %v is not an integer in [0, %d]: %w", score, l.max, ErrScore)
	}
	if score > float64(l.max) {
		return 0, fmt.Errorf("pack: score %.0f above the layout's maximum %d: %w", score, l.max, ErrScore)
	}
	return Score(score), nil
}

func (l *Layout) arity(n int) error {
	return fmt.Errorf("pack: %d values for %d fields: %w", n, len(l.fields), ErrArity)
}

package timeline

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A Timeline not made by New, zero or nil, answers every call with an
// error wrapping ErrArgument (or a zero result where a method returns no
// error): nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&Timeline[uint64]{}, (*Timeline[uint64])(nil), &Timeline[[16]byte]{}, (*Timeline[[16]byte])(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

package tsid

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A Generator, Layout or Layout128 not made by its constructors, zero or
// nil, answers every call with an error wrapping ErrArgument (or a zero
// result where a method returns no error): nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&Generator{}, (*Generator)(nil), &Layout{}, (*Layout)(nil), &Layout128{}, (*Layout128)(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

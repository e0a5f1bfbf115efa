package board

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A Board, Group or Periodic not made by its constructor, zero or nil,
// answers every call with an error wrapping ErrArgument: nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&Board{}, (*Board)(nil), &Group{}, (*Group)(nil), &Periodic{}, (*Periodic)(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

package league

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A League or Season not made by New or League.At, zero or nil, answers
// every call with an error wrapping ErrArgument: nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&League{}, (*League)(nil), &Season{}, (*Season)(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

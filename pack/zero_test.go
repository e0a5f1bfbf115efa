package pack

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A Layout not made by NewLayout or NewDigitLayout, zero or nil, answers
// every call with an error wrapping ErrArgument (or a zero result where a
// method returns no error): nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&Layout{}, (*Layout)(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

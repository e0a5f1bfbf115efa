package decimalmap

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/zerotest"
)

// A Map not made by New, zero or nil, answers every call with an error
// wrapping ErrArgument: nothing panics.
func TestZeroHandles(t *testing.T) {
	for _, v := range []any{&Map{}, (*Map)(nil)} {
		zerotest.Check(t, v, ErrArgument)
	}
}

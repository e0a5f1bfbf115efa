package pack

import (
	"errors"
	"testing"
)

// A Layout not made by NewLayout or NewDigitLayout, zero or nil, is
// refused by every method that returns an error (ErrLayout, which wraps
// ErrArgument), rather than packing into a score of nothing.
func TestZeroLayout(t *testing.T) {
	for _, l := range []*Layout{{}, nil} {
		_, err1 := l.Pack()
		_, err2 := l.Unpack(0)
		err3 := l.UnpackTo(nil, 0)
		err4 := l.UnpackScoreTo(nil, 0)
		_, err5 := l.Check(0)
		for i, err := range []error{err1, err2, err3, err4, err5} {
			if !errors.Is(err, ErrLayout) || !errors.Is(err, ErrArgument) {
				t.Errorf("method %d of a Layout not made by its constructor (%v): %v, want ErrLayout", i, l == nil, err)
			}
		}
		if l.Len() != 0 {
			t.Errorf("Len of a Layout not made by its constructor: %d", l.Len())
		}
	}
}

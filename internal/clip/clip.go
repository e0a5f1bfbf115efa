// Package clip quotes an input for an error message, cut so that an error
// naming a huge input stays readable. Every package of tiebreak quotes
// inputs in its errors this one way.
package clip

import "strconv"

// Max is the most bytes of an input an error message quotes.
const Max = 64

// Quote returns s Go-quoted, its first Max bytes only, followed by "..."
// when it was cut.
func Quote[S ~string | ~[]byte](s S) string {
	if len(s) <= Max {
		return strconv.Quote(string(s))
	}
	return strconv.Quote(string(s[:Max])) + "..."
}

package pack

import "errors"

// Sentinel errors. Every error returned by this package wraps one of them,
// so callers can test with errors.Is.
var (
	// ErrLayout reports a layout that cannot be built: no fields, a width
	// under 1, an empty or duplicate name, or more than 53 bits (15 digits)
	// in all.
	ErrLayout = errors.New("invalid layout")

	// ErrOverflow reports a value outside the range its field, width or
	// encoding can hold. Values are never masked or wrapped into range.
	ErrOverflow = errors.New("value out of range")

	// ErrScore reports a score that no layout can have produced: not an
	// integer, negative, NaN, infinite or above the layout's maximum.
	ErrScore = errors.New("invalid score")

	// ErrSyntax reports malformed text given to a decoder or parser.
	ErrSyntax = errors.New("invalid syntax")

	// ErrArity reports a number of values that differs from the number of
	// fields in the layout.
	ErrArity = errors.New("wrong number of values")
)

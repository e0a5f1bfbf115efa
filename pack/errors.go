package pack

import "github.com/tiebreak/tiebreak/internal/errs"

// Sentinel errors. Every error returned by this package wraps one of them,
// so callers can test with errors.Is. Every one of them reports bad input
// and wraps ErrArgument, the same value in every package of tiebreak.
var (
	// ErrArgument is wrapped by every sentinel of this package.
	ErrArgument = errs.Argument

	// ErrLayout reports a layout that cannot be built: no fields, a width
	// under 1, an empty or duplicate name, or more than 53 bits (15 digits)
	// in all.
	ErrLayout = errs.Invalid("invalid layout")

	// ErrOverflow reports a value outside the range its field, width or
	// encoding can hold. Values are never masked or wrapped into range.
	ErrOverflow = errs.Invalid("value out of range")

	// ErrScore reports a score that no layout can have produced: not an
	// integer, negative, NaN, infinite or above the layout's maximum.
	ErrScore = errs.Invalid("invalid score")

	// ErrSyntax reports malformed text given to a decoder or parser.
	ErrSyntax = errs.Invalid("invalid syntax")

	// ErrArity reports a number of values that differs from the number of
	// fields in the layout.
	ErrArity = errs.Invalid("wrong number of values")
)

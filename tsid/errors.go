package tsid

import (
	"fmt"

	"github.com/tiebreak/tiebreak/internal/errs"
)

// Sentinel errors. Every error returned by this package wraps exactly one of
// them and names the input it refuses, so callers can test with errors.Is.
// The sentinels' own texts do not repeat the package name: an error reads
// "tsid: TSID.Parse(...): ...: invalid syntax", with "tsid: " once. Every
// one of them reports bad input and wraps ErrArgument, the same value in
// every package of tiebreak, as ErrOptions is.
var (
	// ErrArgument is wrapped by every sentinel of this package.
	ErrArgument = errs.Argument

	// ErrSyntax reports malformed text: a wrong length, a character outside
	// the encoding's alphabet, a sign, a leading zero in decimal text,
	// misplaced hyphens in a UUID, or a suffix that is not lowercase hex of
	// the layout's width.
	ErrSyntax = errs.Invalid("invalid syntax")

	// ErrRange reports a well-formed value outside what the layout can hold:
	// decimal text above the layout's largest ID, a 13-character TSID whose
	// first character is above 'F', a ULID whose first character is above
	// '7', an ID above the layout's Max, a suffix above its rest bits, a
	// node id too large for its bits, a time before the epoch or past the
	// last representable time unit. Values are never masked into range.
	ErrRange = errs.Invalid("value out of range")

	// ErrScore reports a sorted-set score that no ID of the layout splits
	// into: NaN, infinite, negative, not an integer, or above the largest
	// time part.
	ErrScore = errs.Invalid("invalid score")

	// ErrVersion reports a UUID (text, ID or joined suffix) whose version
	// is not 7 or whose variant bits are not 10 (RFC 9562).
	ErrVersion = errs.Invalid("not a version 7 UUID")

	// ErrOptions reports a layout spec or generator options that cannot be
	// built: bit widths out of bounds, a time part wider than 53 bits, a
	// negative unit, an unknown text form, fields that do not add up, an
	// epoch or time span too large to compute with, a node id too large for
	// its bits.
	ErrOptions = errs.Options

	// ErrField reports a field name the layout does not have.
	ErrField = errs.Invalid("no such field")
)

// inputError wraps sentinel with the operation, the layout and the input.
func inputError(layout, op, input, detail string, sentinel error) error {
	return fmt.Errorf("tsid: %s.%s(%s): %s: %w", layout, op, input, detail, sentinel)
}

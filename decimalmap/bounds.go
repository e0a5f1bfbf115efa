package decimalmap

// Bounds of one call, chosen so that no script stalls Redis: the package
// documentation gives the worst call measured at each. A call over a bound
// is refused with an error wrapping ErrArgument and changes nothing.
const (
	// MaxValueLen is the longest value, in bytes.
	MaxValueLen = 256
	// MaxAddValues is the most values one Add takes.
	MaxAddValues = 100
	// MaxValues is the most values one key holds: an Add that would take a
	// key past it is refused, adding nothing.
	MaxValues = 1000
	// MaxCallValues is the most values one Range, Scan page or Remove
	// reads or removes. A Range selecting more is refused (set
	// Query.Limit, or use Scan); a Scan page ends before it (HasMore); a
	// Remove of keys holding more is refused. Any one key fits, as it
	// holds at most MaxValues.
	MaxCallValues = 5000
)

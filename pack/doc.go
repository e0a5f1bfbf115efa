// Package pack turns several sort keys into one exact Redis sorted-set
// score, and values into member text whose byte order is their order.
//
// A Redis sorted set orders members by a float64 score, then by member
// bytes. A float64 holds integers exactly only up to 2^53, so pack never
// produces a score above 2^53-1, and refuses values that do not fit instead
// of masking them.
//
// # Bit-field layouts
//
// A Layout is an ordered list of named fields, most significant first. A
// board of points, then paid first, then earliest, in 23+1+29 bits:
//
//	 52                 30   29   28                         0
//	+----------------------+----+------------------------------+
//	|  points (23 bits)    |paid| max - time (29 bits)         |
//	+----------------------+----+------------------------------+
//	  Mul = 2^30            2^29  Mul = 2^0
//
//	score = points*2^30 + paid*2^29 + (2^29-1 - time)
//
// A LowerIsBetter field is stored reversed (its maximum minus the value),
// so one descending order over the packed integer ranks every field
// correctly, like comparing tuples. Signed fields use offset binary. Each
// FieldInfo carries the multiplier and maximum a Lua script needs to read or
// replace one field with arithmetic alone (Redis's Lua bit library is
// 32-bit):
//
//	raw = math.floor(score / Mul) % (RawMax + 1)
//
// NewDigitLayout does the same with widths in decimal digits (at most 15 in
// all), so the score reads as its fields side by side in redis-cli:
//
//	points 200 | paid 1 | time 290072179   ->   2001290072179
//
// # Order-preserving text
//
// For sort keys kept in the member string instead (equal scores fall back
// to byte order), pack encodes fixed-width integers, ascending or reversed,
// and exact decimals of any precision and sign, as printable ASCII whose
// bytewise order (memcmp, as Redis compares members) equals the numeric
// order. The decimal encoding is prefix-free, so a separator and an id may
// follow it.
//
// Every error wraps one of the package's sentinels (ErrLayout, ErrOverflow,
// ErrScore, ErrSyntax, ErrArity); test for them with errors.Is.
package pack

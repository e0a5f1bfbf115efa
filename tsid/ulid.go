package tsid

import (
	"errors"
	"fmt"
	"slices"

	"github.com/oklog/ulid/v2"
)

// ULID is the layout of ULIDs (github.com/ulid/spec): 48 bits of Unix
// milliseconds, then 80 random (or monotonic) bits. Text is 26 Crockford
// base32 characters, parsed and formatted by github.com/oklog/ulid/v2:
// upper case on output; case-insensitive on input, without Crockford's
// aliases (I, L, O and U are refused with ErrSyntax, unlike TSID text); a
// first character above '7' (more than 128 bits) is refused with ErrRange.
// Errors also wrap the ulid package's own (ulid.ErrDataSize,
// ulid.ErrInvalidCharacters, ulid.ErrOverflow).
//
// Split gives score = the 48-bit millisecond time and a 20-hex-digit suffix
// of the 80 random bits.
var ULID = &Layout128{name: "ULID", parse: parseULID, format: appendULID}

func parseULID(s string) ([16]byte, error) {
	id, err := ulid.ParseStrict(s)
	switch {
	case err == nil:
		return id, nil
	case errors.Is(err, ulid.ErrDataSize):
		return id, fmt.Errorf("length %d, want %d: %w: %w", len(s), ulid.EncodedSize, ErrSyntax, err)
	case errors.Is(err, ulid.ErrOverflow):
		return id, fmt.Errorf("first character above 7: %w: %w", ErrRange, err)
	}
	return id, fmt.Errorf("%w: %w", ErrSyntax, err)
}

func appendULID(dst []byte, id [16]byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, ulid.EncodedSize)[:n+ulid.EncodedSize]
	_ = ulid.ULID(id).MarshalTextTo(dst[n:]) // cannot fail: the buffer has the right size
	return dst
}

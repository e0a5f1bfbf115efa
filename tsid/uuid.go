package tsid

import "fmt"

// uuidLen is the length of a UUID's canonical 8-4-4-4-12 text.
const uuidLen = 36

// UUIDv7 is the layout of version 7 UUIDs (RFC 9562): 48 bits of Unix
// milliseconds, 4 version bits (0111), 12 bits rand_a, 2 variant bits (10)
// and 62 bits rand_b. Text is the canonical 8-4-4-4-12 hex form, lower case
// on output, either case on input; other forms (no hyphens, braces,
// "urn:uuid:") are refused with ErrSyntax, and a UUID of another version
// or variant with ErrVersion, except the nil UUID.
//
// The nil UUID, 00000000-0000-0000-0000-000000000000, is the zero ID: Parse
// accepts it (it is Format's text of the zero [16]byte), so that a zero
// cursor, such as the Next of an empty timeline page, survives a trip
// through its text form. Split refuses it (ErrVersion): no message carries
// it, and package timeline reads it as the cursor below every ID.
//
// Split gives score = the 48-bit millisecond time and a 20-hex-digit suffix
// of the other 80 bits, which are the last 20 hex digits of the text without
// hyphens; it starts with the version digit 7. Join checks that suffixes
// carry version 7 and variant 10.
var UUIDv7 = &Layout128{name: "UUIDv7", parse: parseUUIDv7, format: appendUUID, valid: checkV7}

// uuidDashes are the positions of the hyphens in a UUID's text.
var uuidDashes = [...]int{8, 13, 18, 23}

// uuidBytes are the positions of the 16 bytes' hex pairs in a UUID's text.
var uuidBytes = [16]int{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34}

func parseUUIDv7(s string) (id [16]byte, err error) {
	if len(s) != uuidLen {
		return id, fmt.Errorf("length %d, want %d: %w", len(s), uuidLen, ErrSyntax)
	}
	for _, i := range uuidDashes {
		if s[i] != '-' {
			return id, fmt.Errorf("want '-' at %d, got %q: %w", i, s[i], ErrSyntax)
		}
	}
	for j, i := range uuidBytes {
		hi, lo := hexValues[s[i]], hexValues[s[i+1]]
		if hi == invalid || lo == invalid {
			return id, fmt.Errorf("%q at %d is not hex: %w", s[i:i+2], i, ErrSyntax)
		}
		id[j] = hi<<4 | lo
	}
	if id == ([16]byte{}) {
		return id, nil // the nil UUID: the zero ID, a cursor
	}
	if detail := checkV7(id); detail != "" {
		return id, fmt.Errorf("%s: %w", detail, ErrVersion)
	}
	return id, nil
}

// checkV7 says what is wrong with id as a UUIDv7, or returns "".
func checkV7(id [16]byte) string {
	switch {
	case id[6]>>4 != 7:
		return fmt.Sprintf("version %d, want 7", id[6]>>4)
	case id[8]>>6 != 2:
		return fmt.Sprintf("variant bits %02b, want 10", id[8]>>6)
	}
	return ""
}

func appendUUID(dst []byte, id [16]byte) []byte {
	for i, b := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[b>>4], hexDigits[b&15])
	}
	return dst
}

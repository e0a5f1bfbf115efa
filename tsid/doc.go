// Package tsid splits time-ordered IDs into an exact Redis sorted-set score
// and a fixed-width member prefix, so that a sorted set orders them exactly.
//
// A sorted-set score is a float64, which holds integers exactly only up to
// 2^53. A 64-bit ID used as a score loses its low bits: 640436544564866084
// comes back as 640436544564866048, and "messages before this one" finds
// messages that are not before it. tsid splits an ID into its time part,
// at most 53 bits and so exact as a score, and its other bits, written as
// a suffix of fixed width whose byte order is their numeric order. Redis
// orders members by score, then by member bytes, so a member that starts
// with the suffix puts IDs in exact order:
//
//	id  = time part | rest bits
//	ZADD key <time part> <suffix><anything>
//
// <anything> must identify the message on its own, for example the time
// part in hex (or the whole ID) followed by the payload: a suffix alone
// repeats across time units, so two messages of different time units
// with the same suffix and the same <anything> would be one member, and
// ZADD would move the older one to the newer score.
//
// The suffix is the rest bits in lowercase hex, zero-padded to
// ceil(RestBits/4) digits: 6 for TSID and the snowflakes, 20 for ULID and
// UUIDv7. Fixed width is what makes byte order numeric order: the decimal
// "999" sorts after "3648548", the hex "0003e7" before "37ac24".
//
// # Layouts
//
// Bit 63 is the most significant. TSID, 64 bits, 13 Crockford base32
// characters:
//
//	 63                                    22 21         12 11          0
//	+----------------------------------------+-------------+-------------+
//	| ms since 2020-01-01T00:00:00Z (42 bits)| node (10)   | counter (12)|
//	+----------------------------------------+-------------+-------------+
//	  score                                    suffix: 6 hex digits
//	                                           (node/counter split may vary)
//
// Twitter Snowflake, 63 bits (fits int64), decimal:
//
//	 63 62                                 22 21         12 11          0
//	+--+-------------------------------------+-------------+-------------+
//	|0 | ms since 1288834974657 (41 bits)    | machine (10)| sequence(12)|
//	+--+-------------------------------------+-------------+-------------+
//
// Discord, 64 bits, decimal:
//
//	 63                                    22 21   17 16   12 11        0
//	+----------------------------------------+-------+-------+-----------+
//	| ms since 1420070400000 (42 bits)       |worker |process| increment |
//	|                                        |  (5)  |  (5)  |   (12)    |
//	+----------------------------------------+-------+-------+-----------+
//
// Sonyflake, 63 bits, decimal:
//
//	 63 62                            24 23        16 15                0
//	+--+---------------------------------+------------+------------------+
//	|0 | 10 ms units since 2014-09-01    | sequence(8)| machine id (16)  |
//	|  | (39 bits)                       |            |                  |
//	+--+---------------------------------+------------+------------------+
//
// ULID and UUIDv7, 128 bits, as 16 big-endian bytes:
//
//	 127                        80 79                                    0
//	+----------------------------+---------------------------------------+
//	| Unix ms (48 bits)          | random (80 bits)                ULID  |
//	| Unix ms (48 bits)          | ver 7 (4) rand_a (12) var 10 (2)      |
//	|                            | rand_b (62)                     UUIDv7|
//	+----------------------------+---------------------------------------+
//	  score                        suffix: 20 hex digits
//
// Custom 64-bit layouts come from NewLayout and NewLayoutSpec: any time
// width up to 53 bits, epoch and unit, and up to 64 bits in all.
//
// # Errors
//
// Every error wraps one of the sentinels ErrSyntax, ErrRange, ErrScore,
// ErrVersion, ErrOptions and ErrField, and names the input it refuses, its
// value and what is allowed, saying "tsid: " once:
//
//	tsid: layout "custom": TimeBits = 54 out of range [1, 53]: invalid options
//
// Test for them with errors.Is. Out-of-range values are refused, never
// masked.
//
// # Generating
//
// A Generator, configured by GeneratorOptions, makes TSIDs (or IDs of
// another 64-bit layout) that are unique and strictly increasing across
// goroutines, even when the clock steps back.
//
// # Timeline
//
// Package [github.com/tiebreak/tiebreak/tsid/timeline] keeps the chat
// history of a room in a Redis sorted set built on these splits, read
// back in pages in exact ID order. tsid itself knows nothing of Redis.
package tsid

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
// ErrVersion, ErrConfig and ErrField, and names the input it refuses; test
// for them with errors.Is. Out-of-range values are refused, never masked.
// A Timeline adds ErrRoom, ErrPageSize, ErrPayload, ErrNotFound, ErrRedis
// and ErrReply.
//
// # Generating
//
// A Generator makes TSIDs (or IDs of another 64-bit layout) that are
// unique and strictly increasing across goroutines, even when the clock
// steps back.
//
// # Timeline
//
// A Timeline is the chat history of one room: messages (an ID of any
// layout above, any Codec, and payload bytes) in one sorted set, read in
// pages in exact ID order. Its key carries the room as hash tag, so it
// works on Redis Cluster. Each member starts with an ID prefix of fixed
// width that names the message on its own, followed by the payload, and
// the set holds one member per ID:
//
//	tl:{room}:z  sorted set
//
//	SplitScore  score  = time part                           exact below 2^53
//	            member = [suffix][time part, hex][payload ...]
//	                      ^ orders a millisecond's messages
//	LexID       score  = 0
//	            member = [time part, hex][suffix][payload ...]
//	                      ^ the whole ID, fixed width: byte order = ID order
//
// For TSID the ID prefix is 17 hex digits (11 of time, 6 of suffix), for
// ULID and UUIDv7 32. The time part is in the member of both strategies
// because a suffix alone repeats across milliseconds: with the suffix as
// the whole member, ZADD would move an older message to a newer score.
//
// Pages are read by value, with exclusive cursors that need not be stored
// (a deleted message, an ID never appended), each in one round trip:
//
//	LexID       Before  ZRANGE key (<id> - BYLEX REV LIMIT 0 n+1
//	            After   ZRANGE key [<id'> + BYLEX LIMIT 0 n+1
//	SplitScore  Before  MULTI
//	                    ZRANGE key <t> <t> BYSCORE LIMIT 0 33      the cursor's unit
//	                    ZRANGE key (<t> -inf BYSCORE REV LIMIT 0 n+1
//	                    EXEC     and the unit's members below the cursor
//
// where <id> is the cursor's ID prefix and <id'> the same with its last
// digit raised by one, the least string above every member of <id>; n+1
// tells whether there is more. A split time unit crowded with more
// than 32 messages is read again by a script that finds the cursor by
// binary search over the unit's ranks: a second round trip, with bounded
// work even for 10,000 messages in one millisecond. Around is one script
// in both strategies, Latest one ZRANGE. Every write is one script: Append
// and AppendMany store messages, replacing the payload of an ID already
// stored, and apply the retention (MaxLen, MaxAge) in the same script;
// Trim applies it alone; Delete removes one message.
package tsid

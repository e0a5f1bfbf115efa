// Package timeline keeps the chat history of a room in Redis: messages
// keyed by time-ordered IDs (TSID, Snowflake, Discord, Sonyflake, custom
// layouts, ULID, UUIDv7: any layout of package
// [github.com/tiebreak/tiebreak/tsid], or any Codec) with payload bytes,
// read back in pages in exact ID order, even when thousands of messages
// share one millisecond and their IDs collapse into one float64 score.
//
//	tl, err := timeline.New(client, "general", tsid.TSID, timeline.Options{})
//	err = tl.Append(ctx, id, payload)
//	page, err := tl.Latest(ctx, 50)           // newest first
//	page, err = tl.Before(ctx, page.Next, 50) // and on, older
//
// # Storage
//
// A Timeline keeps one sorted set. Its key carries the room as hash tag,
// so it works on Redis Cluster. Each member starts with an ID prefix of
// fixed width that names the message on its own, followed by the payload,
// and the set holds one member per ID:
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
// The time part and the suffix are those of the codec's split (see
// [tsid.Layout.Split]): the time part, at most 53 bits, is exact as a score;
// the suffix is the rest bits as fixed-width lowercase hex. For TSID the
// ID prefix is 17 hex digits (11 of time, 6 of suffix), for ULID and
// UUIDv7 32. The time part is in the member of both strategies because a
// suffix alone repeats across milliseconds: with the suffix as the whole
// member, ZADD would move an older message to a newer score.
//
// # Reads and writes
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
// tells whether there is more. A split time unit crowded with more than
// 32 messages is read again by a script that finds the cursor by binary
// search over the unit's ranks: a second round trip, with bounded work
// even for 10,000 messages in one millisecond. Around is one script in
// both strategies, Latest one ZRANGE. Every write is one script: Append
// and AppendMany store messages, replacing the payload of an ID already
// stored, and apply the retention (MaxLen, MaxAge) in the same script;
// Trim applies it alone; Delete removes one message.
//
// # Errors
//
// Every error wraps exactly one of the sentinels ErrConfig, ErrRoom,
// ErrID, ErrPageSize, ErrPayload, ErrNotFound, ErrRedis and ErrReply;
// test for them with errors.Is. An ID the codec refuses is ErrID and also
// wraps the codec's own error (tsid.ErrRange, tsid.ErrVersion, ...). A
// refused call changes nothing.
package timeline

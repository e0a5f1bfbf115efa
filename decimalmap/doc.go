// Package decimalmap keeps a sorted multimap in Redis: exact decimal keys
// of any precision and sign, in numeric order, each mapped to a list of
// strings in insertion order, repeats kept. It is what Java calls a
// TreeMap<BigDecimal, List<String>>: the job the two-level decimal index
// (the integer part as a score, the fractions of each integer part in a
// sorted set of their own) does by hand, done in two sorted sets of fixed
// names, exactly, and in one round trip per range.
//
//	m, _ := decimalmap.New(client, "prices", decimalmap.Options{})
//	m.Add(ctx, "25500.12346", "user2", "user3", "user2")
//	m.Range(ctx, decimalmap.Query{
//		Min: decimalmap.Inclusive("25500.12346"),
//		Max: decimalmap.Inclusive("25505.2"),
//	})
//
// # Keys
//
// A key is decimal text as pack.AppendDecimal reads it: an optional sign,
// digits with at most one point, an optional exponent ("-0.5", "25500",
// "1E+30", "2.55001e4"). Keys equal in value are the same key: "25500.1",
// "25500.10" and "2.55001E4" name one list, and keys come back in their
// canonical text ("25500.1"; "1E+31" past 30 padding zeros). Every
// operation taking a key refuses, with an error wrapping ErrKey and
// pack.ErrSyntax, "", "abc", "1e", "--1", "1.2.3", "NaN", "Inf" and spaces;
// with ErrKey and pack.ErrOverflow, a digit whose place value 10^k has k
// outside int32 ("1E+2147483648"); with ErrKey alone, text over
// Options.MaxKeyLen bytes. A refused call writes nothing.
//
// # Errors
//
// Every error wraps one of the package's sentinels (ErrKey, ErrArgument,
// ErrName, ErrOptions, ErrRedis, ErrReply); test with errors.Is. Its text
// says "decimalmap: " once, then the call and the argument that failed,
// with the value given and the range allowed:
//
//	decimalmap: remove: len(keys) = 0 out of range [1, 1000]: invalid argument
//
// # Storage
//
// A map is two Redis keys, sharing the hash tag {name}:
//
//	dm:{name}:k  sorted set, every score 0, member enc(key): the keys
//	dm:{name}:e  sorted set, every score 0, one member per value:
//	             enc(key) seq value, seq the value's place in its key's
//	             insertion order as 16 decimal digits
//
// enc is pack's order-preserving decimal encoding: printable ASCII whose
// byte order is numeric order, one encoding per value, none a prefix of
// another:
//
//	key          enc(key)
//	-10          NJ88~
//	-0.5         Na14~
//	0            O
//	25500.12345  Pa42550012345.
//	25500.12346  Pa42550012346.
//	1E+30        Pb301.
//
// With equal scores Redis orders members by their bytes, so the keys are
// in key order and a range of keys is one ZRANGE ... BYLEX between the
// bounds' encodings ("[" inclusive, "(" exclusive, "-" and "+"
// unbounded). As no encoding is a prefix of another, appending anything to
// two encodings keeps their order: the entries are in key order, then in
// insertion order within a key (seq), and the entries of one key are those
// between enc(key) and enc(key) followed by byte 0xff. Values that repeat
// under one key are distinct members, by their seq. A key is in the keys
// set exactly when it has at least one entry.
//
//	Add          ZSCORE keys, the key's last entry (its seq), ZADD entries,
//	             ZADD keys when new, ZLEXCOUNT of the key's entries
//	Get          ZRANGE entries [enc (enc\xff BYLEX          (one command)
//	Range, Scan  ZRANGE keys <lo> <hi> BYLEX LIMIT 0 n+1, then one ZRANGE
//	             entries from the first key's entries to the last's
//	Remove       ZREM keys, ZREMRANGEBYLEX entries per key
//	RemoveValue  the key's entries, oldest first, to the first of that value
//	Drop         UNLINK keys entries                        (one command)
//
// # Atomicity and Redis Cluster
//
// Add, Remove, RemoveValue, Range and Scan are each one Lua script, and
// Drop one UNLINK, so no reader ever sees a key without its values or
// values without their key. Every script declares both of the map's keys
// in KEYS and touches no other key, as Redis Cluster, ACL key patterns and
// strict servers require; a Range or a Drop during a slot migration moves
// or fails as a whole. Range and Scan read one snapshot in one round trip,
// whatever the number of keys: two ZRANGEs inside one read-only script.
// Get is one ZRANGE, Len one ZCARD.
//
// # Maps stored by earlier versions
//
// Versions before this storage kept a map as an index dm:{name}:i and one
// list per key, dm:{name}:l:<enc(key)>. This version neither reads nor
// writes those keys: a map written by an earlier version reads as empty
// and its old keys stay until deleted. There is no migration in the
// package; to keep such a map, read it with the earlier version (Range or
// Scan) and Add every entry with this one, then delete dm:{name}:i and the
// dm:{name}:l:* lists (SCAN MATCH on the map's hash tag, UNLINK).
//
// # Persistence
//
// A map is ordinary Redis data and persists as Redis does (AOF or RDB);
// scripts are replicated and logged by their effects.
package decimalmap

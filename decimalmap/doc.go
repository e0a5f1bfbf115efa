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
// Options.MaxKeyLen bytes (256 by default, at most), and Add a key whose
// canonical text is (with MaxKeyLen 8, "1e20": its canonical text
// "100000000000000000000", by which reads return it and Scan's cursor
// names it, is 21 bytes). A refused call writes nothing.
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
//	Add          one script: ZSCORE keys, ZLEXCOUNT and the last entry of
//	             the key (its count, its seq), ZADD entries, ZADD keys if new
//	Get          ZRANGE entries [enc (enc\xff BYLEX          (one command)
//	Range, Scan  MULTI, ZRANGE keys <lo> <hi> BYLEX LIMIT 0 n+1,
//	             ZRANGE entries <lo'> <hi'> BYLEX LIMIT 0 5001, EXEC
//	Remove       one script: ZLEXCOUNT per key, ZREM keys, ZREMRANGEBYLEX
//	             entries per key
//	RemoveValue  one script: the key's entries, oldest first, to the first
//	             of that value
//	Drop         UNLINK keys entries                        (one command)
//
// where <lo'> and <hi'> are the range's bounds on the entries: "[" enc(lo)
// for an inclusive lower bound, "[" enc(lo) 0xff for an exclusive one, "("
// enc(hi) 0xff for an inclusive upper bound, "(" enc(hi) for an exclusive
// one.
//
// # Atomicity and Redis Cluster
//
// Add, Remove and RemoveValue are each one Lua script, Range and Scan one
// MULTI/EXEC, Drop one UNLINK, so no reader ever sees a key without its
// values or values without their key. Every script declares both of the
// map's keys in KEYS and touches no other key, as Redis Cluster, ACL key
// patterns and strict servers require (a test runs every operation as a
// user allowed the two keys only); during a slot migration a call moves or
// fails as a whole. Range and Scan read one snapshot in one round trip,
// whatever the number of keys; they are a transaction rather than a
// script because a script copies every value it reads into Lua and out
// again: a range of 10,000 values of 2 KiB took 140-330 ms as a script.
// Get is one ZRANGE, Len one ZCARD.
//
// # Bounds
//
// No call can stall Redis. A key is at most MaxKeyLenLimit (256) bytes, a
// value MaxValueLen (256), an Add takes at most MaxAddValues (100) values,
// a key holds at most MaxValues (1,000), and one Range, Scan page or Remove
// reads or removes at most MaxCallValues (5,000) values; MaxRemove (1,000)
// keys per Remove. A call over a bound is refused with ErrArgument (ErrKey
// for a key) and changes nothing; a Scan page ends early instead, with
// HasMore. The worst call allowed at each bound, in Redis time (INFO
// commandstats, a server of the test's own, on a shared 2-core machine;
// keys and values at their longest):
//
//	Add of 100 values to a new key                0.24-0.67 ms
//	Range of 5 keys of 1,000 values (5,000)        0.8-4.7 ms, median 1.3
//	Scan page fitting 5 of 6 full keys             1.1-2.3 ms
//	Remove of 5 full keys (5,000 values)           1.7-3.7 ms
//	RemoveValue of a value a full key lacks        0.8-1.4 ms
//	Get of a full key                              0.15-0.42 ms
//	Drop                                           one UNLINK: freed in the background
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
//
// # A changing cluster
//
// On a Redis Cluster, a call that Redis refused without running it (TRYAGAIN
// while the map's slot moves between masters, CLUSTERDOWN until a replica
// takes over from a dead master, LOADING) is sent again, with waits from 1
// ms to 100 ms, within ctx and for 10 s at most. A connection error is never
// sent again; its message says whether a write may have run. Safe to call
// again after such an error: Remove, Drop and every read. Not idempotent:
// Add (it appends the values again: repeats are kept) and RemoveValue (it
// removes the next occurrence).
package decimalmap

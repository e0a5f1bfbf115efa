// Package decimalmap keeps a sorted multimap in Redis: exact decimal keys
// of any precision and sign, in numeric order, each mapped to a list of
// strings in insertion order, repeats kept. It is what Java calls a
// TreeMap<BigDecimal, List<String>>: the job the two-level decimal index
// (the integer part as a score, the fractions of each integer part in a
// sorted set of their own) does by hand, done in one sorted set, exactly,
// and in one round trip per range.
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
// Every key of a map shares the hash tag {name}:
//
//	dm:{name}:i            sorted set, every score 0, member enc(key)
//	dm:{name}:l:<enc(key)> list, the key's values in insertion order
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
// With equal scores Redis orders members by their bytes, so the index is
// in key order and a range of keys is one ZRANGE ... BYLEX between the
// bounds' encodings ("[" inclusive, "(" exclusive, "-" and "+" unbounded).
// As members are bare encodings, enc(hi) itself is an exact bound (members
// with a suffix after the encoding would need enc(hi) with its last byte
// raised by one). A key is in the index exactly when its list exists and is
// not empty.
//
// # Atomicity and Redis Cluster
//
// Add, Remove, RemoveValue and Drop are each one Lua script writing the
// index and the lists together, so no reader ever sees a key without its
// list or a list without its key. Range and Scan are one read-only script
// that reads the index and then every list it names: one round trip and
// one snapshot, whatever the number of keys. Get is one LRANGE, Len one
// ZCARD.
//
// Add, Remove and RemoveValue pass every key they touch in KEYS. Range,
// Scan and Drop cannot: the lists they reach are known only once the index
// is read.
// Their scripts receive the index in KEYS and build list names from a
// prefix passed in ARGV. Every list carries the index's hash tag, so on
// Redis Cluster it lives in the index's slot, on the node the script runs
// on; Redis allows a script to reach such undeclared same-slot keys, and
// the package's tests run on a 3-master cluster to hold it to that.
//
// # Persistence
//
// A map is ordinary Redis data and persists as Redis does (AOF or RDB);
// scripts are replicated and logged by their effects.
package decimalmap

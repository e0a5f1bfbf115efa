// Package board keeps leaderboards in Redis sorted sets whose ties are
// broken by further keys: points, then paid first, then earliest time.
//
// A board ranks entries by the fields of a pack.Layout, compared in order,
// each in its own direction, like tuples; rank 1 is the best. Entries equal
// in every field are ordered by id in ascending byte order.
//
// # Storage
//
// Every key of a board shares the hash tag {name}, so every script runs on
// one Redis Cluster slot:
//
//	tb:{name}:meta  HASH: the descriptor (JSON), the generation, a migration's state
//	tb:{name}:z     sorted set, ascending order = best first
//	tb:{name}:i     HASH bucket -> ids with their prefixes  (KeySuffix, 2+ fields)
//	tb:{name}:d     HASH id -> member data     (when written)
//	tb:{name}:v     distinct value tuples      (DenseRanks only)
//	tb:{name}:c     tuple -> number of entries (DenseRanks only)
//	tb:{name}:h     the hidden entries, as z   (Hiding only)
//	tb:{name}:top   STRING: the best entries   (KeepTop only; rebuilt when absent)
//	tb:{name}:a     HASH id -> attempts        (Rules only; every generation)
//	tb:{name}:r:ID  STRING: a write's result under its request id ID
//	                (Submission.RequestID; each expires after
//	                Options.RequestRetention; Clear, Drop and Migrate
//	                forget them, leaving them to expire)
//
// Those are generation 0's names; after a migration the entries live under
// tb:{name}:g2:z, tb:{name}:g2:i and so on (see Migrate). A board of a
// group (Options.Group) has the same keys under tb:{group}:{name}:..., so
// the boards of a group share one slot; their shared member data, if any,
// is tb:{group}:data.
//
// Two strategies store the same board:
//
//	PackedScore  score  = -(fields packed by the layout)   exact below 2^53
//	             member = id
//
//	KeySuffix    score  = -points (or points when lower is better): any float64
//	             member = [fields 2..n, fixed-width digits][id ........]
//	                       ^ reversed so that better sorts first, then id
//
// Scores are negated so that the ascending order Redis keeps (score, then
// member bytes) puts the best entry first and breaks ties by id ascending.
//
// A key-suffix board finds an id's member through tb:{name}:i: the ids are
// hashed (SHA1) into buckets of about 8, and each bucket is one HASH field
// holding its ids, each with its hash and its member's prefix, so the
// member is prefix + id. A HASH field per id would cost more than the sorted set's own
// entry (about 70 bytes of Redis overhead each); a field per bucket brings
// a key-suffix board to about 1.3x a plain sorted set per member. The
// buckets split as the board grows (linear hashing, lua/lookup.lua),
// moving ids by the hash each record keeps, without hashing them again. A
// key-suffix layout of one field has no prefix: its member is the id, as
// on a packed board, found by ZSCORE of the id, and no lookup is kept.
//
// A key-suffix board's plain writes (Replace or Best, nothing else: no
// member data, expiry, request id, expectation or overtaken ids, on a board
// without dense ranks, cap, rules or hiding) run lua/submitlean.lua: the
// caller hashes the id, the script finds its record once and writes the
// entry, its bucket only when the prefix changed, and nothing when
// nothing changed. Concurrent callers of one handle share its calls, up
// to 64 writes in one, as the packed board's native writes share
// MULTI/EXECs: the descriptor, the number of buckets and the buckets are
// read once per call, and the buckets written stored in one HSET. At 64
// callers such writes reached 0.55x to 0.83x a packed board's throughput
// on Redis 7.0, depending on the run and the machine's day
// (docs/performance.md), against 0.4x with a script per write.
//
// # A board describes itself
//
// The layout and the board's settings (Strategy, Cap, DenseRanks, Group,
// SharedData, Shards, Hiding, KeepTop, Bounds, Rules) are stored with the
// board, as JSON in tb:{name}:meta (HGET tb:{name}:meta desc in redis-cli). New
// writes it for a board that has none and refuses a handle that differs
// (ErrMismatch, naming the setting); a periodic window gets it with its
// first write. Open builds a handle from it alone. None of this costs a
// call anything: the check is made once, by New.
//
// Migrate changes the layout and options of a board while it is written,
// in generations:
//
//	generation g          g+1 (source)              g+2 (target)
//	  live  --begin-->  entries RENAMEd here;    <-- every write mirrored
//	                    tombstones left at g         here in the same script;
//	                                                 the copy walks the source
//	                  --switch-->  source removed, tombstones at g+1,
//	                               the target is the board
//
// A tombstone is a string where a handle expects a sorted set or a HASH,
// so a handle that has not seen a step fails on its first command before
// writing anything (WRONGTYPE), reads the meta HASH again and carries on in
// the new generation, or reports ErrMismatch when the board no longer has
// its settings. Reads come from the source until the switch.
//
// # One board over many nodes
//
// A sharded board (Options.Shards) spreads one board over S shards, each a
// board of its own with its own hash tag, so that on a cluster they live
// on different nodes:
//
//	tb:{name}:meta        the descriptor: layout, options, S, the shards' names
//	tb:{name~0.k0}:z ...  shard 0, a board: its entries, its own meta HASH
//	tb:{name~1.k1}:z ...  shard 1 ...
//
//	tb:{name~0.k0}:hist   shard 0's entries by score bucket (Percentile)
//
//	id --FNV-1a 64--> jump hash --> shard i   (fixed: an id never moves)
//
// A write is one script on the id's shard. A read asks every shard at once
// and merges: a rank is, summed over the shards, how many entries come
// strictly before the entry's (score, member) position; a list merges each
// shard's run of entries from an anchor (the start, a cursor, an entry, or
// a bound found by sampling for a deep page). Reshard changes S: each old
// shard becomes exporting (its writes record their ids), is copied, frozen
// (its writes wait), drained of the last ids, retired; then the
// descriptor switches to the new shards.
//
// Reads of a sharded board are exact: every answer, ranks included, is the
// one a board of one hash tag holding the same entries gives (Percentile's
// within its stated Error). Each read asks all shards at once (one
// pipelined batch per node), in at most two round trips whatever S, three
// for a key-suffix board's Get, Rank and Around: Len, Top, Scan,
// Percentile and, near the top, Page and Between make one; Get, Rank,
// Around, Among, a deep Page or Between make two, and a key-suffix
// board's Get, Rank and Around one more, first, to find the id's member in
// its shard's lookup. Each shard answers atomically, but a read across
// shards is not one snapshot: during writes, ranks may count an entry
// twice or not at all for an instant (an id never moves between shards);
// a read of a board at rest, or of entries no write touches meanwhile, is
// exact. Dense ranks, Group and SharedData are refused (ErrOptions), and
// so are Migrate (ErrArgument: a sharded board keeps its layout) and
// NewGroup.
//
// Percentile answers "top x%" in one round trip whatever S, from counts
// the write scripts keep: each shard's HASH ...:hist counts its entries by
// bucket of their stored score (the sign, the power of two and one of its
// 32 parts: the scores of a bucket differ by less than 1/32 of their
// magnitude). The id's shard gives its exact rank there and its score's
// bucket, every other shard its histogram: the rank lies in [MinRank,
// MaxRank], the range being the other shards' entries in the entry's
// bucket, and Error = (MaxRank-MinRank)/2/Total. A board of one hash tag
// answers exactly. A shard whose histogram does not count all its entries
// (entries written by hand) is refused with ErrReply until a Reshard to
// another count or a Clear.
//
// Cap on a sharded board: each shard keeps its best Cap entries, which
// holds the best Cap of the board whatever shard they are in, and reads
// show only the best Cap of the whole board (Len counts at most Cap; an
// entry beyond is ErrNotFound). Unlike a board of one hash tag, which
// forgets an entry pushed out of the best Cap, a shard keeps it until its
// own shard holds Cap better ones, so an entry can come back into view when
// better ones leave. The board holds up to S times Cap entries.
//
// # Atomicity
//
// Every write is one Lua script, one round trip: Submit (every Policy,
// of the entry or of each field), Remove, SetData, and the compare-and-set of Update.
// On a sharded board, a write is one script on the id's shard, and
// Submit reads the board-wide rank in a second round trip (see
// Options.SkipWriteRank); Remove of ids on several shards runs one script
// on each, atomic per shard only. A script that a server does not hold
// (after a restart, a failover or SCRIPT FLUSH) costs the call that finds
// it missing one more round trip: the EVAL that loads it.
// The cap, the dense-rank index, member data and expiry are kept in the
// same script. Every read answers from one snapshot: a read that asks for
// nothing more than entries and ordinal ranks is one command (ZRANGE for
// Top and Page, ZRANK for a packed board's Rank, ZRANK ... WITHSCORE or
// ZSCORE and ZRANK in one MULTI/EXEC for a packed board's Get), what a
// hand-written leaderboard sends; any other is one script that computes
// the ranks, total and data asked for (WithRanks, WithTotal, WithData).
//
// # Hot reads and changes
//
// A board with Options.KeepTop keeps its best entries in a key of their
// own, rewritten only by a write that changes them; a handle with
// Options.CacheTop reads Top, and Page within them, from its client's
// memory (client-side caching, invalidated by Redis when the key changes).
// Watch delivers a read's list (a Top, an Around, an Among, ...) each time
// it changes, at most once per interval, reading it every interval: nothing
// needs configuring on the server.
//
// A Group of boards of one Options.Group writes one result to all of them
// (Group.Submit, each board with its own policy) and removes ids from all
// of them and from their shared member data (Group.Remove), each in one
// script: every board's part is checked before any board is written, so
// a refusal by any board writes nothing on any.
//
// The scripts never compare strings with Lua's < (it follows the server's
// locale), never use the 32-bit bit library, and return scores as strings.
//
// # Clear and Drop
//
// Clear empties a board and keeps its descriptor, so the board stays
// openable and writable with the same settings; Drop removes the board,
// descriptor included. Both are one script on a board of one hash tag;
// on a sharded board, one script per shard. Both refuse (ErrMigrating,
// nothing changed) while a migration or a resharding is under way (Drop
// only when it kept losing races to one).
//
// After a Drop, a write through a handle made before it makes the board
// whole again in the same atomic step: the handle's descriptor,
// generation and (a window's) expiry with the entry, as New would have
// stored them, so that Open and every handle read it as before. A write
// to a sharded board dropped (or to a shard dropped) is refused instead,
// with an error wrapping ErrNotFound: its descriptor lives at another
// hash tag than its shards', out of any shard's script.
//
// # Tournaments
//
// Options.Rules make a board a tournament: a start and an end, joining
// required, a most members, a most scored attempts per member (per window
// on a periodic board). They are stored in the descriptor and every write
// checks them inside its script, by the server's clock, before it writes:
// a refusal is ErrClosed, ErrNotJoined, ErrFull or ErrNoAttempts (each an
// ErrArgument) and changes nothing. Join enters members, Entrant reads
// one's attempts left. A sharded board refuses rules (ErrOptions).
//
// # A changing cluster
//
// On a Redis Cluster, a call that Redis refused without running it (TRYAGAIN
// while the board's slot moves between masters, CLUSTERDOWN until a replica
// takes over from a dead master, LOADING) is sent again, with waits from 1
// ms to 100 ms, within ctx and for 10 s at most. A connection error is never
// sent again; its message says whether a write may have run. Safe to call
// again after such an error: Submit, SubmitMany and Group.Submit with
// every policy but Add (of the entry or of a field); SetData, Remove,
// Group.Remove, Clear, Drop and every read. Not idempotent: Add without a
// RequestID (it adds again) and Update (its function runs again on the entry it may have
// changed).
package board

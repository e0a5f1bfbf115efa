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
//	tb:{name}:z   sorted set, ascending order = best first
//	tb:{name}:m   HASH id -> member          (KeySuffix only)
//	tb:{name}:d   HASH id -> member data     (when written)
//	tb:{name}:v   distinct value tuples      (DenseRanks only)
//	tb:{name}:c   tuple -> number of entries (DenseRanks only)
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
// # Atomicity
//
// Every write is one Lua script, one round trip: Submit (Replace, Best or
// PerField operators), Remove, SetData, and the compare-and-set of Update.
// The cap, the dense-rank index, member data and expiry are kept in the
// same script. Every read that lists entries computes their ranks in the
// same script, so an answer comes from one snapshot.
//
// The scripts never compare strings with Lua's < (it follows the server's
// locale), never use the 32-bit bit library, and return scores as strings.
package board

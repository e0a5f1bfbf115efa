package board_test

import (
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/benchload/gobench"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// BenchmarkSubmit is the bench command's write workload, uniform case:
// Submit with Policy Best in both strategies against the baselines (the
// watch-multi and read-then-CAS leaderboards) and the limits (plain ZADD,
// and a bare EVALSHA of the minimal script making the same Redis calls as
// a packed Submit), each on its own board of 10,000 ids. Each reports
// x-bare-evalsha, the bare EVALSHA's ns/op over its own.
func BenchmarkSubmit(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "writes")
	gobench.Run(b, env, gobench.Comparison(b, f, "uniform"))
}

// BenchmarkSubmitHot is the same on 100 hot ids: contention.
func BenchmarkSubmitHot(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "writes")
	gobench.Run(b, env, gobench.Comparison(b, f, "hot100"))
}

// BenchmarkRead is the bench command's read workload at one size, 10,000
// entries: Top(10), Rank, Around(10), Page at an offset and Scan from a
// cursor deep in the board, in both strategies.
func BenchmarkRead(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "reads", "sizes=1e4")
	for _, c := range f.Comparisons {
		gobench.Run(b, env, c)
	}
}

// BenchmarkReadCost is the bench command's readcost workload on 10,000
// entries: Top(10), Around(id, 11), Get and Rank in both strategies
// against the bare commands of the same answers (redis-cpu-µs/op is the
// figure the goal divides).
func BenchmarkReadCost(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "readcost")
	for _, c := range f.Comparisons {
		gobench.Run(b, env, c)
	}
}

// BenchmarkHotTop is the bench command's hot workload on 10,000 entries:
// Top(10) through a handle with CacheTop against the same without, under
// background writes; the log gives the staleness of the cached reads and
// the delay of a Watch.
func BenchmarkHotTop(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "hottop")
	for _, c := range f.Comparisons {
		gobench.Run(b, env, c)
	}
}

// BenchmarkAmong is the bench command's friends workload on 10,000
// entries: Among of 20 and of 1,000 ids against a Get per id, one caller.
func BenchmarkAmong(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "friends", "friends-board=1e4")
	for _, c := range f.Comparisons {
		gobench.Run(b, env, c)
	}
}

// BenchmarkSubmitMigrating is the bench command's migrate workload on
// 10,000 entries: Submit while the board migrates against Submit while no
// migration runs.
func BenchmarkSubmitMigrating(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "migrate", "migrate-board=1e4")
	gobench.Run(b, env, gobench.Comparison(b, f, "writes"))
}

// BenchmarkSubmitNative holds the packed Submit (Best) to Redis's own
// keep-best, ZADD LT CH, on 10,000 uniform ids: throughput at 64 callers
// (x-zadd) and the Redis CPU per write (redis-cpu-µs/op).
func BenchmarkSubmitNative(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "writes")
	gobench.Run(b, env, gobench.Comparison(b, f, "uniform-c64"))
	gobench.Run(b, env, gobench.Comparison(b, f, "uniform-cpu"))
}

// BenchmarkSubmitSuffix is the bench command's comparison of the
// key-suffix Submit (Best) with the packed one at 64 callers, on 10,000
// ids already on the boards (suffix-c64) and on new ids (suffix-new-c64),
// each variant after the other; BenchmarkSubmitSuffixRatio measures the
// same in alternating blocks, with the Redis CPU per write.
func BenchmarkSubmitSuffix(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "writes")
	gobench.Run(b, env, gobench.Comparison(b, f, "suffix-c64"))
	gobench.Run(b, env, gobench.Comparison(b, f, "suffix-new-c64"))
}

// BenchmarkSubmitNativeZScore is BenchmarkSubmitNative's Redis CPU per
// write with the board's client taken to be one of an engine that refused
// ZRANK ... WITHSCORE: its Best writes send ZADD, ZSCORE and ZRANK, as on
// Redis 7.0. On an engine that takes WITHSCORE (Redis 7.2, Valkey 8), the
// two benchmarks give the cost of either form on the same engine.
func BenchmarkSubmitNativeZScore(b *testing.B) {
	env := *redistest.New(b)
	env.Client = board.WithoutZRankWithScore(env.Client)
	f := gobench.Prepare(b, &env, "writes")
	gobench.Run(b, &env, gobench.Comparison(b, f, "uniform-cpu"))
}

// BenchmarkShardedReads is the bench command's sharded workload on 10,000
// entries, on a local 3-master cluster of its own: Get, Top(10),
// Around(10) and a deep Page on boards sharded over 4 and 16 shards
// against an unsharded board, one caller, each reporting its round-trips
// per op and the cluster's Redis CPU.
func BenchmarkShardedReads(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "sharded", "sharded-shards=4,16")
	for _, c := range f.Comparisons {
		if c.Name != "writes" {
			b.Run(c.Name, func(b *testing.B) { gobench.Run(b, env, c) })
		}
	}
}

// BenchmarkShardedWrites is the same workload's writes: Submit (Replace)
// without the board-wide rank on the sharded boards against Submit on the
// unsharded board.
func BenchmarkShardedWrites(b *testing.B) {
	env := redistest.New(b)
	f := gobench.Prepare(b, env, "sharded", "sharded-shards=4,16")
	gobench.Run(b, env, gobench.Comparison(b, f, "writes"))
}

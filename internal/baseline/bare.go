package baseline

import "github.com/redis/rueidis"

// BareSubmit is the limit of any scripted leaderboard write: the Redis
// calls a packed-score Submit makes (ZSCORE, ZADD, ZRANK), with nothing
// else. KEYS[1] the sorted set; ARGV[1] the id, ARGV[2] the score. The
// write workload of internal/benchload (the bench command's, and board's
// Go benchmarks) divides by it.
var BareSubmit = rueidis.NewLuaScript(`
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return {'ok', ARGV[1], ARGV[2], redis.call('ZRANK', KEYS[1], ARGV[1]) + 1}`)

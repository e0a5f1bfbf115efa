module github.com/tiebreak/tiebreak/bench

go 1.26.0

require (
	github.com/go-redis/redis_rate/v10 v10.0.1
	github.com/google/go-cmp v0.7.0
	github.com/redis/go-redis/v9 v9.23.0
	github.com/redis/rueidis v1.0.79
	github.com/tiebreak/tiebreak v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/oklog/ulid/v2 v2.1.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/tiebreak/tiebreak => ../

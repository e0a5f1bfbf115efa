// Command bench measures tiebreak's strategies side by side with the
// hand-written approaches they replace (the baselines) and with Redis's own
// limits, in one run, on one Redis, at one concurrency.
//
//	go run ./bench --quick            # everything small, under a minute
//	go run ./bench                    # the full run (writes bench/results/)
//	go run ./bench --sizes 1e4,1e5,1e6,1e7 --workloads reads
//
// It uses REDIS_URL when set, else starts a temporary redis-server of its
// own (internal/redisserver.StartServer); never an in-process fake, whose
// numbers would mean nothing. Every key it writes starts with a name unique
// to the run, and is deleted when its workload ends.
//
// Each workload compares variants: every variant runs with the same number
// of goroutines for the same time after a short warm-up, in interleaved
// rounds (ABC, BCA, CAB), and a ratio is the median over the rounds of the
// ratio within each round. See bench/README.md for the workloads, the goals
// they are held to, and how to add one.
//
// Results print as a table on stdout and are written as JSON (with the
// machine and the Redis configuration) and as an SVG chart of read latency
// against board size. Progress goes to stderr.
package main

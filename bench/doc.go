// Command bench measures tiebreak's strategies side by side with the
// hand-written approaches they replace (the baselines) and with Redis's own
// limits, in one run, on one Redis, at one concurrency.
//
//	go run -C bench . --quick            # everything small, under a minute
//	go run -C bench .                    # the full run (writes bench/results/)
//	go run -C bench . --sizes 1e4,1e5,1e6,1e7 --workloads reads
//	go run -C bench . --engines all      # on each engine in turn (bench/results/<engine>/)
//
// It uses REDIS_URL when set, else starts a temporary redis-server of its
// own (internal/redisserver.StartServer); never an in-process fake, whose
// numbers would mean nothing. With --engines it starts one per engine
// instead: each folder of --engines-dir named (bin/redis-server), and
// "default", the redis-server on PATH. Every key it writes starts with a name unique
// to the run, and is deleted when its workload ends.
//
// The workloads (data, variants, baselines, goals, and their settings,
// which become this command's flags) live in internal/benchload, which the
// packages' Go benchmarks run too. This command adds what go test -bench
// does not: every variant of a comparison runs with the same number of
// goroutines for the same time after a short warm-up, in interleaved
// rounds (ABC, BCA, CAB); a ratio is the median over the rounds of the
// ratio within each round; the goals are checked and reported, and read
// latency is drawn against board size. See bench/README.md for the
// workloads, the goals they are held to, both harnesses, and how to add a
// workload.
//
// Results print as a table on stdout and are written as JSON (with the
// machine and the Redis configuration) and as an SVG chart of read latency
// against board size. Progress goes to stderr.
package main

package main

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// casSpinScript is the read-then-CAS baseline's compare-and-set script:
// set the score of ARGV[1] to ARGV[3] if its score is still ARGV[2] (an
// empty ARGV[2] meaning absent); 1 if it wrote, else 0.
var casSpinScript = rueidis.NewLuaScript("if (((not (redis.call('zscore', KEYS[1], ARGV[1]))) and (ARGV[2] == '')) " +
	"or redis.call('zscore', KEYS[1], ARGV[1]) == ARGV[2]) " +
	" then redis.call('zadd',KEYS[1],ARGV[3],ARGV[1]) return 1 else return 0 end")

// casSpinLimit is how long the read-then-CAS baseline spins before it gives
// up.
const casSpinLimit = 2 * time.Second

// casSpin is the read-then-CAS baseline, the usual hand-written update of a
// packed score: read the score on the
// client (its raw string, which is exact), compute the new packed score,
// write it with the compare-and-set script, and spin (no pause) until the
// script writes or two seconds have passed. It is how low fields are
// usually set; here it keeps the better result, as every variant of the
// write workload does.
//
//	z  sorted set: score = packed fields (higher is better), member = id
//
// It reads with a plain ZSCORE rather than an EVAL of one: rueidis
// returns the raw reply string, and one command is the cheaper.
type casSpin struct {
	client  rueidis.Client
	z       string
	retries atomic.Int64 // scripts that found the score changed
	gaveUp  atomic.Int64 // submissions abandoned after casSpinLimit
}

// newCASSpin keeps its key under the hash tag {name}.
func newCASSpin(c rueidis.Client, name string) *casSpin {
	return &casSpin{client: c, z: "bench:{" + name + "}:z"}
}

// submit writes e for id if it beats the stored score, spinning on
// conflicts; a give-up after casSpinLimit is counted, not an error.
func (s *casSpin) submit(ctx context.Context, id string, e entry) error {
	start := time.Now()
	score := e.packed()
	arg := strconv.FormatUint(score, 10)
	for {
		if time.Since(start) > casSpinLimit {
			s.gaveUp.Add(1)
			return nil
		}
		done, err := s.try(ctx, id, score, arg)
		if err != nil || done {
			return err
		}
		s.retries.Add(1)
	}
}

// try makes one read and compare-and-set; done is false on a conflict.
func (s *casSpin) try(ctx context.Context, id string, score uint64, arg string) (bool, error) {
	old, err := s.client.Do(ctx, s.client.B().Zscore().Key(s.z).Member(id).Build()).ToString()
	if err = nilOK(err); err != nil {
		return false, err
	}
	if old != "" {
		o, err := strconv.ParseFloat(old, 64)
		if err != nil || float64(score) <= o {
			return true, err
		}
	}
	n, err := casSpinScript.Exec(ctx, s.client, []string{s.z}, []string{id, old, arg}).AsInt64()
	return n == 1, err
}

// load writes entries 0..n-1 with zero points, pipelined.
func (s *casSpin) load(ctx context.Context, from, to int64) error {
	return zaddChunk(ctx, s.client, s.z, from, to, func(i int64) float64 { return float64(startEntry(i).packed()) })
}

// keys returns the baseline's key.
func (s *casSpin) keys() []string { return []string{s.z} }

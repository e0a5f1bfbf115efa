package baseline

import (
	"context"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// casScript is the read-then-CAS baseline's compare-and-set script: set
// the score of ARGV[1] to ARGV[3] if its score is still ARGV[2] (an empty
// ARGV[2] meaning absent); 1 if it wrote, else 0.
var casScript = rueidis.NewLuaScript("if (((not (redis.call('zscore', KEYS[1], ARGV[1]))) and (ARGV[2] == '')) " +
	"or redis.call('zscore', KEYS[1], ARGV[1]) == ARGV[2]) " +
	" then redis.call('zadd',KEYS[1],ARGV[3],ARGV[1]) return 1 else return 0 end")

// CASSpinLimit is how long the read-then-CAS baseline spins before it
// gives up.
const CASSpinLimit = 2 * time.Second

// CASSpin is the read-then-CAS baseline, the usual hand-written update of a
// packed score: read the score on the client (its raw string, which is
// exact), compare, write the new score with a compare-and-set script, and
// spin (no pause) until the script writes or CASSpinLimit has passed. It
// is how low fields are usually set; here it keeps the better result.
//
//	Z  sorted set: score = packed fields (higher is better), member = id
//
// It reads with a plain ZSCORE rather than an EVAL of one: rueidis returns
// the raw reply string, and one command is the cheaper.
type CASSpin struct {
	client rueidis.Client
	// Z is its key, under the hash tag {name}.
	Z string
	// Retries counts the scripts that found the score changed; GaveUp the
	// submissions abandoned after CASSpinLimit.
	Retries, GaveUp atomic.Int64
}

// NewCASSpin keeps its key under the hash tag {name}.
func NewCASSpin(c rueidis.Client, name string) *CASSpin {
	return &CASSpin{client: c, Z: "bench:{" + name + "}:z"}
}

// Submit writes score for id if it beats the stored one, spinning on
// conflicts; a give-up after CASSpinLimit is counted, not an error.
func (s *CASSpin) Submit(ctx context.Context, id string, score uint64) error {
	start := time.Now()
	arg := strconv.FormatUint(score, 10)
	for {
		if time.Since(start) > CASSpinLimit {
			s.GaveUp.Add(1)
			return nil
		}
		done, err := s.try(ctx, id, score, arg)
		if err != nil || done {
			return err
		}
		s.Retries.Add(1)
	}
}

// try makes one read and compare-and-set; done is false on a conflict.
func (s *CASSpin) try(ctx context.Context, id string, score uint64, arg string) (bool, error) {
	old, err := s.client.Do(ctx, s.client.B().Zscore().Key(s.Z).Member(id).Build()).ToString()
	if err = redisops.NilOK(err); err != nil {
		return false, err
	}
	if old != "" {
		o, err := strconv.ParseFloat(old, 64)
		if err != nil || float64(score) <= o {
			return true, err
		}
	}
	n, err := casScript.Exec(ctx, s.client, []string{s.Z}, []string{id, old, arg}).AsInt64()
	return n == 1, err
}

// Keys returns the baseline's key.
func (s *CASSpin) Keys() []string { return []string{s.Z} }

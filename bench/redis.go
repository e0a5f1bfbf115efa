package main

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// nilOK turns Redis's nil reply (a missing key or field) into no error.
func nilOK(err error) error {
	if rueidis.IsRedisNil(err) {
		return nil
	}
	return err
}

// resultErrs returns the error of each reply.
func resultErrs(rs []rueidis.RedisResult) []error {
	errs := make([]error, len(rs))
	for i, r := range rs {
		errs[i] = r.Error()
	}
	return errs
}

// zaddPairs is the number of (score, member) pairs per ZADD of a bulk load.
const zaddPairs = 1000

// zaddChunk adds members idOf(from)..idOf(to-1) to key with score(i), a
// thousand per ZADD, in one pipelined round trip.
func zaddChunk(ctx context.Context, c rueidis.Client, key string, from, to int64, score func(i int64) float64) error {
	var cmds rueidis.Commands
	for i := from; i < to; i += zaddPairs {
		cmd := c.B().Zadd().Key(key).ScoreMember()
		for j := i; j < min(i+zaddPairs, to); j++ {
			cmd = cmd.ScoreMember(score(j), idOf(j))
		}
		cmds = append(cmds, cmd.Build())
	}
	return firstErr(resultErrs(c.DoMulti(ctx, cmds...))...)
}

// deleteKeys deletes keys, one DEL each (they may live in different
// cluster slots). DEL, not UNLINK, so that memory is freed on return
// (unless the server's lazyfree-lazy-user-del says otherwise).
func deleteKeys(ctx context.Context, c rueidis.Client, keys ...string) error {
	cmds := make(rueidis.Commands, len(keys))
	for i, k := range keys {
		cmds[i] = c.B().Unlink().Key(k).Build()
	}
	return errors.Join(resultErrs(c.DoMulti(ctx, cmds...))...)
}

// usedMemory returns INFO memory's used_memory and used_memory_dataset, in
// bytes, once the server has no objects left to free in the background.
func usedMemory(ctx context.Context, c rueidis.Client) (used, dataset int64, err error) {
	for {
		m, err := redisops.Info(ctx, c, "memory")
		if err != nil {
			return 0, 0, err
		}
		if m["lazyfree_pending_objects"] == "0" || m["lazyfree_pending_objects"] == "" {
			used, err1 := strconv.ParseInt(m["used_memory"], 10, 64)
			dataset, err2 := strconv.ParseInt(m["used_memory_dataset"], 10, 64)
			return used, dataset, firstErr(err1, err2)
		}
		select {
		case <-ctx.Done():
			return 0, 0, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// redisCPU returns the CPU seconds (user + system) the server has used.
func redisCPU(ctx context.Context, c rueidis.Client) (float64, error) {
	m, err := redisops.Info(ctx, c, "cpu")
	if err != nil {
		return 0, err
	}
	user, err1 := strconv.ParseFloat(m["used_cpu_user"], 64)
	sys, err2 := strconv.ParseFloat(m["used_cpu_sys"], 64)
	return user + sys, firstErr(err1, err2)
}

package board

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/pack"
)

// commandsOf runs op on a server of its own and returns the Redis commands
// it made, by name, with their number of calls.
func commandsOf(t *testing.T, client rueidis.Client, op func() error) map[string]string {
	t.Helper()
	ctx := context.Background()
	if err := client.Do(ctx, client.B().ConfigResetstat().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := op(); err != nil {
		t.Fatal(err)
	}
	stats, err := redisops.Info(ctx, client, "commandstats")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, v := range stats {
		name = strings.TrimPrefix(name, "cmdstat_")
		// Leave out the test's own commands and the client's handshake of
		// a connection it opens on first use (rueidis spreads commands
		// over several).
		if strings.HasPrefix(name, "config") || name == "info" || name == "hello" || strings.HasPrefix(name, "client|") {
			continue
		}
		calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
		out[name] = calls
	}
	return out
}

// The descriptor costs nothing per call: a write and a read of a board
// that stores one make exactly the Redis commands the scripts name (one
// EVALSHA, then the data commands; a packed board's Replace or Best
// write, Redis's own commands in one MULTI/EXEC), nothing to read or check
// it; and SubmitMany is one EVALSHA per submission (a key-suffix board's
// plain ones: one for them all), never a SCRIPT LOAD.
func TestCommandsPerCall(t *testing.T) {
	_, client := privateServer(t)
	ctx := context.Background()
	e, err := engine.Of(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	// A Best write: ZADD and ZRANK ... WITHSCORE where the engine takes it,
	// else ZADD, ZSCORE and ZRANK; before them, the HSETNX of the descriptor that makes
	// a board dropped under the handle whole again (appendGuard). Every
	// scripted write reads the descriptor and the generation: one HMGET.
	best := map[string]string{"multi": "1", "hsetnx": "1", "zadd": "1", "zscore": "1", "zrank": "1", "exec": "1"}
	// A Get that asks for nothing more: ZRANK ... WITHSCORE where the engine
	// takes it, else ZSCORE and ZRANK in a MULTI/EXEC. Top and a packed
	// board's Rank and Around are plain commands.
	get := map[string]string{"multi": "1", "zscore": "1", "zrank": "1", "exec": "1"}
	suffixGet := map[string]string{"hget": "1", "multi": "1", "zscore": "1", "zrank": "1", "exec": "1"}
	if e.ZRankWithScore() {
		delete(best, "zscore")
		get = map[string]string{"zrank": "1"}
		suffixGet = map[string]string{"hget": "1", "zrank": "1"}
	}
	for _, c := range []struct {
		o    Options
		want map[string]map[string]string
	}{
		{Options{}, map[string]map[string]string{
			"submit": best,
			"many":   {"evalsha": "3", "hmget": "3", "zscore": "3", "zadd": "3", "zrank": "3"},
			"top":    {"zrange": "1"},
			"rank":   {"zrank": "1"},
			"get":    get,
			"around": {"zrank": "1", "zrange": "1"},
			"absent": {"zrank": "1"},
		}},
		// The id lookup in buckets: the descriptor and generation, one
		// HMGET, the number of buckets, one HGET, and the buckets of the
		// call's writes, one HMGET; the buckets written, one HSET. SubmitMany's plain writes
		// go in one EVALSHA (submitlean.lua) for them all. A read finds the
		// member with one HGET of its bucket (the handle knows the number
		// of buckets), then reads as a packed board does.
		{Options{Strategy: KeySuffix}, map[string]map[string]string{
			"submit": {"evalsha": "1", "hget": "1", "hmget": "2", "zadd": "1", "hset": "1", "zrank": "1"},
			"many":   {"evalsha": "1", "hget": "1", "hmget": "2", "zadd": "3", "hset": "1", "zrank": "3"},
			"top":    {"zrange": "1"},
			"rank":   {"hget": "1", "zrank": "1"},
			"get":    suffixGet,
			"around": {"hget": "1", "zrank": "1", "zrange": "1"},
			// An id not on the board: no record in its bucket, then the
			// bucket and the count at one moment (HMGET): absent, no script.
			"absent": {"hget": "1", "hmget": "1"},
		}},
	} {
		name := c.o.Strategy.String()
		t.Run(name, func(t *testing.T) {
			b, err := New(ctx, client, "commands"+name, testLayout(t), c.o)
			if err != nil {
				t.Fatal(err)
			}
			mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 1, 1}}) // scripts loaded
			// ZRANK ... WITHSCORE tried: on an engine that refuses it, the
			// client sends ZSCORE and ZRANK from then on.
			mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 1, 1}, Policy: Best})
			b.SubmitMany(ctx, []Submission{{ID: "a", Values: []float64{1, 1, 1}}, {ID: "a", Values: []float64{1, 1, 1}}})
			_, _ = b.Top(ctx, 1)
			_, _ = b.Rank(ctx, "a", Ordinal)
			_, _ = b.Get(ctx, "a")
			_, _ = b.Around(ctx, "a", 3)
			got := map[string]map[string]string{
				"submit": commandsOf(t, client, func() error {
					return errOf(b.Submit(ctx, Submission{ID: "b", Values: []float64{2, 0, 3}, Policy: Best}))
				}),
				"many": commandsOf(t, client, func() error {
					for _, r := range b.SubmitMany(ctx, []Submission{{ID: "c", Values: []float64{1, 0, 0}}, {ID: "d", Values: []float64{2, 0, 0}}, {ID: "e", Values: []float64{3, 0, 0}}}) {
						if r.Err != nil {
							return r.Err
						}
					}
					return nil
				}),
				"top":    commandsOf(t, client, func() error { return errOf(b.Top(ctx, 10)) }),
				"rank":   commandsOf(t, client, func() error { return errOf(b.Rank(ctx, "b", Ordinal)) }),
				"get":    commandsOf(t, client, func() error { return errOf(b.Get(ctx, "b")) }),
				"around": commandsOf(t, client, func() error { return errOf(b.Around(ctx, "b", 3)) }),
				"absent": commandsOf(t, client, func() error {
					if _, err := b.Rank(ctx, "absent", Ordinal); !errors.Is(err, ErrNotFound) {
						return fmt.Errorf("Rank of an absent id: %v, want ErrNotFound", err)
					}
					return nil
				}),
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("commands per call (-want +got):\n%s", diff)
			}
		})
	}
}

// A key-suffix board of one field keeps no lookup (its member is the id):
// no call reads or writes one. Its plain writes are native, as a packed
// board's; its scripted writes, reads, hiding and removes find the member
// by ZSCORE of the id.
func TestCommandsPerCallOneField(t *testing.T) {
	_, client := privateServer(t)
	ctx := context.Background()
	one, err := pack.NewLayout(pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(ctx, client, "commandsone", one, Options{Strategy: KeySuffix, Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{1}})
	mustSubmit(t, b, Submission{ID: "b", Values: []float64{2}, Fields: []Policy{Replace}})
	_, _ = b.Rank(ctx, "a", Ordinal)
	_, _ = b.Hide(ctx, "b")
	_, _ = b.Remove(ctx, "b")
	got := map[string]map[string]string{
		"perfield": commandsOf(t, client, func() error {
			return errOf(b.Submit(ctx, Submission{ID: "c", Values: []float64{3}, Fields: []Policy{Min}}))
		}),
		"rank":   commandsOf(t, client, func() error { return errOf(b.Rank(ctx, "a", Ordinal)) }),
		"hide":   commandsOf(t, client, func() error { return errOf(b.Hide(ctx, "c")) }),
		"remove": commandsOf(t, client, func() error { return errOf(b.Remove(ctx, "a")) }),
	}
	// The HMGETs read the descriptor and generation, the HGET (hide) the
	// expiry; the HDEL is the member data's.
	want := map[string]map[string]string{
		"perfield": {"evalsha": "1", "hmget": "1", "zscore": "2", "zadd": "1", "zrank": "1"}, // zscore: z, then the hidden set
		"rank":     {"zrank": "1"},                                                           // the member is the id: a plain ZRANK
		"hide":     {"evalsha": "1", "hget": "1", "hmget": "1", "zscore": "1", "zrem": "1", "zadd": "1"},
		"remove":   {"evalsha": "1", "zscore": "1", "zrem": "1", "hdel": "1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands per call (-want +got):\n%s", diff)
	}
}

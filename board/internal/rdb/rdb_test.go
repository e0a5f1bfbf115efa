package rdb_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// TestRepliesReadAsSent sends one of each command a Pipe builds and reads
// each reply through the package's types: every element of an array, a
// pipeline's every result, in order.
func TestRepliesReadAsSent(t *testing.T) {
	env := redistest.New(t)
	c := rdb.New(env.Client)
	ctx := t.Context()
	z, h := env.Prefix+"{x}z", env.Prefix+"{x}h"
	res := c.DoMulti(ctx, func(p *rdb.Pipe) {
		p.Multi()
		p.ZAddCh(z, 2, "b", false)
		p.ZAddCh(z, 1, "a", false)
		p.ZAddCh(z, 3, "a", true) // LT: no change
		p.HSet(h, "f", "v")
		p.HSetNX(h, "f", "w")
		p.Exec()
		p.ZRange(z, 0, -1)
		p.ZRankWithScore(z, "b")
		p.HGetAll(h)
		p.Exists(z, h, env.Prefix+"{x}none")
	})
	if len(res) != 11 {
		t.Fatalf("%d results, want 11", len(res))
	}
	tx, err := res[6].ToArray()
	if err != nil || len(tx) != 5 {
		t.Fatalf("EXEC = %v, %v", tx, err)
	}
	var counts []int64
	for i := range tx {
		n, err := tx[i].AsInt64()
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, n)
	}
	if want := []int64{1, 1, 0, 1, 0}; !slices.Equal(counts, want) {
		t.Errorf("EXEC replies %v, want %v", counts, want)
	}
	zs, err := c.ZRangeWithScores(ctx, z, 0, -1).AsZScores()
	if err != nil || len(zs) != 2 || zs[0] != (rdb.Scored{Member: "a", Score: 1}) || zs[1] != (rdb.Scored{Member: "b", Score: 2}) {
		t.Errorf("ZRANGE WITHSCORES = %v, %v", zs, err)
	}
	if ms, err := res[7].AsStrSlice(); err != nil || !slices.Equal(ms, []string{"a", "b"}) {
		t.Errorf("ZRANGE = %v, %v", ms, err)
	}
	switch pair, err := res[8].ToArray(); {
	case engine.IsRefusal(err): // Redis 7.0 has no ZRANK ... WITHSCORE
	case err != nil || len(pair) != 2:
		t.Errorf("ZRANK WITHSCORE = %v, %v", pair, err)
	default:
		if r, _ := pair[0].AsInt64(); r != 1 {
			t.Errorf("rank of b = %d, want 1", r)
		}
		if sc, _ := pair[1].AsFloat64(); sc != 2 {
			t.Errorf("score of b = %v, want 2", sc)
		}
	}
	got, err := c.HMGet(ctx, h, "f", "missing").ToArray()
	if err != nil || len(got) != 2 || !got[1].IsNil() {
		t.Fatalf("HMGET = %v, %v", got, err)
	}
	if v, err := got[0].ToString(); err != nil || v != "v" {
		t.Errorf("HMGET f = %q, %v", v, err)
	}
	if m, err := res[9].AsStrMap(); err != nil || len(m) != 1 || m["f"] != "v" {
		t.Errorf("HGETALL = %v, %v", m, err)
	}
	if n, err := res[len(res)-1].AsInt64(); err != nil || n != 2 {
		t.Errorf("EXISTS = %d, %v", n, err)
	}
}

// TestErrorsTellNilFromRedisFromConnection: a missing field is nil and no
// error reply; an error reply gives its text; neither is a lost
// connection.
func TestErrorsTellNilFromRedisFromConnection(t *testing.T) {
	env := redistest.New(t)
	c := rdb.New(env.Client)
	ctx := t.Context()
	_, err := c.HGet(ctx, env.Prefix+"none", "f").ToString()
	if !rdb.IsNil(err) {
		t.Fatalf("HGET of nothing: %v, want nil", err)
	}
	if text, ok := rdb.ErrorText(err); ok || text != "" {
		t.Errorf("ErrorText(nil reply) = %q, %t", text, ok)
	}
	z := env.Prefix + "z"
	c.DoMulti(ctx, func(p *rdb.Pipe) { p.ZAddCh(z, 1, "a", false) })
	err = c.HGet(ctx, z, "f").Error()
	if !rdb.HasPrefix(err, "WRONGTYPE") || rdb.IsNil(err) || rdb.ConnectionLost(err) {
		t.Errorf("HGET of a sorted set: %v", err)
	}
	if rdb.HasPrefix(errors.New("WRONGTYPE not from Redis"), "WRONGTYPE") {
		t.Error("HasPrefix took an error of no reply for Redis's")
	}
	if rdb.New(nil).Valid() || !c.Valid() || !c.Same(rdb.New(env.Client)) {
		t.Error("Valid and Same disagree with the clients given")
	}
}

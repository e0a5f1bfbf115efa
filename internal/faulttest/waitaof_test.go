package faulttest

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// Every package's writes with WaitAOF: on a server with WAITAOF (Redis or
// Valkey 7.2 or later) and appendonly yes, each returns once it is on the
// master's disk and the replica's; elsewhere, each is refused with an
// error wrapping its package's ErrOptions, and nothing is written. The
// suite runs on every engine, so both sides are checked.
func TestWaitAOF(t *testing.T) {
	_, _, client := redistest.PrivateReplicated(t, "--appendonly", "yes", "--appendfsync", "always")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	e, err := engine.Of(ctx, client)
	if err != nil {
		t.Fatal(err)
	}
	has := e.AtLeast(7, 2)
	t.Logf("engine %v: WAITAOF %t", e, has)
	b, err := board.New(ctx, client, "aof", boardLayout(t), board.Options{WaitAOF: true, WaitReplicas: 1, WaitTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := board.New(ctx, client, "aofsharded", boardLayout(t), board.Options{Shards: 2, WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := timeline.New(client, "aof", tsid.TSID, timeline.Options{WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decimalmap.New(client, "aof", decimalmap.Options{WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	lim, err := ratelimit.New(client, ratelimit.Options{Prefix: "aof:", WaitAOF: true})
	if err != nil {
		t.Fatal(err)
	}
	entry := board.Submission{ID: "ann", Values: []float64{1, 1, 1}, Data: []byte("d")}
	for _, c := range []struct {
		what     string
		sentinel error
		write    func() error
	}{
		{"board Submit", board.ErrOptions, func() error { _, err := b.Submit(ctx, entry); return err }},
		{"board SubmitMany", board.ErrOptions, func() error { return b.SubmitMany(ctx, []board.Submission{entry})[0].Err }},
		{"board SetData", board.ErrOptions, func() error { return b.SetData(ctx, "ann", []byte("e")) }},
		{"sharded board Submit", board.ErrOptions, func() error { _, err := sb.Submit(ctx, entry); return err }},
		{"timeline Append", timeline.ErrOptions, func() error { return tl.Append(ctx, 1<<22, []byte("m")) }},
		{"decimalmap Add", decimalmap.ErrOptions, func() error { _, err := dm.Add(ctx, "1.5", "v"); return err }},
		{"ratelimit Allow", ratelimit.ErrOptions, func() error {
			_, err := lim.Allow(ctx, "k", ratelimit.Limit{N: 5, Window: time.Minute})
			return err
		}},
	} {
		before := dumpAll(t, client)
		err := c.write()
		switch {
		case has && err != nil:
			t.Errorf("%s with WaitAOF on %v: %v", c.what, e, err)
		case !has && !errors.Is(err, c.sentinel):
			t.Errorf("%s with WaitAOF on %v: %v, want ErrOptions", c.what, e, err)
		case !has && !maps.Equal(before, dumpAll(t, client)):
			t.Errorf("%s with WaitAOF on %v: refused, but it wrote", c.what, e)
		}
	}
}

// dumpAll returns the DUMP of every key of the server client is on.
func dumpAll(t *testing.T, client rueidis.Client) map[string]string {
	t.Helper()
	ctx := t.Context()
	keys, err := client.Do(ctx, client.B().Keys().Pattern("*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		v, err := client.Do(ctx, client.B().Dump().Key(k).Build()).ToString()
		if err != nil {
			t.Fatalf("DUMP %s: %v", k, err)
		}
		out[k] = v
	}
	return out
}

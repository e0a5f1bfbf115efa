package board

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Reads go on while the server is at its memory limit (maxmemory with
// noeviction): the read scripts run as EVALSHA_RO, and a script without
// flags is refused for memory only when it calls a write command, so no
// read needs the no-writes script flag. Writes are refused with ErrRedis
// and change nothing.
func TestReadsAtMemoryLimit(t *testing.T) {
	_, client := redistest.Private(t, "--maxmemory-policy", "noeviction")
	ctx := t.Context()
	boards := []*Board{
		newBoard(t, client, "oom", "packed", testLayout(t), Options{DenseRanks: true}),
		newBoard(t, client, "oom", "suffix", testLayout(t), Options{Strategy: KeySuffix}),
		newBoard(t, client, "oom", "sharded", testLayout(t), Options{Shards: 2}),
	}
	data := []byte(strings.Repeat("d", 200))
	for _, b := range boards {
		subs := make([]Submission, 1000)
		for n := range subs {
			subs[n] = Submission{ID: fmt.Sprint("p", n), Values: []float64{float64(n % 500), float64(n % 2), float64(n % 256)}, Data: data}
		}
		for _, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	}
	// The server is now over its limit: every write command is refused.
	if err := client.Do(ctx, client.B().ConfigSet().ParameterValue().ParameterValue("maxmemory", "1").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	for _, b := range boards {
		before, err := b.Len(ctx)
		if err != nil {
			t.Fatalf("%s: Len at the memory limit: %v", b.Name(), err)
		}
		if _, err := b.Submit(ctx, Submission{ID: "late", Values: []float64{1, 1, 1}, Data: data}); !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "OOM") {
			t.Errorf("%s: Submit at the memory limit: %v, want ErrRedis (OOM)", b.Name(), err)
		}
		if after, err := b.Len(ctx); err != nil || after != before {
			t.Errorf("%s: Len after a refused write = %d, %v; want %d", b.Name(), after, err, before)
		}
		top, err := b.Top(ctx, 10, WithData())
		if err != nil || len(top.Entries) != 10 {
			t.Fatalf("%s: Top at the memory limit: %d entries, %v", b.Name(), len(top.Entries), err)
		}
		id := top.Entries[3].ID
		checkReads(t, b, id)
	}
}

// checkReads runs every read of b around id and fails on an error.
func checkReads(t *testing.T, b *Board, id string) {
	t.Helper()
	ctx := t.Context()
	kinds := []RankKind{Competition}
	if b.opts.DenseRanks {
		kinds = append(kinds, Dense)
	}
	for what, err := range map[string]error{
		"Get":     second(b.Get(ctx, id, WithRanks(kinds...), WithData())),
		"Rank":    second(b.Rank(ctx, id, Competition)),
		"Page":    second(b.Page(ctx, 100, 10)),
		"Around":  second(b.Around(ctx, id, 5)),
		"Between": second(b.Between(ctx, 0, 400, 0, 10)),
		"Scan":    second(b.Scan(ctx, "", 10)),
		"Among":   second(b.Among(ctx, []string{id, "p1", "nobody"})),
	} {
		if err != nil {
			t.Errorf("%s: %s: %v", b.Name(), what, err)
		}
	}
}

// A replica serves every read of a board opened on it, a sharded one
// included: the read scripts run as EVALSHA_RO, which a replica accepts.
func TestReadsOnReplica(t *testing.T) {
	_, replica, client := redistest.PrivateReplicated(t)
	ctx := t.Context()
	for _, o := range []Options{{DenseRanks: true}, {Strategy: KeySuffix}, {Shards: 2}} {
		b := newBoard(t, client, "rep", fmt.Sprint(o.Strategy, o.Shards), testLayout(t), o)
		subs := make([]Submission, 300)
		for j := range subs {
			subs[j] = Submission{ID: fmt.Sprint("p", j), Values: []float64{float64(j % 50), float64(j % 2), float64(j % 256)}}
		}
		for _, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
		if _, err := client.Do(ctx, client.B().Wait().Numreplicas(1).Timeout(5000).Build()).AsInt64(); err != nil {
			t.Fatal(err)
		}
		rc, err := redisserver.Dial(replica.Addr)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		r, err := Open(ctx, rc, b.Name(), Options{})
		if err != nil {
			t.Fatalf("Open on the replica: %v", err)
		}
		want, err := b.Top(ctx, 20)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Top(ctx, 20)
		if err != nil || len(got.Entries) != 20 || got.Entries[19].ID != want.Entries[19].ID {
			t.Fatalf("%s: Top on the replica: %v, %v; want %v", b.Name(), got.Entries, err, want.Entries)
		}
		checkReads(t, r, want.Entries[7].ID)
	}
}

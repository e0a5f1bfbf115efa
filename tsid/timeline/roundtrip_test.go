package timeline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// scriptCalls returns how many script commands (EVALSHA, EVAL, SCRIPT
// LOAD and their read-only forms) the server ran since the last reset, and
// resets the counts.
func scriptCalls(t *testing.T, c rueidis.Client) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	all, err := redisops.CommandCalls(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, c.B().ConfigResetstat().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, name := range []string{"evalsha", "evalsha_ro", "eval", "eval_ro", "script|load"} {
		if all[name] != 0 {
			got[name] = all[name]
		}
	}
	return got
}

// An Append is one EVALSHA and an AppendMany one per chunk, pipelined: no
// SCRIPT LOAD ever, and on a server that lost its scripts one EVAL, which
// loads the script, and EVALSHA again for the other calls of the
// pipeline that got NOSCRIPT.
// Counted on a server of the test's own, in both strategies, with and
// without retention.
func TestAppendSendsOneEvalsha(t *testing.T) {
	ctx := context.Background()
	_, client := redistest.Private(t)
	msgs := make([]Message[uint64], 2*chunkMessages+1) // three chunks
	for i := range msgs {
		msgs[i] = Message[uint64]{ID: uint64(1000+i) << 22, Payload: []byte("x")}
	}
	for _, o := range []Options{{Strategy: SplitScore}, {Strategy: LexID}, {Strategy: SplitScore, MaxLen: 1000}, {Strategy: LexID, MaxLen: 1000}} {
		tl := newTL(t, client, "calls_"+o.Strategy.String(), tsid.TSID, o)
		if err := client.Do(ctx, client.B().ScriptFlush().Build()).Error(); err != nil {
			t.Fatal(err)
		}
		scriptCalls(t, client)
		var got []map[string]int64
		for i := range 11 { // the first on a server without the script
			if err := tl.Append(ctx, msgs[i].ID, msgs[i].Payload); err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				got = append(got, scriptCalls(t, client))
			}
		}
		got = append(got, scriptCalls(t, client))
		mustAppend(t, tl, msgs...)
		got = append(got, scriptCalls(t, client))
		if err := client.Do(ctx, client.B().ScriptFlush().Build()).Error(); err != nil {
			t.Fatal(err)
		}
		scriptCalls(t, client)
		mustAppend(t, tl, msgs...) // every chunk gets NOSCRIPT
		got = append(got, scriptCalls(t, client))
		want := []map[string]int64{{"evalsha": 1, "eval": 1}, {"evalsha": 10}, {"evalsha": 3}, {"evalsha": 5, "eval": 1}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v: script commands of 1 Append on a fresh server, 10 Appends, an AppendMany of 3 chunks, the same after SCRIPT FLUSH (-want +got):\n%s", o, diff)
		}
		if n, err := tl.Len(ctx); err != nil || n != int64(len(msgs)) {
			t.Errorf("%+v: Len = %d, %v; want %d", o, n, err, len(msgs))
		}
		if err := tl.Drop(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

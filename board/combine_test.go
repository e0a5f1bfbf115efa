package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// 64 goroutines write Best and Replace to ids of their own on a packed
// board that keeps nothing beside its entries, so that the writes go as
// Redis's own commands and, under this load, many to a MULTI/EXEC. Every
// result is the id's model result (a write's Changed and values depend
// only on its id's earlier writes), the writes shared transactions (fewer
// EXECs than writes, on a server of its own), and the board ends as the
// model, ranks included.
func TestConcurrentNativeWritesShareTransactions(t *testing.T) {
	_, client := redistest.Private(t)
	b := newBoard(t, client, "native", "b", testLayout(t), Options{})
	ctx := t.Context()
	const goroutines, writes = 64, 150
	if err := client.Do(ctx, client.B().ConfigResetstat().Build()).Error(); err != nil {
		t.Fatal(err)
	}
	finals := make([]*model, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		finals[g] = newModel(b.Layout())
		wg.Go(func() { writeOwnIDs(t, b, g, writes, finals[g]) })
	}
	wg.Wait()
	_, execs, err := redisops.CommandStats(ctx, client, "exec")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v EXECs for %d writes", execs, goroutines*writes)
	if execs > goroutines*writes*3/4 {
		t.Errorf("%v EXECs for %d writes from %d callers: the writes did not share transactions", execs, goroutines*writes, goroutines)
	}
	all := newModel(b.Layout())
	for _, m := range finals {
		for id, v := range m.vals {
			all.vals[id] = v
		}
	}
	got, err := b.Page(ctx, 0, maxCount)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(all.page(0, maxCount), got); diff != "" {
		t.Errorf("the board after the writes (-want +got):\n%s", diff)
	}
}

// writeOwnIDs makes n random Best and Replace writes of goroutine g to its
// own four ids, checking each result against m, the model of those ids.
func writeOwnIDs(t *testing.T, b *Board, g, n int, m *model) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(g), 11))
	for range n {
		s := Submission{ID: fmt.Sprintf("g%d-%d", g, rng.IntN(4)), Policy: []Policy{Best, Replace}[rng.IntN(2)],
			Values: []float64{float64(rng.IntN(64)), float64(rng.IntN(2)), float64(rng.IntN(8))}}
		want, _ := m.apply(s)
		got, err := b.Submit(t.Context(), s)
		if err != nil {
			t.Error(err)
			return
		}
		if got.Changed != want.Changed || !cmp.Equal(got.Entry.Values, m.vals[s.ID]) || got.Entry.ID != s.ID || got.Entry.Rank < 1 {
			t.Errorf("Submit(%+v) = changed %v, %s %v rank %d; the id's model: changed %v, values %v",
				s, got.Changed, got.Entry.ID, got.Entry.Values, got.Entry.Rank, want.Changed, m.vals[s.ID])
			return
		}
	}
}

// A caller whose context ends while its write waits in a batch leaves the
// batch: it gets its context's error and the write is never sent; the
// batch's other writes are.
func TestNativeWriteLeavesWaitingBatch(t *testing.T) {
	env := redistest.New(t)
	b := newBoard(t, env.Client, env.Prefix, "b", testLayout(t), Options{})
	b.comb.mu.Lock()
	b.comb.sends = maxNativeSends // as if that many sends were in flight
	b.comb.mu.Unlock()
	submit := func(ctx context.Context, id string) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := b.Submit(ctx, Submission{ID: id, Values: []float64{5, 1, 3}, Policy: Best})
			done <- err
		}()
		return done
	}
	leader := submit(t.Context(), "stays")
	waitBatch(t, b, 1)
	ctx, cancel := context.WithCancel(t.Context())
	follower := submit(ctx, "leaves")
	waitBatch(t, b, 2)
	cancel()
	err := <-follower
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrRedis) {
		t.Errorf("the follower's Submit after its context ended: %v, want context.Canceled and not ErrRedis", err)
	}
	b.comb.release() // a send ends: the waiting batch goes
	if err := <-leader; err != nil {
		t.Fatalf("the leader's Submit: %v", err)
	}
	b.comb.mu.Lock()
	sends, queued := b.comb.sends, len(b.comb.queue)
	b.comb.mu.Unlock()
	var got []string
	for _, id := range []string{"stays", "leaves"} {
		if _, err := b.Get(t.Context(), id); err == nil {
			got = append(got, id)
		} else if !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]any{[]string{"stays"}, maxNativeSends - 1, 0}, []any{got, sends, queued}); diff != "" {
		t.Errorf("ids written, sends in flight and batches waiting afterwards (-want +got):\n%s", diff)
	}
}

// waitBatch waits until b's one waiting batch holds n writes.
func waitBatch(t *testing.T, b *Board, n int) {
	t.Helper()
	for range 2000 {
		b.comb.mu.Lock()
		ok := len(b.comb.queue) == 1 && len(b.comb.queue[0].writes) == n
		b.comb.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no waiting batch of %d writes", n)
}

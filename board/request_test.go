package board

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/internal/redisserver"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// addOne adds 1 point to id, under the request id rid.
func addOne(id, rid string) Submission {
	return Submission{ID: id, Values: []float64{1, 0, 0}, Fields: []Policy{Add, Keep, Keep}, RequestID: rid}
}

// On every kind of board that is written (and a sharded one), on one
// server and on a cluster, under every policy: a write with a request id
// applies once, a retry returns the first result and writes nothing; a
// request id used for another id is refused, changing nothing; the id is
// remembered for RequestRetention.
func TestRequestIDEveryKind(t *testing.T) {
	for where, env := range serverAndCluster(t) {
		kinds := append(append([]string{}, tournamentKinds...), "sharded")
		for i, k := range kinds {
			t.Run(where+"/"+k, func(t *testing.T) {
				prefix := fmt.Sprintf("%s%d_", env.Prefix, i)
				o := Options{RequestRetention: time.Hour}
				var b *Board
				if k == "sharded" {
					o.Shards = 3
					var err error
					if b, err = New(t.Context(), env.Client, prefix+"sh", testLayout(t), o); err != nil {
						t.Fatal(err)
					}
				} else {
					b = kindBoard(t, env.Client, prefix, k, o)
				}
				checkRequestIDs(t, b, env.Client, func() map[string]string { return snapshot(t, env.Client, "*"+prefix+"*") })
			})
		}
	}
}

func checkRequestIDs(t *testing.T, b *Board, client rueidis.Client, keys func() map[string]string) {
	ctx := t.Context()
	for i, s := range []Submission{
		addOne("a", "add"),
		{ID: "b", Values: []float64{5, 1, 3}, RequestID: "replace"},
		{ID: "c", Values: []float64{7, 0, 2}, Policy: Best, RequestID: "best", Data: []byte("d")},
	} {
		first, err := b.Submit(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		before := keys()
		for range 3 {
			again, err := b.Submit(ctx, s)
			if err != nil || !equalResults(again, first) {
				t.Errorf("retry %d of %+v: %+v, %v; want the first result %+v", i, s, again, err, first)
			}
		}
		if after := keys(); !maps.Equal(after, before) {
			t.Errorf("a retry of %+v changed keys", s)
		}
	}
	if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 1 {
		t.Errorf("an Add sent four times with one request id: %v, %v; want it added once", e.Values, err)
	}
	if b.Options().Shards == 0 { // a sharded board remembers ids per shard
		before := keys()
		if _, err := b.Submit(ctx, addOne("z", "add")); !errors.Is(err, ErrArgument) {
			t.Errorf("a request id used for another id: %v, want ErrArgument", err)
		}
		if after := keys(); !maps.Equal(after, before) {
			t.Errorf("the refused reuse changed keys")
		}
	}
	// SubmitMany: a request id twice in one call applies once.
	res := b.SubmitMany(ctx, []Submission{addOne("m", "m1"), addOne("m", "m1"), addOne("m", "m2")})
	for i, r := range res {
		if r.Err != nil {
			t.Fatalf("SubmitMany %d: %v", i, r.Err)
		}
	}
	if res[0].Entry.Values[0] != 1 || !equalResults(res[1].Result, res[0].Result) || res[2].Entry.Values[0] != 2 {
		t.Errorf("SubmitMany with a repeated request id: %+v", res)
	}
	// The remembered id expires with RequestRetention.
	var ttl int64 = -3
	for _, node := range client.Nodes() {
		keys, _ := node.Do(ctx, node.B().Keys().Pattern("*"+b.Name()+"*:r:add").Build()).AsStrSlice()
		for _, k := range keys {
			ttl, _ = node.Do(ctx, node.B().Pttl().Key(k).Build()).AsInt64()
		}
	}
	if ttl <= 0 || ttl > time.Hour.Milliseconds() {
		t.Errorf("the remembered request id's PTTL = %d, want up to an hour", ttl)
	}
}

// equalResults compares two results, member data aside.
func equalResults(a, b Result) bool {
	a.Entry.Data, b.Entry.Data = nil, nil
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// A group write with a request id applies once to every board; a retry
// returns the first results.
func TestRequestIDGroup(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	g1, err := New(ctx, env.Client, "one", testLayout(t), Options{Group: env.Prefix + "g"})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := New(ctx, env.Client, "two", testLayout(t), Options{Group: env.Prefix + "g", DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(g1, g2)
	if err != nil {
		t.Fatal(err)
	}
	subs := []Submission{addOne("a", "r1"), addOne("a", "")}
	first, err := g.Submit(ctx, subs)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		again, err := g.Submit(ctx, subs)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(first) {
			t.Errorf("group retry: %+v, %v; want %+v", again, err, first)
		}
	}
	for _, b := range []*Board{g1, g2} {
		if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 1 {
			t.Errorf("%s: %v, %v; want 1 point", b.Name(), e.Values, err)
		}
	}
	if _, err := g.Submit(ctx, []Submission{addOne("a", "r1"), addOne("a", "r2")}); !errors.Is(err, ErrArgument) {
		t.Errorf("two request ids in one group write: %v, want ErrArgument", err)
	}
	if _, err := g.Submit(ctx, []Submission{addOne("b", "r1"), addOne("b", "")}); !errors.Is(err, ErrArgument) {
		t.Errorf("a group request id used for another id: %v, want ErrArgument", err)
	}
}

// cutProxy forwards connections to a Redis and, when armed, drops the
// reply to the next command holding a word (its connection closed once
// Redis answered): the write ran, its caller never hears of it.
type cutProxy struct {
	ln    net.Listener
	to    string
	armed atomic.Pointer[string]
	cuts  atomic.Int64
}

func newCutProxy(t *testing.T, to string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, to: to}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *cutProxy) serve(c net.Conn) {
	s, err := net.Dial("tcp", p.to)
	if err != nil {
		c.Close()
		return
	}
	var once sync.Once
	done := func() { once.Do(func() { c.Close(); s.Close() }) }
	cut := make(chan struct{}) // closed: drop the next reply and close
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := s.Read(buf)
			if err != nil {
				done()
				return
			}
			select {
			case <-cut:
				p.cuts.Add(1)
				done()
				return
			default:
			}
			if _, err := c.Write(buf[:n]); err != nil {
				done()
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Read(buf)
		if err != nil {
			done()
			return
		}
		word := p.armed.Load()
		if word != nil && bytes.Contains(buf[:n], []byte(*word)) && p.armed.CompareAndSwap(word, nil) {
			close(cut) // Redis runs the command; its reply is dropped
		}
		if _, err := s.Write(buf[:n]); err != nil {
			done()
			return
		}
	}
}

// An Add whose reply the connection lost (it ran: ErrNoReply) and that
// its caller sends again with the same request id counts once.
func TestRequestIDRetryAfterCut(t *testing.T) {
	srv, _ := redistest.Private(t)
	p := newCutProxy(t, srv.Addr)
	client, err := redisserver.Dial(p.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ctx := t.Context()
	b, err := New(ctx, client, "cut", testLayout(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Submit(ctx, addOne("a", "warm")); err != nil {
		t.Fatal(err)
	}
	word := "retry-1"
	p.armed.Store(&word)
	_, err = b.Submit(ctx, addOne("a", word))
	if !errors.Is(err, redisretry.ErrNoReply) || p.cuts.Load() != 1 {
		t.Fatalf("the cut write: %v (%d cuts), want ErrNoReply", err, p.cuts.Load())
	}
	var res Result
	for range 50 { // the client dials again
		if res, err = b.Submit(ctx, addOne("a", word)); err == nil || !errors.Is(err, redisretry.ErrUnreachable) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || res.Entry.Values[0] != 2 {
		t.Errorf("the retry: %+v, %v; want the first write's result, 2 points", res, err)
	}
	if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 2 {
		t.Errorf("after the cut write and its retry: %v, %v; want 2 points (warm-up and one add)", e.Values, err)
	}
}

// A write with a request id and WaitReplicas 1, acknowledged, then its
// master killed: the replica that takes over holds the write and its
// request id together, so a retry after the failover writes nothing and
// returns the first result.
func TestRequestIDSurvivesFailover(t *testing.T) {
	cl, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1, NodeTimeout: 2 * time.Second})
	ctx := t.Context()
	b, err := New(ctx, client, "failover", testLayout(t), Options{WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	first, err := b.Submit(ctx, addOne("a", "before-the-kill"))
	if err != nil {
		t.Fatal(err)
	}
	killOwner(t, cl, "tb:{failover}:z")
	from := time.Now()
	var again Result
	for {
		// The replica that took over has no replica of its own: the
		// retry's WAIT finds none (ErrNotReplicated), its result stands.
		again, err = b.Submit(ctx, addOne("a", "before-the-kill"))
		if errors.Is(err, ErrNotReplicated) {
			err = nil
		}
		if err == nil || time.Since(from) > 60*time.Second {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the retry went through %.1fs after the kill", time.Since(from).Seconds())
	if err != nil || !equalResults(again, first) {
		t.Fatalf("the retry after the failover: %+v, %v; want the first result %+v", again, err, first)
	}
	if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 1 {
		t.Errorf("after the failover and the retry: %v, %v; want 1 point", e.Values, err)
	}
}

// Clear and Drop forget the request ids remembered: a retry after them
// writes again (the entry it made is gone), and an id may serve another
// entry; a group's remembered write is forgotten when one of its boards
// is cleared.
func TestRequestIDForgottenByClearAndDrop(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "forget", testLayout(t), Options{})
	if _, err := b.Submit(ctx, addOne("a", "x1")); err != nil {
		t.Fatal(err)
	}
	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := b.Submit(ctx, addOne("a", "x1")); err != nil || r.Entry.Values[0] != 1 || !r.Changed {
		t.Errorf("a retry after Clear: %+v, %v; want a new write", r, err)
	}
	if n, _ := b.Len(ctx); n != 1 {
		t.Errorf("after Clear and a retry: %d entries, want 1", n)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := b.Submit(ctx, addOne("b", "x1")); err != nil || r.Entry.ID != "b" {
		t.Errorf("the request id for another entry after Drop: %+v, %v; want b written", r, err)
	}
	g1 := newBoard(t, env.Client, "", "one", testLayout(t), Options{Group: env.Prefix + "g"})
	g2 := newBoard(t, env.Client, "", "two", testLayout(t), Options{Group: env.Prefix + "g"})
	g, err := NewGroup(g1, g2)
	if err != nil {
		t.Fatal(err)
	}
	subs := []Submission{addOne("a", "gx"), addOne("a", "")}
	if _, err := g.Submit(ctx, subs); err != nil {
		t.Fatal(err)
	}
	if err := g2.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Submit(ctx, subs); err != nil {
		t.Fatal(err)
	}
	if e, err := g2.Get(ctx, "a"); err != nil || e.Values[0] != 1 {
		t.Errorf("the cleared board after the group's retry: %v, %v; want the entry written again", e.Values, err)
	}
}

// A retry that sends other values (a fresh timestamp, say) gets the first
// write's result, on a board, in a group and after Migrate forgets it:
// a Migrate forgets the request ids (their replies are in the old
// encoding), so a retry after it writes again, decoded right.
func TestRequestIDRetryWithOtherValues(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	g1 := newBoard(t, env.Client, "", "one", testLayout(t), Options{Group: env.Prefix + "g"})
	g2 := newBoard(t, env.Client, "", "two", testLayout(t), Options{Group: env.Prefix + "g"})
	g, err := NewGroup(g1, g2)
	if err != nil {
		t.Fatal(err)
	}
	first := Submission{ID: "a", Values: []float64{10, 0, 0}, RequestID: "r1"}
	if _, err := g.Submit(ctx, []Submission{first, {ID: "a", Values: []float64{10, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	retry := Submission{ID: "a", Values: []float64{20, 0, 0}, RequestID: "r1"}
	res, err := g.Submit(ctx, []Submission{retry, {ID: "a", Values: []float64{20, 0, 0}}})
	if err != nil || res[0].Entry.Values[0] != 10 || res[1].Entry.Values[0] != 10 {
		t.Errorf("a group retry with other values: %+v, %v; want the stored 10 points", res, err)
	}
	b := newBoard(t, env.Client, env.Prefix, "m", testLayout(t), Options{})
	if _, err := b.Submit(ctx, Submission{ID: "ann", Values: []float64{7, 1, 3}, RequestID: "m1"}); err != nil {
		t.Fatal(err)
	}
	if r, err := b.Submit(ctx, Submission{ID: "ann", Values: []float64{8, 1, 3}, RequestID: "m1"}); err != nil || r.Entry.Values[0] != 7 {
		t.Errorf("a retry with other values: %+v, %v; want the stored 7", r, err)
	}
	for _, s := range []Strategy{KeySuffix, PackedScore} {
		nb, err := b.Migrate(ctx, testLayout(t), Options{Strategy: s}, MigrateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := nb.Submit(ctx, Submission{ID: "ann", Values: []float64{9, 1, 3}, RequestID: "m1"})
		if err != nil || r.Entry.Values[0] != 9 {
			t.Errorf("a retry after a Migrate to %v: %+v, %v; want it written again, 9 points", s, r, err)
		}
		b = nb
	}
}

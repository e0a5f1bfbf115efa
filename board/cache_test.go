package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// cachingClient is a client with client-side caching on (the shared test
// clients turn it off), to addrs.
func cachingClient(t testing.TB, addrs ...string) rueidis.Client {
	t.Helper()
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// cachingClients are the caching clients of sharedCaching, by address.
var cachingClients sync.Map

// sharedCaching is a caching client to addrs shared by the tests of the
// binary (the matrix's hundreds of cells), never closed.
func sharedCaching(t testing.TB, addrs ...string) rueidis.Client {
	key := strings.Join(addrs, ",")
	if c, ok := cachingClients.Load(key); ok {
		return c.(rueidis.Client)
	}
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs})
	if err != nil {
		t.Fatal(err)
	}
	if old, loaded := cachingClients.LoadOrStore(key, c); loaded {
		c.Close()
		return old.(rueidis.Client)
	}
	return c
}

// cacheEnvs yields one server and the 3-master cluster, each with a
// caching client of its own beside the shared one.
func cacheEnvs(t *testing.T, yield func(name string, env *redistest.Env, caching rueidis.Client)) {
	env := redistest.New(t)
	yield("server", env, cachingClient(t, env.Addr))
	ce := redistest.NewCluster(t, 3)
	yield("cluster", &redistest.Env{Client: ce.Client, Prefix: ce.Prefix}, cachingClient(t, ce.Addrs...))
}

// fence makes a round trip on the connection of c that carries key's
// invalidations (rueidis sends a cacheable command of key's slot on it; a
// plain command may take another of its connections): a cached read of a
// key never read, so never held, of the same hash tag. Redis sends an
// invalidation on the connection before the reply of any later command,
// so once the reply is in, every invalidation of a write made before it
// has been received.
func fence(t testing.TB, c rueidis.Client, key string) {
	t.Helper()
	miss := key + ":fence:" + strconv.FormatInt(fences.Add(1), 10)
	if err := c.DoCache(context.Background(), c.B().Get().Key(miss).Cache(), time.Second).Error(); !rueidis.IsRedisNil(err) {
		t.Fatalf("fence: %v", err)
	}
}

// fences counts the fences, so that each reads a key of its own.
var fences atomic.Int64

// The best entries a handle with CacheTop reads equal, after every kind of
// write (and once the invalidations of the writes are in), what a read of
// the sorted set gives: Submit of every policy, SubmitMany, Update,
// Remove, Hide and Show, Clear, a cap's trims, and the writes of a group;
// on both strategies, on one server and a cluster.
func TestCachedTopDifferential(t *testing.T) {
	cacheEnvs(t, func(name string, env *redistest.Env, caching rueidis.Client) {
		for _, kind := range []struct {
			label string
			o     Options
		}{
			{"plain", Options{}},
			{"suffix", Options{Strategy: KeySuffix}},
			{"cap", Options{Cap: 12}},
			{"hiding", Options{Hiding: true, Strategy: KeySuffix}},
			{"dense", Options{DenseRanks: true}},
		} {
			t.Run(name+"/"+kind.label, func(t *testing.T) {
				o := kind.o
				o.KeepTop = 8
				writer := newBoard(t, env.Client, env.Prefix, "cached"+kind.label, testLayout(t), o)
				o.CacheTop = true
				reader, err := Open(t.Context(), caching, writer.Name(), Options{CacheTop: true})
				if err != nil {
					t.Fatal(err)
				}
				seed := rand.Uint64()
				t.Logf("seed %d", seed)
				cachedDifferential(t, rand.New(rand.NewPCG(seed, 1)), writer, reader, caching, o.Hiding)
			})
		}
	})
}

// cachedDifferential writes w at random and checks reader's cached reads
// against w's uncached ones after each write.
func cachedDifferential(t *testing.T, rng *rand.Rand, w, reader *Board, caching rueidis.Client, hiding bool) {
	ctx := context.Background()
	id := func() string { return "p" + strconv.Itoa(rng.IntN(30)) }
	vals := func() []float64 { return []float64{float64(rng.IntN(20)), float64(rng.IntN(2)), float64(rng.IntN(5))} }
	for step := range 300 {
		var err error
		op := rng.IntN(20)
		switch {
		case op < 8:
			_, err = w.Submit(ctx, Submission{ID: id(), Values: vals(), Policy: Policy(rng.IntN(2))})
		case op < 10:
			_, err = w.Submit(ctx, Submission{ID: id(), Values: []float64{float64(rng.IntN(3)), 0, 0}, Fields: []Policy{Add, Keep, Keep}})
		case op < 12:
			for _, r := range w.SubmitMany(ctx, []Submission{{ID: id(), Values: vals()}, {ID: id(), Values: vals()}}) {
				err = errors.Join(err, r.Err)
			}
		case op < 14:
			_, err = w.Remove(ctx, id(), id())
		case op < 16 && hiding:
			_, err = w.Hide(ctx, id())
		case op < 18 && hiding:
			_, err = w.Show(ctx, id())
		case op == 19 && rng.IntN(5) == 0:
			err = w.Clear(ctx)
		default:
			_, err = w.Update(ctx, id(), func(old *Entry) ([]float64, error) { return vals(), nil })
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatalf("step %d: write: %v", step, err)
		}
		fence(t, caching, reader.gen.Load().keys.top)
		for range 2 {
			off, n := rng.IntN(4), 1+rng.IntN(4)
			want, err1 := w.Page(ctx, int64(off), n)
			got, err2 := reader.Page(ctx, int64(off), n)
			if err := errors.Join(err1, err2); err != nil {
				t.Fatalf("step %d: read: %v", step, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("step %d (write %d): Page(%d, %d) cached (-sorted set +cached):\n%s", step, op, off, n, diff)
			}
		}
	}
}

// A busy board rewrites its best entries' key only when a write changes
// them: writes below the best KeepTop entries leave it alone (no SET, so
// no invalidation for the clients that cache it), and a write into them
// rewrites it once.
func TestKeepTopWritesOnlyWhenTheTopChanges(t *testing.T) {
	_, client := privateServer(t)
	ctx := context.Background()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		b := newBoard(t, client, "", "busy"+s.String(), testLayout(t), Options{Strategy: s, KeepTop: 10})
		for i := range 100 {
			mustSubmit(t, b, Submission{ID: "p" + strconv.Itoa(i), Values: []float64{float64(900 + i), 0, 0}})
		}
		sets := func() int64 {
			calls, err := redisops.CommandCalls(ctx, client)
			if err != nil {
				t.Fatal(err)
			}
			return calls["set"]
		}
		before := sets()
		for i := range 50 { // below the best 10, Best and Replace
			mustSubmit(t, b, Submission{ID: "p" + strconv.Itoa(i), Values: []float64{float64(500 + i), 0, 0}, Policy: Policy(i % 2)})
			mustSubmit(t, b, Submission{ID: "q" + strconv.Itoa(i), Values: []float64{float64(i), 0, 0}})
		}
		if n := sets() - before; n != 0 {
			t.Errorf("%v: %d writes of the best entries' key for 100 writes below them, want 0", s, n)
		}
		mustSubmit(t, b, Submission{ID: "new", Values: []float64{1020, 0, 0}})
		mustSubmit(t, b, Submission{ID: "p99", Values: []float64{1, 0, 0}, Policy: Replace}) // out of the top
		if n := sets() - before; n != 2 {
			t.Errorf("%v: %d writes of the best entries' key for 2 writes that change them, want 2", s, n)
		}
		top, err := b.Top(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := client.Do(ctx, client.B().Get().Key(b.gen.Load().keys.top).Build()).ToString()
		if err != nil {
			t.Fatal(err)
		}
		kept, err := b.decodeTop(raw)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(top.Entries, kept); diff != "" {
			t.Errorf("%v: the best entries' key (-top +key):\n%s", s, diff)
		}
	}
}

// A cached read drops what it holds when its connection goes: after a
// server crash and restart, a write made meanwhile through another client
// is what the cached read returns.
func TestCachedTopSurvivesRestart(t *testing.T) {
	srv, writer := privateServer(t, "--appendonly", "yes", "--appendfsync", "always")
	caching := cachingClient(t, srv.Addr)
	ctx := context.Background()
	w := newBoard(t, writer, "", "cachedrestart", testLayout(t), Options{KeepTop: 5})
	r, err := Open(ctx, caching, w.Name(), Options{CacheTop: true})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		diff, err := topDiff(ctx, w, r, 5)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if diff != "" {
			t.Fatalf("%s: cached top (-sorted set +cached):\n%s", when, diff)
		}
	}
	for i := range 8 {
		mustSubmit(t, w, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 0}})
	}
	fence(t, caching, r.gen.Load().keys.top)
	check("before the restart")
	if err := srv.Crash(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitServing(t, w.Len)
	resubmit(t, w, Submission{ID: "late", Values: []float64{100, 0, 0}})
	fence(t, caching, r.gen.Load().keys.top)
	check("after the restart")
}

// KeepTop and CacheTop refuse what they cannot do, changing nothing.
func TestKeepTopRefuses(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	for name, o := range map[string]Options{
		"KeepTop -1":           {KeepTop: -1},
		"KeepTop 1001":         {KeepTop: 1001},
		"CacheTop alone":       {CacheTop: true},
		"sharded KeepTop":      {Shards: 2, KeepTop: 10},
		"sharded with caching": {Shards: 2, CacheTop: true},
	} {
		if _, err := New(ctx, env.Client, env.Prefix+"_refused", testLayout(t), o); !errors.Is(err, ErrOptions) {
			t.Errorf("%s: err = %v, want ErrOptions", name, err)
		}
	}
	if n, err := env.Client.Do(ctx, env.Client.B().Exists().Key("tb:{"+env.Prefix+"_refused}:meta").Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("a refused New stored a descriptor: %d, %v", n, err)
	}
	newBoard(t, env.Client, env.Prefix, "plainboard", testLayout(t), Options{})
	if _, err := Open(ctx, env.Client, env.Prefix+"_plainboard", Options{CacheTop: true}); !errors.Is(err, ErrOptions) {
		t.Errorf("Open with CacheTop of a board without KeepTop: err = %v, want ErrOptions", err)
	}
	if _, err := Open(ctx, env.Client, env.Prefix+"_plainboard", Options{KeepTop: 3}); !errors.Is(err, ErrOptions) {
		t.Errorf("Open with KeepTop: err = %v, want ErrOptions (it is stored)", err)
	}
}

// A cached read rides out a failover: the master of the board's slot is
// killed, a replica takes over, a write changes the best entries there,
// and once the caching client reaches the new master, its cached reads
// are the new master's (the connection to the old one, and what it held,
// went with it). A watch of the top through the same handle delivers the
// new list. The outage is measured and logged.
func TestCachedTopSurvivesFailover(t *testing.T) {
	cl, client := redistest.PrivateCluster(t, redistest.ClusterOptions{Masters: 3, Replicas: 1, NodeTimeout: 2 * time.Second})
	caching := cachingClient(t, cl.Addrs...)
	ctx := t.Context()
	w, err := New(ctx, client, "cachedfailover", testLayout(t), Options{KeepTop: 5, WaitReplicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, caching, "cachedfailover", Options{CacheTop: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		mustSubmit(t, w, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 0}})
	}
	top := r.gen.Load().keys.top
	fence(t, caching, top)
	watch := startWatch(t, topOf(r, 5), 10*time.Millisecond)
	same := func() (bool, error) {
		diff, err := topDiff(ctx, w, r, 5)
		return diff == "", err
	}
	if ok, err := same(); !ok || err != nil {
		t.Fatalf("before the failover: cached top differs (%v)", err)
	}
	killOwner(t, cl, top)
	from := time.Now()
	for {
		_, err := w.Submit(ctx, Submission{ID: "late", Values: []float64{100, 0, 0}})
		if err == nil || errors.Is(err, ErrNotReplicated) {
			break
		}
		if time.Since(from) > time.Minute {
			t.Fatalf("no write within a minute of the kill: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	written := time.Since(from)
	for {
		var err error
		if err = caching.DoCache(ctx, caching.B().Get().Key(top+":fence:failover").Cache(), time.Second).Error(); rueidis.IsRedisNil(err) {
			ok, err := same()
			if err == nil && ok {
				break
			}
			if err == nil {
				t.Fatalf("after the failover, a fenced cached read differs from the new master's")
			}
		}
		if time.Since(from) > time.Minute {
			t.Fatalf("no cached read of the new master within a minute of the kill: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	current := time.Since(from)
	want, err := w.Top(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	watch.until(t, want)
	t.Logf("the kill: a write %.1fs after it, the cached read current %.1fs after it, the watch's delivery %.1fs after it",
		written.Seconds(), current.Seconds(), time.Since(from).Seconds())
}

// resubmit writes s (a Replace: the same again is the same) until a
// write is acknowledged, as a caller whose connection a restart cut
// retries: the first may find its connection closed ("a write may have
// run").
func resubmit(t *testing.T, b *Board, s Submission) {
	t.Helper()
	var err error
	for range 20 {
		if _, err = b.Submit(context.Background(), s); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("Submit(%+v) after the restart: %v", s, err)
}

// privateServer starts a redis-server of the test's own, with args, and
// a client to it without client-side caching; both end with the test.
func privateServer(t *testing.T, args ...string) (*redistest.Server, rueidis.Client) {
	t.Helper()
	srv, err := redistest.StartServerWith("", args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return srv, client
}

// killOwner kills the master of key's slot in cl.
func killOwner(t *testing.T, cl *redistest.Cluster, key string) {
	t.Helper()
	slot, err := cl.SlotOf(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	victim, err := cl.SlotOwner(t.Context(), slot)
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Kill(victim); err != nil {
		t.Fatal(err)
	}
}

// A migration composes with the best entries' key: a board migrated to
// KeepTop, on with it (the new generation's key) and off it serves cached
// reads equal to the sorted set's; the handle that cached the old
// generation's never reads it again: it finds the key gone and the
// descriptor changed (ErrMismatch, as any of its reads would), and a
// handle opened again reads the new one.
func TestCachedTopAcrossMigrations(t *testing.T) {
	env := redistest.New(t)
	caching := sharedCaching(t, env.Addr)
	ctx := context.Background()
	w := newBoard(t, env.Client, env.Prefix, "cachedmigrate", testLayout(t), Options{})
	for i := range 12 {
		mustSubmit(t, w, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i % 7), float64(i % 2), 1}})
	}
	var r *Board
	check := func(when string, stale bool) {
		t.Helper()
		if r == nil {
			return
		}
		fence(t, caching, r.gen.Load().keys.top)
		want, err1 := w.Page(ctx, 1, 5)
		got, err2 := r.Page(ctx, 1, 5)
		if stale && errors.Is(err2, ErrMismatch) {
			return
		}
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: cached Page(1, 5) (-sorted set +cached):\n%s", when, diff)
		}
	}
	for step, o := range []Options{{KeepTop: 6}, {KeepTop: 6, DenseRanks: true}, {Strategy: KeySuffix, KeepTop: 8}, {}} {
		nw, err := w.Migrate(ctx, testLayout(t), o, MigrateOptions{})
		if err != nil {
			t.Fatalf("step %d: Migrate to %+v: %v", step, o, err)
		}
		w = nw
		check(fmt.Sprintf("step %d, the handle opened before", step), true)
		mustSubmit(t, w, Submission{ID: fmt.Sprint("new", step), Values: []float64{9, 1, 0}})
		check(fmt.Sprintf("step %d, the handle opened before, after a write", step), true)
		r = nil
		if o.KeepTop > 0 {
			if r, err = Open(ctx, caching, w.Name(), Options{CacheTop: true}); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("step %d, a handle opened after", step), false)
			mustSubmit(t, w, Submission{ID: fmt.Sprint("newer", step), Values: []float64{9, 1, 1}})
			check(fmt.Sprintf("step %d, a handle opened after, after a write", step), false)
		}
	}
}

// A list served from memory is shared, as Options.CacheTop says: two
// reads of an unchanged top share their entries, an append to one copies
// and leaves the next read as it was, and what Watch delivers is the
// caller's own, so a deliver that changes its list changes no later read.
func TestCachedListShared(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	w := newBoard(t, env.Client, env.Prefix, "cachedshared", testLayout(t), Options{KeepTop: 5})
	for i := range 5 {
		mustSubmit(t, w, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 0}})
	}
	r, err := Open(ctx, cachingClient(t, env.Addr), w.Name(), Options{CacheTop: true})
	if err != nil {
		t.Fatal(err)
	}
	first, err1 := r.Top(ctx, 3)
	second, err2 := r.Top(ctx, 3)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if &first.Entries[0] != &second.Entries[0] {
		t.Errorf("two cached reads of an unchanged top copied their entries; the read is to share them")
	}
	_ = append(first.Entries, Entry{ID: "appended", Values: []float64{-1, -1, -1}})
	if diff, err := topDiff(ctx, w, r, 5); err != nil || diff != "" {
		t.Errorf("cached top after an append (-sorted set +cached), %v:\n%s", err, diff)
	}
	deliveries := 0
	wctx, stop := context.WithCancel(ctx)
	err = Watch(wctx, time.Millisecond, topOf(r, 3), func(l List) error {
		l.Entries[0].ID, l.Entries[0].Values[0] = "changed", -1
		if deliveries++; deliveries == 2 {
			stop()
			return nil
		}
		mustSubmit(t, w, Submission{ID: "top", Values: []float64{float64(100 + deliveries), 0, 0}})
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Watch: %v", err)
	}
	want, err := w.Top(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	fence(t, r.rc(), r.gen.Load().keys.top)
	got, err := r.Top(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cached top after changing deliveries (-sorted set +cached):\n%s", diff)
	}
	if got.Entries[0].ID != "top" || got.Entries[0].Values[0] != 101 {
		t.Errorf("cached best entry %v, want top with 101", got.Entries[0])
	}
}

// A cached read needs CLIENT CACHING, which rueidis sends before each read
// it caches without reading its reply: a server that refuses it (an ACL
// without +client|caching) would leave the key untracked and the cached
// list never dropped. The read fails instead, until the ACL grants it.
func TestCachedTopNeedsClientCaching(t *testing.T) {
	srv, admin := privateServer(t)
	ctx := t.Context()
	acl := func(rules ...string) {
		t.Helper()
		cmd := admin.B().Arbitrary("ACL", "SETUSER", "reader").Args(rules...).Build()
		if err := admin.Do(ctx, cmd).Error(); err != nil {
			t.Fatal(err)
		}
	}
	acl("on", ">pw", "~*", "+@all", "-client|caching")
	reader, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{srv.Addr}, Username: "reader", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reader.Close)
	w := newBoard(t, admin, "", "cachingacl", testLayout(t), Options{KeepTop: 5})
	mustSubmit(t, w, Submission{ID: "a", Values: []float64{1, 0, 0}})
	r, err := Open(ctx, reader, w.Name(), Options{CacheTop: true})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := r.Top(ctx, 5); !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "NOPERM") {
		t.Fatalf("cached Top without +client|caching: %v, %v; want ErrRedis saying NOPERM", l, err)
	}
	acl("+client|caching")
	for i, id := range []string{"b", "c"} {
		mustSubmit(t, w, Submission{ID: id, Values: []float64{float64(10 + i), 0, 0}})
		fence(t, reader, r.gen.Load().keys.top)
		diff, err := topDiff(ctx, w, r, 5)
		if err != nil {
			t.Fatal(err)
		}
		if diff != "" {
			t.Fatalf("cached top once granted (-sorted set +cached):\n%s", diff)
		}
	}
}

// topDiff reads the top n of one board through w, uncached, and through
// r, cached, and returns their difference (-sorted set +cached), "" when
// they are equal.
func topDiff(ctx context.Context, w, r *Board, n int) (string, error) {
	want, err1 := w.Top(ctx, n)
	got, err2 := r.Top(ctx, n)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	return cmp.Diff(want, got), nil
}

// Many goroutines share one handle with CacheTop while a writer keeps
// changing its best entries (each change drops the cached copy, so reads
// decode the new one at once from several goroutines): every cached read is a well-formed top (best
// first, at most n, no id twice), and once the writer stops and the
// invalidations are in, every reader sees what the sorted set holds. Run
// under -race, it guards the handle's shared state (its decoded top and
// the pinned command every cached read sends), which the single-reader
// tests never touch from two goroutines at once.
func TestCachedTopConcurrentReaders(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	w := newBoard(t, env.Client, env.Prefix, "cachedconcurrent", testLayout(t), Options{KeepTop: 5})
	caching := cachingClient(t, env.Addr)
	r, err := Open(ctx, caching, w.Name(), Options{CacheTop: true})
	if err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	var writers, readers sync.WaitGroup
	var writes atomic.Int64
	errc := make(chan error, 9)
	writers.Go(func() {
		for i := 0; wctx.Err() == nil; i++ {
			if _, err := w.Submit(ctx, Submission{ID: fmt.Sprint("p", i%40), Values: []float64{float64(i), 0, 0}}); err != nil {
				errc <- err
				return
			}
			writes.Add(1)
		}
	})
	for range 8 {
		readers.Go(func() {
			for range 2000 {
				l, err := r.Top(ctx, 5)
				if err == nil {
					err = wellFormedTop(l, 5)
				}
				if err != nil {
					errc <- err
					return
				}
			}
		})
	}
	readers.Wait()
	stop()
	writers.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	t.Logf("16000 cached reads beside %d writes", writes.Load())
	fence(t, caching, r.gen.Load().keys.top)
	if diff, err := topDiff(ctx, w, r, 5); err != nil || diff != "" {
		t.Errorf("cached top after the writer stopped (-sorted set +cached), %v:\n%s", err, diff)
	}
}

// wellFormedTop checks that l holds at most n entries, best first (by
// their packed values, ties by id), each id once.
func wellFormedTop(l List, n int) error {
	if len(l.Entries) > n {
		return fmt.Errorf("a top of %d entries, asked for %d", len(l.Entries), n)
	}
	seen := map[string]bool{}
	for i, e := range l.Entries {
		if seen[e.ID] {
			return fmt.Errorf("id %q twice in %v", e.ID, l.Entries)
		}
		seen[e.ID] = true
		if i > 0 && l.Entries[i-1].Values[0] < e.Values[0] {
			return fmt.Errorf("entries %d and %d out of order: %v", i-1, i, l.Entries)
		}
	}
	return nil
}

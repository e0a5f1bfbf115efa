package board

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// percentileLayout has a signed 40-bit first field, so that packed scores
// reach 2^49 and key-suffix first fields take any float64.
func percentileLayout(t testing.TB) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 40, Signed: true},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// randomPoints draws a first field: mostly few small values (many ties),
// then negative ones, values near the field's bounds (packed) or huge
// and tiny floats (key suffix), and zero.
func randomPoints(r *rand.Rand, suffix bool) float64 {
	const big = 1<<39 - 1
	switch k := r.IntN(20); {
	case k < 10:
		return float64(r.IntN(6))
	case k < 13:
		return -float64(r.IntN(4))
	case k < 15:
		return float64(big - r.IntN(3))
	case k < 16:
		return float64(-big + r.IntN(3))
	case k < 17 && suffix:
		return []float64{1e300, -1e300, math.MaxFloat64, -math.MaxFloat64}[r.IntN(4)]
	case k < 18 && suffix:
		return []float64{1e-300, -1e-300, 5e-324, 0.5, 1.5, 2.25}[r.IntN(6)]
	case k < 19:
		return float64(int64(1)<<(10+r.IntN(28))) + float64(r.IntN(3))
	}
	return 0
}

// checkPercentiles checks, for every id given, that the exact rank of its
// entry on b (its place in a full scan) lies within Percentile's bound,
// and that the answer is consistent: an entry not shown (beyond the cap,
// or absent) is ErrNotFound, or on a capped board answered at the bottom.
// exact says the answer must be exact.
func checkPercentiles(t *testing.T, what string, b *Board, ids []string, exact bool) {
	t.Helper()
	ctx := t.Context()
	all, err := scanAll(ctx, b, 1000)
	if err != nil {
		t.Fatalf("%s: scan: %v", what, err)
	}
	total := int64(len(all.Entries))
	rank := make(map[string]int64, total)
	for i, e := range all.Entries {
		rank[e.ID] = int64(i) + 1
	}
	var widest int64
	for _, id := range ids {
		p, err := b.Percentile(ctx, id)
		r, shown := rank[id]
		if !shown {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: Percentile(%s), not on the board = %+v, %v; want ErrNotFound", what, id, p, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Percentile(%s) (rank %d of %d): %v", what, id, r, total, err)
			continue
		}
		if p.Total != total || r < p.MinRank || r > p.MaxRank || p.MinRank < 1 || p.MaxRank > total {
			t.Errorf("%s: Percentile(%s) = %+v; exact rank %d of %d", what, id, p, r, total)
		}
		if exact && p.MinRank != p.MaxRank {
			t.Errorf("%s: Percentile(%s) = %+v; want exact (rank %d)", what, id, p, r)
		}
		share := float64(r) / float64(total)
		if math.Abs(share-p.Top) > p.Error+1e-12 || p.Error != float64(p.MaxRank-p.MinRank)/2/float64(total) {
			t.Errorf("%s: Percentile(%s) = %+v; exact share %v outside Top ± Error", what, id, p, share)
		}
		widest = max(widest, p.MaxRank-p.MinRank)
	}
	t.Logf("%s: %d entries, the widest range %d ranks", what, total, widest)
}

// checkHistograms recounts, for every shard of the sharded board b, the
// histogram from the shard's sorted set, and fails t unless the shard's
// histogram HASH holds exactly those counts; no other histogram key of
// the board is left (those of old shards and generations).
func checkHistograms(t *testing.T, what string, client rueidis.Client, b *Board) {
	t.Helper()
	ctx := t.Context()
	v := b.sh.view.Load()
	want := map[string]bool{}
	for i, s := range v.shards {
		k := s.gen.Load().keys
		got, err := client.Do(ctx, client.B().Hgetall().Key(k.hist).Build()).AsStrMap()
		if err != nil {
			t.Fatalf("%s: shard %d: HGETALL %s: %v", what, i, k.hist, err)
		}
		zs, err := client.Do(ctx, client.B().Zrange().Key(k.z).Min("0").Max("-1").Withscores().Build()).AsZScores()
		if err != nil {
			t.Fatalf("%s: shard %d: ZRANGE: %v", what, i, err)
		}
		recount := map[string]string{}
		n := map[int64]int64{}
		for _, z := range zs {
			n[bucketOf(z.Score)]++
		}
		for bk, c := range n {
			recount[strconv.FormatInt(bk, 10)] = strconv.FormatInt(c, 10)
		}
		if diff := cmp.Diff(recount, got); diff != "" {
			t.Errorf("%s: shard %d: histogram differs from a recount of its %d entries (-recount +stored):\n%s", what, i, len(zs), diff)
		}
		if len(got) > 0 {
			want[k.hist] = true
		}
	}
	prefix := strings.TrimSuffix(strings.TrimPrefix(b.prefix, "tb:{"), "}:")
	for k := range snapshot(t, client, "tb:{"+prefix+"~*hist") {
		if !want[k] {
			t.Errorf("%s: histogram key %s left over", what, k)
		}
	}
}

// bucketOf agrees with lua/side.lua's bucket on the scores that bound the
// buckets, and never decreases with the score.
func TestBucketOfMatchesLua(t *testing.T) {
	env := redistest.New(t)
	src := strings.Join(fragmentTexts([]string{"side"}), "\n") + "\nlocal out = {}\nfor i = 1, #ARGV do out[i] = bucket(ARGV[i]) end\nreturn out"
	src = "local HIST, STRATEGY, WIDTH, KEYS_ = false, 'p', 0, 0\n" + src
	scores := []float64{0, 1, -1, 0.5, 0.75, 1.5, 2, 3, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64, 5e-324, -5e-324, 1e-300,
		1 << 49, -(1 << 49), 1<<49 - 1, 1023, 1024, 1025, 0.9999999999999999, 1.0000000000000002}
	for i := range 200 {
		scores = append(scores, math.Ldexp(1+float64(i)/200, i-100), -math.Ldexp(1+float64(i)/128, 3*i-300))
	}
	args := make([]string, len(scores))
	for i, s := range scores {
		args[i] = strconv.FormatFloat(s, 'g', 17, 64)
	}
	got, err := env.Client.Do(t.Context(), env.Client.B().Eval().Script(src).Numkeys(0).Arg(args...).Build()).ToArray()
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range scores {
		g, _ := got[i].AsInt64()
		if g != bucketOf(s) {
			t.Errorf("bucket(%v) = %d in Lua, %d in Go", s, g, bucketOf(s))
		}
	}
	// Monotonic, and of relative width under 1/32.
	prev := bucketOf(-math.MaxFloat64)
	for _, s := range []float64{-1e300, -3, -2, -1.01, -1, -0.5, -1e-300, 0, 1e-300, 0.5, 0.51, 1, 1.03, 2, 1e300} {
		if b := bucketOf(s); b < prev {
			t.Errorf("bucketOf(%v) = %d below %d", s, b, prev)
		} else {
			prev = b
		}
	}
	for _, s := range []float64{1, 1.5, 1000, 1e-5, 123456789} {
		lo, hi := s, s*(1+1.0/32)
		if bucketOf(lo) == bucketOf(hi) {
			t.Errorf("%v and %v share a bucket: wider than 1/32", lo, hi)
		}
	}
}

// percentileCase is one configuration of the differential test.
type percentileCase struct {
	strategy Strategy
	cap      int64
	shards   []int // the counts resharded through, first the board's own
}

// A random sharded board, written with every kind of write (Replace, Best,
// Add field by field, SubmitMany, Remove, trims by the cap, Reshard
// between counts, Clear), many ties, negative, huge and tiny values:
// after every kind of write, every shard's histogram equals a recount of
// its entries, and for every id the exact rank lies within Percentile's
// bound (exact on one shard).
func TestShardedPercentileDifferential(t *testing.T) {
	env := redistest.New(t)
	for i, c := range []percentileCase{
		{PackedScore, 0, []int{3, 5, 1, 4}},
		{KeySuffix, 0, []int{4, 2, 7}},
		{PackedScore, 25, []int{3, 6}},
		// A capped board grows only: resharded to fewer shards, its new
		// shards trim entries the old ones held, which Reshard's check
		// counts as lost.
		{KeySuffix, 25, []int{2, 5}},
	} {
		for seed := range int64(3) {
			t.Run(fmt.Sprintf("%v-cap=%d-seed=%d", c.strategy, c.cap, seed), func(t *testing.T) {
				runPercentileCase(t, env.Client, fmt.Sprintf("%s_p%d_%d", env.Prefix, i, seed), c, 10*int64(i)+seed)
			})
		}
	}
}

// The same on a Redis Cluster of three masters, the shards on different
// nodes.
func TestShardedPercentileCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	runPercentileCase(t, cl.Client, cl.Prefix+"_pct", percentileCase{KeySuffix, 0, []int{3, 5}}, 9)
}

func runPercentileCase(t *testing.T, client rueidis.Client, name string, c percentileCase, seed int64) {
	ctx := t.Context()
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	b, err := New(ctx, client, name, percentileLayout(t), Options{Strategy: c.strategy, Cap: c.cap, Shards: c.shards[0]})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 160)
	for i := range ids {
		ids[i] = "id" + strconv.Itoa(i)
	}
	sub := func() Submission {
		return Submission{ID: ids[r.IntN(len(ids))], Values: []float64{randomPoints(r, c.strategy == KeySuffix), float64(r.IntN(2)), float64(r.IntN(3))}}
	}
	check := func(what string) {
		t.Helper()
		checkHistograms(t, what, client, b)
		checkPercentiles(t, what, b, ids, b.Options().Shards == 1)
	}
	for round, shards := range c.shards {
		if round > 0 {
			if _, err := b.Reshard(ctx, shards, MigrateOptions{Batch: 17}); err != nil {
				t.Fatalf("Reshard to %d: %v", shards, err)
			}
			check(fmt.Sprintf("round %d: after Reshard to %d", round, shards))
		}
		for range 120 {
			s := sub()
			s.Policy = []Policy{Replace, Best}[r.IntN(2)]
			if _, err := b.Submit(ctx, s); err != nil {
				t.Fatalf("Submit %+v: %v", s, err)
			}
		}
		check(fmt.Sprintf("round %d: after Replace and Best", round))
		for range 40 {
			s := sub()
			s.Policy, s.Fields = Replace, []Policy{Add, Max, Replace}
			s.Values[0] = float64(r.IntN(5) - 2)
			if _, err := b.Submit(ctx, s); err != nil && !errors.Is(err, ErrArgument) { // an addition may leave the field's range
				t.Fatalf("Submit %+v: %v", s, err)
			}
		}
		check(fmt.Sprintf("round %d: after a write field by field", round))
		subs := make([]Submission, 60)
		for i := range subs {
			subs[i] = sub()
		}
		for _, res := range b.SubmitMany(ctx, subs) {
			if res.Err != nil {
				t.Fatalf("SubmitMany: %v", res.Err)
			}
		}
		check(fmt.Sprintf("round %d: after SubmitMany", round))
		gone := make([]string, 25)
		for i := range gone {
			gone[i] = ids[r.IntN(len(ids))]
		}
		if _, err := b.Remove(ctx, gone...); err != nil {
			t.Fatalf("Remove: %v", err)
		}
		check(fmt.Sprintf("round %d: after Remove", round))
	}
	if err := b.Clear(ctx); err != nil {
		t.Fatalf("Clear: %v", err)
	}
	check("after Clear")
	if _, err := b.Submit(ctx, sub()); err != nil {
		t.Fatal(err)
	}
	check("after Clear and a write")
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if left := snapshot(t, client, "tb:{"+name+"~*"); len(left) > 0 {
		t.Errorf("keys left after Drop: %v", left)
	}
}

// On one shard, with all entries in one bucket, the answer is exact; on
// several, the range is the other shards' entries of the bucket.
func TestShardedPercentileTies(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "ties", testLayout(t), Options{Shards: 4, Strategy: KeySuffix})
	var subs []Submission
	for i := range 100 {
		subs = append(subs, Submission{ID: "t" + strconv.Itoa(i), Values: []float64{7, float64(i % 2), float64(i % 50)}})
	}
	subs = append(subs, Submission{ID: "best", Values: []float64{9, 0, 0}}, Submission{ID: "worst", Values: []float64{1, 0, 0}})
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	p, err := b.Percentile(ctx, "best")
	if err != nil || p.MinRank != 1 || p.MaxRank != 1 || p.Total != 102 || p.Error != 0 {
		t.Errorf("Percentile(best) = %+v, %v; want rank 1 of 102 exactly", p, err)
	}
	p, err = b.Percentile(ctx, "worst")
	if err != nil || p.MinRank != 102 || p.MaxRank != 102 || p.Top != 1 {
		t.Errorf("Percentile(worst) = %+v, %v; want rank 102 of 102 exactly", p, err)
	}
	p, err = b.Percentile(ctx, "t3")
	own := int64(0)
	for i := range 100 {
		if shardOf("t"+strconv.Itoa(i), 4) == shardOf("t3", 4) {
			own++
		}
	}
	if err != nil || p.MaxRank-p.MinRank != 100-own {
		t.Errorf("Percentile(t3) = %+v, %v; want a range of the %d tied entries of other shards", p, err, 100-own)
	}
	checkPercentiles(t, "ties", b, []string{"t0", "t3", "t50", "t99", "best", "worst", "absent"}, false)
}

// A board of one hash tag answers exactly whatever its kind: a plain board
// of either strategy, a board of a group, a periodic window, a board with
// hidden members (which are not found, and count for no other) and a
// capped one.
func TestPercentileExactKinds(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	var boards []*Board
	for _, o := range []Options{{}, {Strategy: KeySuffix}, {Group: env.Prefix + "g"}, {Hiding: true}, {Cap: 20, Strategy: KeySuffix}} {
		name := env.Prefix + "_x" + strconv.Itoa(len(boards))
		if o.Group != "" {
			name = "gb"
		}
		b, err := New(ctx, env.Client, name, l, o)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
	}
	p, err := NewPeriodic(env.Client, env.Prefix+"_win", l, Daily(nil), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	boards = append(boards, p.At(time.Now()))
	r := rand.New(rand.NewPCG(3, 4))
	var ids []string
	for i := range 60 {
		ids = append(ids, "e"+strconv.Itoa(i))
	}
	for _, b := range boards {
		for _, id := range ids {
			if _, err := b.Submit(ctx, Submission{ID: id, Values: []float64{float64(r.IntN(5)), float64(r.IntN(2)), float64(r.IntN(3))}}); err != nil {
				t.Fatal(err)
			}
		}
		what := b.Name()
		if b.Options().Hiding {
			if _, err := b.Hide(ctx, "e1", "e2", "e3"); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Percentile(ctx, "e2"); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: Percentile of a hidden member: %v, want ErrNotFound", what, err)
			}
		}
		checkPercentiles(t, what, b, append(ids, "absent"), true)
		if _, err := b.Percentile(ctx, ""); !errors.Is(err, ErrArgument) {
			t.Errorf("%s: Percentile of an empty id: %v, want ErrArgument", what, err)
		}
	}
}

// A sharded board one of whose shards holds entries its histogram does
// not count (a shard written by hand, not by the package's scripts)
// refuses Percentile with ErrReply, changing nothing, and answers again
// once a Reshard to another count, or a Clear, made whole ones.
func TestShardedPercentileWithoutHistogram(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newSharded(t, env.Client, env.Prefix, "old", testLayout(t), Options{Shards: 3})
	var subs []Submission
	for i := range 50 {
		subs = append(subs, Submission{ID: "o" + strconv.Itoa(i), Values: []float64{float64(i % 7), 0, 0}})
	}
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	// Remove the histograms, as a hand edit would.
	for _, s := range b.sh.view.Load().shards {
		if err := env.Client.Do(ctx, env.Client.B().Del().Key(s.gen.Load().keys.hist).Build()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, env.Client, "*"+env.Prefix+"*")
	for _, id := range []string{"o1", "o2", "o3"} {
		if _, err := b.Percentile(ctx, id); !errors.Is(err, ErrReply) {
			t.Errorf("Percentile(%s) without histograms: %v, want ErrReply", id, err)
		}
	}
	if after := snapshot(t, env.Client, "*"+env.Prefix+"*"); !cmp.Equal(before, after) {
		t.Errorf("a refused Percentile changed keys")
	}
	// Writes since count their entries, but the shards' old ones are not.
	if _, err := b.Submit(ctx, Submission{ID: "new", Values: []float64{3, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Percentile(ctx, "new"); !errors.Is(err, ErrReply) {
		t.Errorf("Percentile after a write: %v, want ErrReply", err)
	}
	if _, err := b.Reshard(ctx, 4, MigrateOptions{}); err != nil {
		t.Fatal(err)
	}
	checkHistograms(t, "after Reshard", env.Client, b)
	checkPercentiles(t, "after Reshard", b, []string{"o1", "o2", "o40", "new"}, false)
}

// bucketOf is lua/side.lua's bucket of a stored score, for the tests: 0
// for 0, else sign(s) * (32 * (e + 1100) + floor(64 * m - 32) + 1) where
// |s| = m * 2^e, m in [0.5, 1).
func bucketOf(s float64) int64 {
	if s == 0 {
		return 0
	}
	m, e := math.Frexp(math.Abs(s))
	b := int64(32*(e+1100)) + int64(math.Floor(64*m-32)) + 1
	if s < 0 {
		return -b
	}
	return b
}

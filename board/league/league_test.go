package league

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

func TestMain(m *testing.M) {
	if arg := os.Getenv(rollChildEnv); arg != "" {
		os.Exit(rollChild(arg))
	}
	redistest.Main(m)
}

// origin is the start of the tests' first season; seasons are hours.
var origin = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

func period() board.Period { return board.Every(time.Hour).From(origin) }

// season returns the league's k-th season from origin.
func season(l *League, k int) *Season {
	return l.At(origin.Add(time.Duration(k)*time.Hour + time.Minute))
}

func testLayout(t testing.TB) *pack.Layout {
	t.Helper()
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20}, pack.Field{Name: "time", Width: 20, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newLeague(t testing.TB, client rueidis.Client, name string, o Options) *League {
	t.Helper()
	l, err := New(t.Context(), client, name, testLayout(t), period(), o)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// result is a submission of id with points, at time tm.
func result(id string, points, tm float64) board.Submission {
	return board.Submission{ID: id, Values: []float64{points, tm}, Policy: board.Best}
}

// clients are the servers the tests run on: one server, and the
// 3-master cluster.
func clients(t *testing.T) map[string]func() (rueidis.Client, string) {
	return map[string]func() (rueidis.Client, string){
		"server": func() (rueidis.Client, string) {
			env := redistest.New(t)
			return env.Client, env.Prefix
		},
		"cluster": func() (rueidis.Client, string) {
			env := redistest.NewCluster(t, 3)
			return env.Client, env.Prefix
		},
	}
}

// Racing first results of many members, several per member, place each
// member exactly once; no cohort holds more than CohortSize; each tier's
// cohorts of a partition fill one after the other; every cohort board
// holds exactly the members placed in it, each with its best result: as
// a model of the placement says, on one server and on a cluster with
// the league over several partitions.
func TestPlacementUnderRacingWriters(t *testing.T) {
	for where, open := range clients(t) {
		t.Run(where, func(t *testing.T) {
			client, prefix := open()
			ctx := t.Context()
			const members, size, writers = 230, 7, 16
			l := newLeague(t, client, prefix+"lg", Options{CohortSize: size, Partitions: 3})
			s := season(l, 0)
			best := map[string]float64{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					for i := range members {
						id := "m" + strconv.Itoa((i*7+w*13)%members)
						pts := float64((i * w) % 97)
						res, err := s.Submit(ctx, result(id, pts, 1))
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						best[id] = max(best[id], pts)
						mu.Unlock()
						if res.Cohort.Tier != "bronze" || res.Cohort.Partition != l.partition(id) {
							t.Errorf("%s placed in %+v", id, res.Cohort)
						}
					}
				})
			}
			wg.Wait()
			checkPlacement(t, s, best, size)
		})
	}
}

// checkPlacement checks the season's cohorts against best, the best
// points of every member written.
func checkPlacement(t *testing.T, s *Season, best map[string]float64, size int) {
	t.Helper()
	ctx := t.Context()
	cohorts, err := s.Cohorts(ctx, "bronze")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	perPartition := map[int][]int{}
	for _, c := range cohorts {
		l, err := c.Board.Top(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		perPartition[c.Partition] = append(perPartition[c.Partition], len(l.Entries))
		for _, e := range l.Entries {
			if prev, ok := seen[e.ID]; ok {
				t.Errorf("%s is in cohorts %s and %s", e.ID, prev, c.Board.Name())
			}
			seen[e.ID] = c.Board.Name()
			if e.Values[0] != best[e.ID] {
				t.Errorf("%s in %s has %v points, want its best %v", e.ID, c.Board.Name(), e.Values[0], best[e.ID])
			}
			got, err := s.Cohort(ctx, e.ID)
			if err != nil || got.Board.Name() != c.Board.Name() {
				t.Errorf("Cohort(%s) = %+v, %v; want %s", e.ID, got, err, c.Board.Name())
			}
		}
	}
	for p, fills := range perPartition {
		for i, n := range fills {
			if n > size || (i < len(fills)-1 && n != size) || n == 0 {
				t.Errorf("partition %d's cohorts hold %v members: want %d in each but the last", p, fills, size)
				break
			}
		}
	}
	if len(seen) != len(best) {
		t.Errorf("%d members in cohorts, %d written", len(seen), len(best))
	}
}

// standings returns the members of cohort c, best first.
func standings(t *testing.T, c Cohort) []string {
	t.Helper()
	l, err := c.Board.Top(t.Context(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range l.Entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// modelRoll returns every member's tier after rolling the season, from
// the tiers before (absent: 1) and the standings of each cohort by tier.
func modelRoll(l *League, before map[string]int, cohorts map[int][][]string) map[string]int {
	after := maps.Clone(before)
	for t, cs := range cohorts {
		for _, ids := range cs {
			m := len(ids)
			up := 0
			if t < len(l.opts.Tiers) {
				up = l.opts.Promote.of(m)
				for _, id := range ids[:up] {
					after[id] = t + 1
				}
			}
			if t > 1 {
				down := min(l.opts.Demote.of(m), m-up)
				for _, id := range ids[m-down:] {
					after[id] = t - 1
				}
			}
		}
	}
	return after
}

// seasonCohorts returns the standings of every cohort of s by tier.
func seasonCohorts(t *testing.T, l *League, s *Season) map[int][][]string {
	t.Helper()
	out := map[int][][]string{}
	for i, tier := range l.opts.Tiers {
		cs, err := s.Cohorts(t.Context(), tier)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			out[i+1] = append(out[i+1], standings(t, c))
		}
	}
	return out
}

// checkTiers compares every member's stored tier with want (absent: 1).
func checkTiers(t *testing.T, l *League, ids []string, want map[string]int) {
	t.Helper()
	for _, id := range ids {
		got, err := l.Tier(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if w := l.opts.Tiers[max(want[id], 1)-1]; got != w {
			t.Errorf("tier of %s = %s, want %s", id, got, w)
		}
	}
}

// playSeason writes one result for each of ids in season s, points
// distinct and drawn from seed, ties broken by time.
func playSeason(t *testing.T, s *Season, ids []string, seed int) {
	t.Helper()
	for i, id := range ids {
		if _, err := s.Submit(t.Context(), result(id, float64((i*31+seed*17)%101), float64(i%5))); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "p" + strconv.Itoa(i)
	}
	return out
}

// Three seasons: rolls by many racing callers move each cohort's zones
// exactly once, as the model computes them from the standings; the next
// season places each member in its new tier; a season's first result
// after an unrolled one rolls it first; History and Tier follow.
func TestRollsRacingCallers(t *testing.T) {
	for where, open := range clients(t) {
		t.Run(where, func(t *testing.T) {
			client, prefix := open()
			ctx := t.Context()
			l := newLeague(t, client, prefix+"lg", Options{CohortSize: 6, Partitions: 2,
				Promote: Zone{Count: 2}, Demote: Zone{Fraction: 0.34}})
			members := ids(40)
			tiers := map[string]int{}
			for k := range 3 {
				s := season(l, k)
				playSeason(t, s, members, k)
				for _, id := range members {
					c, err := s.Cohort(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if want := l.opts.Tiers[max(tiers[id], 1)-1]; c.Tier != want {
						t.Errorf("season %d: %s placed in tier %s, want %s", k, id, c.Tier, want)
					}
				}
				cohorts := seasonCohorts(t, l, s)
				tiers = modelRoll(l, tiers, cohorts)
				if k == 2 {
					break // season 2 is rolled by season 3's first result
				}
				var wg sync.WaitGroup
				for range 8 {
					wg.Go(func() {
						if err := s.Roll(ctx); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
				checkTiers(t, l, members, tiers)
				if _, err := s.Submit(ctx, result(members[0], 1, 1)); !errors.Is(err, ErrClosed) {
					t.Errorf("a write to a rolled season: %v, want ErrClosed", err)
				}
			}
			// Season 3's first result rolls season 2 in its partition.
			s3 := season(l, 3)
			if _, err := s3.Submit(ctx, result(members[0], 5, 1)); err != nil {
				t.Fatal(err)
			}
			p := l.partition(members[0])
			var inP []string
			for _, id := range members {
				if l.partition(id) == p {
					inP = append(inP, id)
				}
			}
			checkTiers(t, l, inP, tiers)
			h, err := l.History(ctx, members[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(h) != 4 || h[0].Season != season(l, 0).Window().Label || h[3].Season != s3.Window().Label {
				t.Errorf("History(%s) = %+v, want its 4 seasons", members[0], h)
			}
			// Each is the cohort the season's Cohort gives, with a board
			// that holds the member's standing in it.
			for i, s := range []*Season{season(l, 0), s3} {
				c := h[3*i]
				want, err := s.Cohort(ctx, members[0])
				if err != nil {
					t.Fatal(err)
				}
				if c.Tier != want.Tier || c.Index != want.Index || c.Partition != want.Partition || c.Board.Name() != want.Board.Name() {
					t.Errorf("History's season %s: %+v, want %+v", c.Season, c, want)
				}
				if _, err := c.Board.Get(ctx, members[0]); err != nil {
					t.Errorf("History's season %s: the cohort's board: %v", c.Season, err)
				}
			}
		})
	}
}

// Bad input changes nothing: a refused submission places no one.
func TestRefusalsPlaceNoOne(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := newLeague(t, env.Client, env.Prefix+"lg", Options{CohortSize: 3})
	s := season(l, 0)
	for _, sub := range []board.Submission{
		{ID: "", Values: []float64{1, 1}},
		{ID: "a", Values: []float64{1}},
		{ID: "a", Values: []float64{1 << 21, 1}},
		{ID: "a", Values: []float64{1, 1}, Fields: []board.Policy{board.Add, board.Replace}},
	} {
		if sub.Fields != nil {
			if _, err := s.Submit(ctx, board.Submission{ID: "a", Values: []float64{1<<20 - 1, 1}}); err != nil {
				t.Fatal(err)
			}
			n, _ := s.Cohort(ctx, "a")
			before, _ := n.Board.Len(ctx)
			if _, err := s.Submit(ctx, sub); !errors.Is(err, ErrArgument) {
				t.Errorf("an overflowing Add: %v, want ErrArgument", err)
			}
			if after, _ := n.Board.Len(ctx); after != before {
				t.Errorf("a refused write changed the cohort")
			}
			continue
		}
		if _, err := s.Submit(ctx, sub); !errors.Is(err, ErrArgument) {
			t.Errorf("Submit(%+v): %v, want ErrArgument", sub, err)
		}
		if _, err := s.Cohort(ctx, "a"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a refused write placed its member: %v", err)
		}
	}
	for _, o := range []Options{
		{Tiers: []string{}}, {Tiers: []string{"a", "a"}}, {Tiers: []string{"a b"}}, {CohortSize: 1}, {CohortSize: 1001},
		{Partitions: 257}, {Promote: Zone{Count: 1, Fraction: 0.5}}, {Demote: Zone{Fraction: 1.5}}, {Promote: Zone{Count: -1}},
		{Board: board.Options{Cap: 5}}, {Board: board.Options{Shards: 2}}, {Board: board.Options{Rules: board.Rules{MaxAttempts: 1}}},
		{Board: board.Options{KeepTop: 5000}}, {Board: board.Options{MaxIDLen: -1}}, {Board: board.Options{Strategy: 9}},
		{Board: board.Options{CacheTop: true}}, {Board: board.Options{RequestRetention: -1}},
	} {
		if _, err := New(ctx, env.Client, env.Prefix+"bad", testLayout(t), period(), o); !errors.Is(err, ErrOptions) {
			t.Errorf("New with %+v: %v, want ErrOptions", o, err)
		}
	}
	// The refusals wrote nothing: the league can still be made with other
	// settings.
	if n, err := env.Client.Do(ctx, env.Client.B().Exists().Key("tb:{"+env.Prefix+"bad}:league").Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("refused News stored a descriptor: EXISTS = %d, %v", n, err)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"bad", testLayout(t), period(), Options{CohortSize: 30}); err != nil {
		t.Errorf("New after the refusals: %v", err)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"lg", testLayout(t), period(), Options{CohortSize: 4}); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "CohortSize: stored 3, given 4") {
		t.Errorf("New with another CohortSize: %v, want ErrMismatch naming it", err)
	}
	if _, err := New(ctx, env.Client, "a~b", testLayout(t), period(), Options{}); !errors.Is(err, ErrArgument) {
		t.Errorf("a name with '~': %v, want ErrArgument", err)
	}
	// The cohort boards' stored settings are the league's too.
	for _, o := range []Options{{CohortSize: 3, Board: board.Options{Strategy: board.KeySuffix}}, {CohortSize: 3, Board: board.Options{DenseRanks: true}}} {
		if _, err := New(ctx, env.Client, env.Prefix+"lg", testLayout(t), period(), o); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "cohort boards: stored") {
			t.Errorf("New with cohort boards of strategy %v, dense ranks %v: %v, want ErrMismatch naming them", o.Board.Strategy, o.Board.DenseRanks, err)
		}
	}
	// The reads refuse the ids a write refuses.
	for _, id := range []string{"", strings.Repeat("x", 257)} {
		_, err1 := l.Tier(ctx, id)
		_, err2 := l.History(ctx, id)
		_, err3 := s.Cohort(ctx, id)
		for i, err := range []error{err1, err2, err3} {
			if !errors.Is(err, ErrArgument) {
				t.Errorf("read %d of an id of %d bytes: %v, want ErrArgument", i, len(id), err)
			}
		}
	}
	if _, err := s.Cohorts(ctx, "platinum"); !errors.Is(err, ErrArgument) {
		t.Errorf("Cohorts of an unknown tier: %v, want ErrArgument", err)
	}
	// An older season than the partition's latest is closed.
	if _, err := season(l, 1).Submit(ctx, result("b", 1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(ctx, result("c", 1, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("a new member of an older season: %v, want ErrClosed", err)
	}
}

// A name is short enough for every partition's hash tag, name~P, to be a
// board's group (at most 200 bytes): a longer one is refused, writing
// nothing; the longest accepted writes to every partition.
func TestNameFitsPartitions(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for _, c := range []struct{ name, partitions int }{{199, 1}, {200, 1}, {198, 11}, {197, 101}} {
		name := env.Prefix + strings.Repeat("n", c.name-len(env.Prefix))
		if _, err := New(ctx, env.Client, name, testLayout(t), period(), Options{Partitions: c.partitions}); !errors.Is(err, ErrArgument) {
			t.Errorf("a name of %d bytes with %d partitions: %v, want ErrArgument", c.name, c.partitions, err)
		}
		if n := keysOf(t, env.Client, name); n != 0 {
			t.Errorf("a refused name of %d bytes wrote %d keys", c.name, n)
		}
	}
	name := env.Prefix + strings.Repeat("n", 198-len(env.Prefix))
	l := newLeague(t, env.Client, name, Options{Partitions: 10})
	s := season(l, 0)
	for i := range 40 {
		if _, err := s.Submit(ctx, result(fmt.Sprintf("m%d", i), 1, 1)); err != nil {
			t.Fatalf("Submit to a league of a 198-byte name and 10 partitions: %v", err)
		}
	}
	if err := s.Roll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Drop(ctx); err != nil {
		t.Fatal(err)
	}
}

// The zones at their edges: a cohort smaller than both zones promotes
// first; the highest tier promotes no one, the lowest demotes no one;
// fractions round down.
func TestZones(t *testing.T) {
	l := &League{opts: Options{Tiers: []string{"a", "b", "c"}, Promote: Zone{Count: 2}, Demote: Zone{Fraction: 0.5}}}
	for _, c := range []struct {
		tier, m int
		want    []move
	}{
		{1, 5, []move{{0, 2}, {1, 2}}},
		{2, 5, []move{{0, 3}, {1, 3}, {3, 1}, {4, 1}}},
		{2, 3, []move{{0, 3}, {1, 3}, {2, 1}}},
		{2, 1, []move{{0, 3}}},
		{3, 4, []move{{2, 2}, {3, 2}}},
		{3, 1, nil},
	} {
		if got := l.moves(c.tier, c.m); !slices.Equal(got, c.want) {
			t.Errorf("moves(tier %d, %d members) = %v, want %v", c.tier, c.m, got, c.want)
		}
	}
	// A fraction takes the whole number its decimal spelling gives, though
	// the float64 of 0.29 or 0.58 is just below it.
	for _, c := range []struct {
		f       float64
		m, want int
	}{{0.29, 100, 29}, {0.58, 50, 29}, {0.57, 100, 57}, {0.5, 5, 2}, {1, 7, 7}, {0.1, 9, 0}, {1.0 / 3, 3, 1}} {
		if got := (Zone{Fraction: c.f}).of(c.m); got != c.want {
			t.Errorf("Fraction %v of %d members takes %d, want %d", c.f, c.m, got, c.want)
		}
	}
}

// Drop removes every key of a league, on one server and on a cluster:
// its seasons' cohort boards, placements and marks, the tiers and the
// descriptor; the league is then new again.
func TestDrop(t *testing.T) {
	for where, open := range clients(t) {
		t.Run(where, func(t *testing.T) {
			client, prefix := open()
			ctx := t.Context()
			name := prefix + "drop"
			l := newLeague(t, client, name, Options{CohortSize: 3, Partitions: 3, Promote: Zone{Count: 1}})
			members := ids(20)
			for k := range 2 {
				playSeason(t, season(l, k), members, k)
				if err := season(l, k).Roll(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if n := keysOf(t, client, name); n == 0 {
				t.Fatal("the league wrote no keys")
			}
			if err := l.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if n := keysOf(t, client, name); n != 0 {
				t.Errorf("%d keys left after Drop", n)
			}
			l = newLeague(t, client, name, Options{CohortSize: 4})
			if tier, err := l.Tier(ctx, members[0]); err != nil || tier != "bronze" {
				t.Errorf("a member's tier after Drop: %s, %v", tier, err)
			}
		})
	}
}

// keysOf counts the keys whose name holds name, on every node.
func keysOf(t *testing.T, client rueidis.Client, name string) int {
	t.Helper()
	n := 0
	for _, node := range client.Nodes() {
		keys, err := node.Do(t.Context(), node.B().Keys().Pattern("*"+name+"*").Build()).AsStrSlice()
		if err != nil {
			t.Fatal(err)
		}
		n += len(keys)
	}
	return n
}

// A league's request ids are its seasons': the same id in the next season
// is another write; a retry after the season's roll returns the first
// result, not ErrClosed; Drop forgets them.
func TestRequestIDs(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := newLeague(t, env.Client, env.Prefix+"lg", Options{Promote: Zone{Count: 1}})
	add := func(rid string) board.Submission {
		return board.Submission{ID: "ann", Values: []float64{5, 1}, Fields: []board.Policy{board.Add, board.Replace}, RequestID: rid}
	}
	s0, s1 := season(l, 0), season(l, 1)
	first, err := s0.Submit(ctx, add("m1"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := s0.Submit(ctx, add("m1"))
	if err != nil || again.Entry.Values[0] != 5 || again.Cohort.Board.Name() != first.Cohort.Board.Name() {
		t.Errorf("a retry: %+v, %v; want the first result", again, err)
	}
	if _, err := s0.Submit(ctx, board.Submission{ID: "bob", Values: []float64{1, 1}, RequestID: "m1"}); !errors.Is(err, ErrArgument) {
		t.Errorf("the request id for another member: %v, want ErrArgument", err)
	}
	if err := s0.Roll(ctx); err != nil {
		t.Fatal(err)
	}
	if r, err := s0.Submit(ctx, add("m1")); err != nil || r.Entry.Values[0] != 5 {
		t.Errorf("a retry after the roll: %+v, %v; want the first result", r, err)
	}
	r, err := s1.Submit(ctx, add("m1"))
	if err != nil || r.Cohort.Season != s1.Window().Label || r.Entry.Values[0] != 5 {
		t.Errorf("the same request id in the next season: %+v, %v; want a write there", r, err)
	}
	if c, err := s1.Cohort(ctx, "ann"); err != nil || c.Board.Name() != r.Cohort.Board.Name() {
		t.Errorf("ann's cohort of the next season: %+v, %v", c, err)
	}
	if err := l.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	l = newLeague(t, env.Client, env.Prefix+"lg", Options{Promote: Zone{Count: 1}})
	if r, err := season(l, 0).Submit(ctx, add("m1")); err != nil || r.Cohort.Tier != "bronze" {
		t.Errorf("after Drop, the request id again: %+v, %v; want a new write", r, err)
	}
	if c, err := season(l, 0).Cohort(ctx, "ann"); err != nil {
		t.Errorf("after Drop and a write, ann has no cohort: %v", err)
	} else if n, _ := c.Board.Len(ctx); n != 1 {
		t.Errorf("ann's cohort holds %d entries, want 1", n)
	}
}

// A league retry that sends other values gets the first write's result.
func TestRequestIDRetryWithOtherValues(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := newLeague(t, env.Client, env.Prefix+"lg", Options{})
	s := season(l, 0)
	if _, err := s.Submit(ctx, board.Submission{ID: "ann", Values: []float64{5, 1}, RequestID: "r"}); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Submit(ctx, board.Submission{ID: "ann", Values: []float64{9, 1}, RequestID: "r"}); err != nil || r.Entry.Values[0] != 5 {
		t.Errorf("a retry with other values: %+v, %v; want the stored 5", r, err)
	}
}

// A league stores its period: a handle with another period (kind,
// location or alignment) is refused, changing nothing, since the seasons
// of two periods would close each other; a period that makes the same
// windows with the same labels is the same period.
func TestPeriodStored(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	name := env.Prefix + "per"
	weekly := board.Weekly(time.UTC)
	l, err := New(ctx, env.Client, name, testLayout(t), weekly, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.At(origin).Submit(ctx, board.Submission{ID: "ann", Values: []float64{1, 1}}); err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string]string {
		keys, err := env.Client.Do(ctx, env.Client.B().Keys().Pattern("*"+name+"*").Build()).AsStrSlice()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, k := range keys {
			out[k], _ = redistest.Dump(ctx, env.Client, k)
		}
		return out
	}
	before := snapshot()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []board.Period{
		board.Daily(time.UTC), board.Monthly(time.UTC), board.Every(7 * 24 * time.Hour), board.Weekly(paris),
		weekly.From(time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)),
	} {
		if _, err := New(ctx, env.Client, name, testLayout(t), p, Options{}); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "period: stored weekly in UTC, given ") {
			t.Errorf("New with another period: %v, want ErrMismatch naming the periods", err)
		}
	}
	if after := snapshot(); !maps.Equal(before, after) {
		t.Errorf("refused News changed the keyspace: %d keys before, %d after", len(before), len(after))
	}
	// Aligned on a Monday's midnight, a week is the plain week.
	if _, err := New(ctx, env.Client, name, testLayout(t), weekly.From(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)), Options{}); err != nil {
		t.Errorf("New with the same weeks aligned on a Monday: %v", err)
	}
	// Every's windows aligned on instants a whole number of d apart are
	// the same windows.
	hourly := board.Every(time.Hour).From(origin.Add(90 * time.Minute))
	if _, err := New(ctx, env.Client, name+"h", testLayout(t), hourly, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := New(ctx, env.Client, name+"h", testLayout(t), board.Every(time.Hour).From(origin.Add(-30*time.Minute)), Options{}); err != nil {
		t.Errorf("New with the same hours aligned an hour apart: %v", err)
	}
	if _, err := New(ctx, env.Client, name+"h", testLayout(t), board.Every(time.Hour), Options{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("New with hours of another phase: %v, want ErrMismatch", err)
	}
}

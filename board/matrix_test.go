package board

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// The kind x operation matrix: every operation of a board, a group and a
// periodic board either works on every kind of board, giving what the
// in-memory model gives, or is refused with its documented sentinel and
// changes no key at all.

// kindNames are the kinds of board the package builds, one row each.
var kindNames = []string{
	"plain", "grouped", "grouped+shared",
	"window", "grouped window", "grouped+shared window",
	"archive", "grouped archive", "grouped+shared archive",
	"sharded",
}

// kindOf names the kind of b, from what the handle holds: its name, its
// stored settings and its expiry.
func kindOf(b *Board) string {
	o := b.Options()
	if o.Shards > 0 {
		return "sharded"
	}
	group := ""
	switch {
	case o.SharedData:
		group = "grouped+shared"
	case o.Group != "":
		group = "grouped"
	}
	form := ""
	switch {
	case strings.HasSuffix(b.Name(), ":final"):
		form = "archive"
	case !b.opts.expireAt.IsZero():
		form = "window"
	}
	switch {
	case group == "" && form == "":
		return "plain"
	case group == "":
		return form
	case form == "":
		return group
	}
	return group + " " + form
}

// kindSpec is how a row builds its kind: the settings that decide where
// a board lives, and its form (a board, a periodic window, an archive).
type kindSpec struct {
	group, shared bool
	shards        int
	form          string // "", "window" or "archive"
}

// kindSpecs gives each row's spec.
var kindSpecs = map[string]kindSpec{
	"plain":                  {},
	"grouped":                {group: true},
	"grouped+shared":         {group: true, shared: true},
	"window":                 {form: "window"},
	"grouped window":         {group: true, form: "window"},
	"grouped+shared window":  {group: true, shared: true, form: "window"},
	"archive":                {form: "archive"},
	"grouped archive":        {group: true, form: "archive"},
	"grouped+shared archive": {group: true, shared: true, form: "archive"},
	"sharded":                {shards: 3},
}

// fixture is one cell's board, seeded, and the model of what it holds.
type fixture struct {
	client rueidis.Client
	// caching is a client with client-side caching on, to the same
	// server: a board with KeepTop is read through it with CacheTop too.
	caching rueidis.Client
	prefix  string // every key of the cell holds it
	b       *Board
	open    string    // the name Open reads b by
	p       *Periodic // the periodic board of a window or an archive
	w       Window    // b's window, or the archived window
	m       *model
	data    map[string][]byte // member data, by id
}

// matrixSeed is the seed of the entries every cell starts with.
const matrixSeed = 20261126

// seedSubs are the entries every cell's board starts with: 40 entries of
// few distinct values, so many tie, ids of various lengths and prefixes,
// member data on every third.
func seedSubs() []Submission {
	r := rand.New(rand.NewPCG(matrixSeed, 1))
	ids := []string{"a", "ab", "abc", "b", "p1", "p10", "p2", "z"}
	for i := range 32 {
		ids = append(ids, fmt.Sprintf("id%02d", i))
	}
	subs := make([]Submission, len(ids))
	for i, id := range ids {
		subs[i] = Submission{ID: id, Values: []float64{float64(r.IntN(6)), float64(r.IntN(2)), float64(r.IntN(3))}}
		if i%3 == 0 {
			subs[i].Data = []byte("d-" + id)
		}
	}
	return subs
}

// build makes a fresh board of the kind spec describes, with strategy s,
// on client, its names built from prefix, and seeds it. It returns an
// error when the package refuses to build that kind.
func build(t *testing.T, client rueidis.Client, prefix string, spec kindSpec, s Strategy) (*fixture, error) {
	t.Helper()
	ctx := t.Context()
	l := testLayout(t)
	// A key-suffix board of one hash tag keeps dense ranks and its best
	// entries (KeepTop: every write a script); a packed one neither (its
	// writes native where they can be).
	o := Options{Strategy: s, Shards: spec.shards, SharedData: spec.shared, DenseRanks: s == KeySuffix && spec.shards == 0}
	if o.DenseRanks {
		o.KeepTop = 10
	}
	name := prefix + "b"
	if spec.group {
		o.Group, name = prefix+"g", "b"
	}
	f := &fixture{client: client, prefix: prefix, m: newModel(l), data: map[string][]byte{}}
	f.m.suffix = s == KeySuffix
	switch spec.form {
	case "":
		b, err := New(ctx, client, name, l, o)
		if err != nil {
			return nil, err
		}
		f.b = b
	case "window", "archive":
		// Hour-long windows, the current one started half an hour ago: it
		// cannot end while the cell runs, and the one before it has ended
		// and is still writable (its retention is an hour): archivable.
		now := time.Now()
		p, err := NewPeriodic(client, name, l, Every(time.Hour).From(now.Add(-30*time.Minute).Truncate(time.Millisecond)), time.Hour, o)
		if err != nil {
			return nil, err
		}
		f.p = p
		at := now
		if spec.form == "archive" {
			at = at.Add(-time.Hour)
		}
		f.w, _ = p.period.Window(at)
		f.b = p.At(at)
	}
	for i, r := range f.b.SubmitMany(ctx, seedSubs()) {
		if r.Err != nil {
			t.Fatalf("seeding entry %d: %v", i, r.Err)
		}
	}
	for _, s := range seedSubs() {
		f.m.apply(s)
		if s.Data != nil {
			f.data[s.ID] = s.Data
		}
	}
	if spec.form == "archive" {
		a, err := f.p.Archive(ctx, f.w, ArchiveOptions{Retention: time.Hour})
		if err != nil {
			t.Fatalf("Archive: %v", err)
		}
		f.b = a
	}
	f.open = f.b.Name()
	if g := f.b.Options().Group; g != "" {
		f.open = g + "/" + f.b.Name()
	}
	return f, nil
}

// dense reports whether the board keeps dense ranks.
func (f *fixture) dense() bool { return f.b.Options().DenseRanks }

// all is every read option the board answers: member data and every rank
// kind it keeps.
func (f *fixture) all() []ReadOption {
	if f.dense() {
		return []ReadOption{WithData(), WithRanks(Competition, Dense)}
	}
	return []ReadOption{WithData(), WithRanks(Competition)}
}

// want completes a list the model gave with member data when withData,
// as a read returns it.
func (f *fixture) want(l List, withData bool) List {
	for i := range l.Entries {
		l.Entries[i].Data = nil
		if withData {
			l.Entries[i].Data = f.data[l.Entries[i].ID]
		}
	}
	return l
}

// ranked runs fn with the model filling the ranks all() asks for.
func (f *fixture) ranked(fn func() List) List {
	f.m.ranks = readConfig{comp: true, dense: f.dense()}
	defer func() { f.m.ranks = readConfig{} }()
	return f.want(fn(), true)
}

// listOpts compares lists by their entries and total.
var listOpts = cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreFields(List{}, "HasMore", "Next")}

// checkList fails t unless got, err is want.
func checkList(t *testing.T, what string, got List, err error, want List) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	if diff := cmp.Diff(want, got, listOpts); diff != "" {
		t.Errorf("%s (-model +board):\n%s", what, diff)
	}
}

// checkAll compares the whole board, read through b, with the model.
func (f *fixture) checkAll(t *testing.T, b *Board, what string) {
	t.Helper()
	got, err := b.Top(t.Context(), maxCount, f.all()...)
	checkList(t, what+": the whole board", got, err, f.ranked(func() List { return f.m.page(0, maxCount) }))
	f.checkExpiry(t, b, what)
	f.checkCached(t, b, what)
}

// checkCached compares the best entries a handle with CacheTop reads from
// its client's memory with the model's, on a board with KeepTop.
func (f *fixture) checkCached(t *testing.T, b *Board, what string) {
	t.Helper()
	if b.Options().KeepTop == 0 || f.caching == nil {
		return
	}
	r, err := Open(t.Context(), f.caching, f.open, Options{CacheTop: true})
	if errors.Is(err, ErrNotFound) && len(f.m.vals) == 0 {
		return // a window dropped, or never written
	}
	if err != nil {
		t.Errorf("%s: Open with CacheTop: %v", what, err)
		return
	}
	fence(t, f.caching, r.gen.Load().keys.top)
	for _, p := range [][2]int{{0, 10}, {3, 4}} {
		got, err := r.Page(t.Context(), int64(p[0]), p[1])
		checkList(t, fmt.Sprintf("%s: Page(%d, %d) cached", what, p[0], p[1]), got, err, f.want(f.m.page(p[0], p[1]), false))
	}
}

// checkExpiry fails t unless every key of b expires when b is a periodic
// window or an archive with a retention, and none does otherwise.
func (f *fixture) checkExpiry(t *testing.T, b *Board, what string) {
	t.Helper()
	expires := !b.opts.expireAt.IsZero()
	for k, v := range snapshot(t, f.client, "*"+f.prefix+"*") {
		if !strings.Contains(k, "{"+b.Name()+"}") && !strings.Contains(k, "{"+b.Name()+"~") {
			continue
		}
		if got := strings.HasSuffix(v, "expires=true"); got != expires {
			t.Errorf("%s: key %s expires: %t, want %t", what, k, got, expires)
		}
	}
}

// checkResult compares a write's result with the model's.
func checkResult(t *testing.T, what string, got Result, want Result) {
	t.Helper()
	got.Entry.Data = nil
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s (-model +board):\n%s", what, diff)
	}
}

// refuses fails t unless call returns an error wrapping want and leaves
// every key of the cell as it was.
func (f *fixture) refuses(t *testing.T, what string, want error, call func() error) {
	t.Helper()
	before := snapshot(t, f.client, "*"+f.prefix+"*")
	err := call()
	if !errors.Is(err, want) {
		t.Errorf("%s: err = %v, want %v", what, err, want)
	}
	if diff := cmp.Diff(before, snapshot(t, f.client, "*"+f.prefix+"*")); diff != "" {
		t.Errorf("%s, refused, changed keys (-before +after):\n%s", what, diff)
	}
}

// otherEncoding is a cursor at the first of es that another layout or
// strategy made: its encoding tag differs.
func otherEncoding(t *testing.T, es []Entry) string {
	t.Helper()
	if len(es) == 0 {
		t.Fatal("no entry to make a cursor of")
	}
	l := mustLayout(t, pack.Field{Name: "other", Width: 3})
	b := &Board{layout: l, tag: encodingTag(PackedScore, l)}
	c, err := b.cursorOf(Entry{ID: es[0].ID, Values: []float64{1}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// snapshot returns every key matching pattern, on every node of client,
// with its DUMP and whether it expires.
func snapshot(t *testing.T, client rueidis.Client, pattern string) map[string]string {
	t.Helper()
	ctx := t.Context()
	seen := map[string]bool{}
	for _, node := range client.Nodes() {
		var cursor uint64
		for {
			e, err := node.Do(ctx, node.B().Scan().Cursor(cursor).Match(pattern).Count(1000).Build()).AsScanEntry()
			if err != nil {
				t.Fatalf("SCAN: %v", err)
			}
			for _, k := range e.Elements {
				seen[k] = true
			}
			if cursor = e.Cursor; cursor == 0 {
				break
			}
		}
	}
	out := map[string]string{}
	for k := range seen {
		content, ok := keyContent(t, client, k)
		if !ok {
			continue // a replica's key that the master no longer has
		}
		ttl, err := client.Do(ctx, client.B().Pttl().Key(k).Build()).AsInt64()
		if err != nil {
			t.Fatalf("PTTL %s: %v", k, err)
		}
		out[k] = fmt.Sprintf("%s expires=%t", content, ttl >= 0)
	}
	return out
}

// keyContent returns what key holds, in an order its encoding does not
// change (a DUMP of a HASH or a SET follows its hash table, which Redis
// rehashes step by step on reads): false when it is gone.
func keyContent(t *testing.T, client rueidis.Client, key string) (string, bool) {
	t.Helper()
	ctx := t.Context()
	typ, err := client.Do(ctx, client.B().Type().Key(key).Build()).ToString()
	if err != nil {
		t.Fatalf("TYPE %s: %v", key, err)
	}
	var got []string
	switch typ {
	case "none":
		return "", false
	case "hash":
		m, err := client.Do(ctx, client.B().Hgetall().Key(key).Build()).AsStrMap()
		if err != nil {
			t.Fatalf("HGETALL %s: %v", key, err)
		}
		for f, v := range m {
			got = append(got, fmt.Sprintf("%q=%q", f, v))
		}
	case "set":
		if got, err = client.Do(ctx, client.B().Smembers().Key(key).Build()).AsStrSlice(); err != nil {
			t.Fatalf("SMEMBERS %s: %v", key, err)
		}
	case "zset":
		zs, err := client.Do(ctx, client.B().Zrange().Key(key).Min("0").Max("-1").Withscores().Build()).AsZScores()
		if err != nil {
			t.Fatalf("ZRANGE %s: %v", key, err)
		}
		for _, z := range zs {
			got = append(got, fmt.Sprintf("%q:%v", z.Member, z.Score))
		}
		return typ + " " + strings.Join(got, " "), true // in the set's own order
	default:
		s, err := client.Do(ctx, client.B().Dump().Key(key).Build()).ToString()
		if err != nil {
			t.Fatalf("DUMP %s: %v", key, err)
		}
		return fmt.Sprintf("%s %x", typ, s), true
	}
	sort.Strings(got)
	return typ + " " + strings.Join(got, " "), true
}

// groupSubmit writes one entry, id with data, to every board of g: each
// part gives one board's values, policy and operators.
func groupSubmit(t *testing.T, g *Group, id string, data []byte, parts ...Submission) ([]ManyResult, error) {
	subs := make([]Submission, len(parts))
	for i, p := range parts {
		subs[i] = Submission{ID: id, Values: p.Values, Policy: p.Policy, Fields: p.Fields, Data: data}
	}
	return g.Submit(t.Context(), subs)
}

// group returns a group of f's board alone, and false (after checking
// the refusal) for a board that cannot join one: sharded, or of no
// Options.Group.
func (f *fixture) group(t *testing.T) (*Group, bool) {
	t.Helper()
	g, err := NewGroup(f.b)
	if o := f.b.Options(); o.Shards > 0 || o.Group == "" {
		if !errors.Is(err, ErrOptions) {
			t.Errorf("NewGroup of a board that is sharded or of no group: err = %v, want ErrOptions", err)
		}
		return nil, false
	}
	if err != nil {
		t.Fatalf("NewGroup: %v", err)
	}
	return g, true
}

// replyInt reads an integer reply, 0 on an error (the caller checks it).
func replyInt(r rueidis.RedisResult) int64 {
	n, _ := r.AsInt64()
	return n
}

// column is one operation of the matrix: the exported methods it covers,
// as "Type.Method", and the cell it runs on a fresh seeded board.
type column struct {
	name    string
	methods []string
	run     func(t *testing.T, f *fixture)
}

// columns are the operations of the matrix.
var columns = []column{
	{"Submit", []string{"Board.Submit"}, func(t *testing.T, f *fixture) {
		for _, s := range []Submission{
			{ID: "new", Values: []float64{3, 1, 1}},                                // a new entry, tying others
			{ID: "a", Values: []float64{5, 1, 0}, Policy: Best},                    // at best
			{ID: "b", Values: []float64{1, 0, 2}, Fields: []Policy{Add, Max, Min}}, // per field
		} {
			got, err := f.b.Submit(t.Context(), s)
			if err != nil {
				t.Fatalf("Submit %s: %v", s.ID, err)
			}
			want, _ := f.m.submit(s)
			checkResult(t, "Submit "+s.ID, got, want)
		}
		f.refuses(t, "Submit of an empty id", ErrArgument, func() error {
			return second(f.b.Submit(t.Context(), Submission{Values: []float64{1, 1, 1}}))
		})
		f.refuses(t, "Submit of a value out of range", ErrArgument, func() error {
			return second(f.b.Submit(t.Context(), Submission{ID: "a", Values: []float64{1, 2, 1}}))
		})
		f.checkAll(t, f.b, "after Submit")
	}},
	{"SubmitMany", []string{"Board.SubmitMany"}, func(t *testing.T, f *fixture) {
		subs := []Submission{
			{ID: "m1", Values: []float64{4, 0, 1}, Data: []byte("m1")},
			{ID: "", Values: []float64{4, 0, 1}},
			{ID: "id03", Values: []float64{0, 0, 0}},
			{ID: "m2", Values: []float64{4, 0, 1}},
		}
		got := f.b.SubmitMany(t.Context(), subs)
		if len(got) != len(subs) {
			t.Fatalf("SubmitMany: %d results for %d submissions", len(got), len(subs))
		}
		for i, s := range subs {
			if s.ID == "" {
				if !errors.Is(got[i].Err, ErrArgument) {
					t.Errorf("SubmitMany of an empty id: err = %v, want ErrArgument", got[i].Err)
				}
				continue
			}
			if got[i].Err != nil {
				t.Errorf("SubmitMany %s: %v", s.ID, got[i].Err)
				continue
			}
			want, _ := f.m.apply(s)
			if s.Data != nil {
				f.data[s.ID] = s.Data
			}
			// A result's rank is the entry's rank when it was written.
			got[i].Result.Entry.Rank = 0
			want.Entry = Entry{ID: s.ID, Values: f.m.vals[s.ID]}
			checkResult(t, "SubmitMany "+s.ID, got[i].Result, want)
		}
		f.checkAll(t, f.b, "after SubmitMany")
	}},
	{"Update", []string{"Board.Update"}, func(t *testing.T, f *fixture) {
		got, err := f.b.Update(t.Context(), "p2", func(old *Entry) ([]float64, error) {
			if old == nil {
				return nil, errors.New("p2 is not on the board")
			}
			return []float64{old.Values[0] + 1, old.Values[1], old.Values[2]}, nil
		})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		v := f.m.vals["p2"]
		want, _ := f.m.submit(Submission{ID: "p2", Values: []float64{v[0] + 1, v[1], v[2]}})
		checkResult(t, "Update", got, want)
		f.refuses(t, "Update to a value out of range", ErrArgument, func() error {
			return second(f.b.Update(t.Context(), "p2", func(*Entry) ([]float64, error) { return []float64{1, 5, 1}, nil }))
		})
		f.checkAll(t, f.b, "after Update")
	}},
	{"Group.Submit", []string{"Group.Submit"}, func(t *testing.T, f *fixture) {
		g, ok := f.group(t)
		if !ok {
			return
		}
		rs, err := groupSubmit(t, g, "g1", []byte("g1 data"), Submission{Values: []float64{5, 1, 2}})
		if err != nil || len(rs) != 1 || rs[0].Err != nil {
			t.Fatalf("Group.Submit = %v, %v", rs, err)
		}
		want, _ := f.m.submit(Submission{ID: "g1", Values: []float64{5, 1, 2}})
		f.data["g1"] = []byte("g1 data")
		checkResult(t, "Group.Submit", rs[0].Result, want)
		f.refuses(t, "Group.Submit of the wrong number of entries", ErrArgument, func() error {
			return second(groupSubmit(t, g, "g2", nil, Submission{Values: []float64{1, 1, 1}}, Submission{Values: []float64{1, 1, 1}}))
		})
		if o := f.b.Options(); o.Group != "" {
			// With another board of its group: atomic, and a refusal
			// only the script sees (an add leaving the field's range on
			// the other board) writes neither.
			other, err := New(t.Context(), f.client, "other", f.b.Layout(), Options{Group: o.Group, SharedData: o.SharedData})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := other.Submit(t.Context(), Submission{ID: "a", Values: []float64{1020, 0, 0}}); err != nil {
				t.Fatal(err)
			}
			g2, err := NewGroup(f.b, other)
			if err != nil {
				t.Fatalf("NewGroup with another board of the group: %v", err)
			}
			f.refuses(t, "Group.Submit of an add out of range on the other board", ErrArgument, func() error {
				return second(groupSubmit(t, g2, "a", []byte("lost"), Submission{Values: []float64{5, 1, 0}},
					Submission{Values: []float64{10, 0, 0}, Fields: []Policy{Add, Replace, Replace}}))
			})
			rs, err := groupSubmit(t, g2, "g3", []byte("g3 data"), Submission{Values: []float64{0, 0, 2}}, Submission{Values: []float64{7, 0, 0}})
			if err != nil || rs[0].Err != nil || rs[1].Err != nil {
				t.Fatalf("Group.Submit of two boards = %v, %v", rs, err)
			}
			want, _ := f.m.submit(Submission{ID: "g3", Values: []float64{0, 0, 2}})
			f.data["g3"] = []byte("g3 data")
			checkResult(t, "Group.Submit of two boards", rs[0].Result, want)
		}
		f.checkAll(t, f.b, "after Group.Submit")
	}},
	{"Group.Remove", []string{"Group.Remove"}, func(t *testing.T, f *fixture) {
		g, ok := f.group(t)
		if !ok {
			return
		}
		f.refuses(t, "Group.Remove of no ids", ErrArgument, func() error { return second(g.Remove(t.Context())) })
		f.refuses(t, "Group.Remove of an invalid id", ErrArgument, func() error { return second(g.Remove(t.Context(), "a", "")) })
		want := int64(0)
		for _, id := range []string{"a", "p10", "absent", "a"} {
			if _, on := f.m.vals[id]; on {
				want++
				delete(f.m.vals, id)
			}
			delete(f.data, id)
		}
		n, err := g.Remove(t.Context(), "a", "p10", "absent", "a")
		if err != nil || n != want {
			t.Errorf("Group.Remove = %d, %v; want %d", n, err, want)
		}
		if o := f.b.Options(); o.SharedData {
			key := "tb:{" + o.Group + "}:data"
			if got := f.client.Do(t.Context(), f.client.B().Hexists().Key(key).Field("a").Build()); got.Error() != nil || replyInt(got) != 0 {
				t.Errorf("the shared data of a is left after Group.Remove")
			}
		}
		f.checkAll(t, f.b, "after Group.Remove")
	}},
	// Rules are a setting no kind needs: on every kind's board without
	// them, Join and Entrant refuse, changing nothing; TestRulesEveryKind
	// runs them with rules on each kind that takes them.
	// Hiding too: on every kind's board without it, Hide and Show refuse,
	// changing nothing; TestHidingEveryKind runs them on each kind that
	// takes it.
	{"Hiding", []string{"Board.Hide", "Board.Show"}, func(t *testing.T, f *fixture) {
		f.refuses(t, "Hide on a board without Hiding", ErrArgument, func() error { _, err := f.b.Hide(t.Context(), "a"); return err })
		f.refuses(t, "Show on a board without Hiding", ErrArgument, func() error { _, err := f.b.Show(t.Context(), "a"); return err })
	}},
	{"Rules", []string{"Board.Join", "Board.Entrant"}, func(t *testing.T, f *fixture) {
		f.refuses(t, "Join on a board without rules", ErrArgument, func() error { return f.b.Join(t.Context(), "a") })
		f.refuses(t, "Entrant on a board without rules", ErrArgument, func() error { _, err := f.b.Entrant(t.Context(), "a"); return err })
		f.checkAll(t, f.b, "after Join and Entrant")
	}},
	{"Clear", []string{"Board.Clear"}, func(t *testing.T, f *fixture) {
		before := snapshot(t, f.client, "*"+f.prefix+"*:meta")
		if err := f.b.Clear(t.Context()); err != nil {
			t.Fatalf("Clear: %v", err)
		}
		if after := snapshot(t, f.client, "*"+f.prefix+"*:meta"); !cmp.Equal(before, after) {
			t.Errorf("Clear changed the meta HASHes (-before +after):\n%s", cmp.Diff(before, after))
		}
		f.m = newModel(f.b.Layout())
		if o := f.b.Options(); !o.SharedData {
			f.data = map[string][]byte{}
		}
		f.checkAll(t, f.b, "after Clear")
		o, err := Open(t.Context(), f.client, f.open, Options{})
		if err != nil {
			t.Fatalf("Open after Clear: %v", err)
		}
		s := Submission{ID: "after", Values: []float64{3, 1, 3}}
		if _, err := o.Submit(t.Context(), s); err != nil {
			t.Fatalf("Submit after Clear: %v", err)
		}
		f.m.apply(s)
		f.checkAll(t, f.b, "after Clear and a write")
	}},
	// Watch is a function of the package, not a method: its column
	// watches each kind's reads.
	{"Watch", nil, func(t *testing.T, f *fixture) {
		stop := errors.New("stop")
		views := []struct {
			name string
			read func(context.Context) (List, error)
			want func() List
		}{
			{"top 5", func(ctx context.Context) (List, error) { return f.b.Top(ctx, 5, f.all()...) },
				func() List { return f.m.page(0, 5) }},
			{"around p10", func(ctx context.Context) (List, error) { return f.b.Around(ctx, "p10", 3, f.all()...) },
				func() List { return f.m.around("p10", 3) }},
			{"among", func(ctx context.Context) (List, error) {
				return f.b.Among(ctx, []string{"a", "p10", "absent"}, f.all()...)
			}, func() List { return f.m.among([]string{"a", "p10", "absent"}) }},
		}
		for _, v := range views {
			var got List
			err := Watch(t.Context(), time.Millisecond, v.read, func(l List) error { got = l; return stop })
			if !errors.Is(err, stop) {
				t.Errorf("Watch(%s): %v, want the deliver's error", v.name, err)
			}
			checkList(t, fmt.Sprintf("Watch(%s)'s first list", v.name), got, nil, f.ranked(v.want))
		}
		f.refuses(t, "Watch of a refused read", ErrArgument, func() error {
			return Watch(t.Context(), time.Millisecond, func(ctx context.Context) (List, error) { return f.b.Top(ctx, 0) },
				func(List) error { return nil })
		})
	}},
	{"Get", []string{"Board.Get"}, func(t *testing.T, f *fixture) {
		for _, id := range []string{"a", "p10", "id31", "z"} {
			got, err := f.b.Get(t.Context(), id, f.all()...)
			if err != nil {
				t.Errorf("Get %s: %v", id, err)
				continue
			}
			want := f.ranked(func() List { return List{Entries: []Entry{f.m.find(id)}} }).Entries[0]
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Get %s (-model +board):\n%s", id, diff)
			}
		}
		f.refuses(t, "Get of an absent id", ErrNotFound, func() error { return second(f.b.Get(t.Context(), "absent")) })
		f.refuses(t, "Get of an empty id", ErrArgument, func() error { return second(f.b.Get(t.Context(), "")) })
	}},
	{"Rank", []string{"Board.Rank"}, func(t *testing.T, f *fixture) {
		for _, kind := range []RankKind{Ordinal, Competition, Dense} {
			for _, id := range []string{"a", "abc", "p1", "id17"} {
				if kind == Dense && !f.dense() {
					f.refuses(t, "Rank Dense without dense ranks", ErrArgument, func() error {
						return second(f.b.Rank(t.Context(), id, kind))
					})
					continue
				}
				got, err := f.b.Rank(t.Context(), id, kind)
				if want := f.m.rank(id, kind); err != nil || got != want {
					t.Errorf("Rank(%s, %v) = %d, %v; want %d", id, kind, got, err, want)
				}
			}
		}
		f.refuses(t, "Rank of an unknown kind", ErrArgument, func() error { return second(f.b.Rank(t.Context(), "a", RankKind(9))) })
		f.refuses(t, "Rank of an absent id", ErrNotFound, func() error { return second(f.b.Rank(t.Context(), "absent", Ordinal)) })
	}},
	{"Percentile", []string{"Board.Percentile"}, func(t *testing.T, f *fixture) {
		total := f.m.visible()
		for _, id := range []string{"a", "abc", "p1", "id17", f.m.sorted()[0].ID} {
			got, err := f.b.Percentile(t.Context(), id)
			r := f.m.rank(id, Ordinal)
			if err != nil || got.Total != total || r < got.MinRank || r > got.MaxRank || math.Abs(float64(r)/float64(total)-got.Top) > got.Error+1e-12 {
				t.Errorf("Percentile(%s) = %+v, %v; want rank %d of %d within the bound", id, got, err, r, total)
			}
			if f.b.Options().Shards == 0 && (got.MinRank != got.MaxRank || got.Error != 0) {
				t.Errorf("Percentile(%s) = %+v on a board of one hash tag; want exact", id, got)
			}
		}
		f.refuses(t, "Percentile of an absent id", ErrNotFound, func() error { return second(f.b.Percentile(t.Context(), "absent")) })
		f.refuses(t, "Percentile of an empty id", ErrArgument, func() error { return second(f.b.Percentile(t.Context(), "")) })
	}},
	{"Top", []string{"Board.Top"}, func(t *testing.T, f *fixture) {
		for _, n := range []int{1, 7, maxCount} {
			got, err := f.b.Top(t.Context(), n, f.all()...)
			checkList(t, fmt.Sprintf("Top(%d)", n), got, err, f.ranked(func() List { return f.m.page(0, n) }))
		}
		got, err := f.b.Top(t.Context(), 5)
		checkList(t, "Top(5) without options", got, err, f.want(f.m.page(0, 5), false))
		f.refuses(t, "Top(0)", ErrArgument, func() error { return second(f.b.Top(t.Context(), 0)) })
		if !f.dense() {
			f.refuses(t, "Top with dense ranks", ErrArgument, func() error { return second(f.b.Top(t.Context(), 3, WithRanks(Dense))) })
		}
	}},
	{"Page", []string{"Board.Page"}, func(t *testing.T, f *fixture) {
		for _, p := range [][2]int{{0, 5}, {5, 7}, {38, 10}, {100, 3}} {
			got, err := f.b.Page(t.Context(), int64(p[0]), p[1], f.all()...)
			checkList(t, fmt.Sprintf("Page(%d, %d)", p[0], p[1]), got, err, f.ranked(func() List { return f.m.page(p[0], p[1]) }))
		}
		f.refuses(t, "Page at a negative offset", ErrArgument, func() error { return second(f.b.Page(t.Context(), -1, 3)) })
	}},
	{"Around", []string{"Board.Around"}, func(t *testing.T, f *fixture) {
		best := f.m.sorted()[0].ID
		for _, c := range []struct {
			id string
			n  int
		}{{"p10", 5}, {"abc", 4}, {best, 3}, {"id05", 100}} {
			got, err := f.b.Around(t.Context(), c.id, c.n, f.all()...)
			checkList(t, fmt.Sprintf("Around(%s, %d)", c.id, c.n), got, err, f.ranked(func() List { return f.m.around(c.id, c.n) }))
		}
		f.refuses(t, "Around an absent id", ErrNotFound, func() error { return second(f.b.Around(t.Context(), "absent", 3)) })
		f.refuses(t, "Around(0)", ErrArgument, func() error { return second(f.b.Around(t.Context(), "a", 0)) })
	}},
	{"Between", []string{"Board.Between"}, func(t *testing.T, f *fixture) {
		for _, c := range [][4]int{{2, 4, 0, 100}, {2, 4, 3, 5}, {0, 5, 0, 1000}, {4, 2, 0, 10}} {
			got, err := f.b.Between(t.Context(), float64(c[0]), float64(c[1]), int64(c[2]), c[3], f.all()...)
			checkList(t, fmt.Sprintf("Between(%v)", c), got, err, f.ranked(func() List { return f.m.between(float64(c[0]), float64(c[1]), c[2], c[3]) }))
		}
		f.refuses(t, "Between with n 0", ErrArgument, func() error { return second(f.b.Between(t.Context(), 0, 1, 0, 0)) })
	}},
	{"Scan", []string{"Board.Scan"}, func(t *testing.T, f *fixture) {
		got, err := scanAll(t.Context(), f.b, 7, f.all()...)
		checkList(t, "Scan by 7", got, err, f.ranked(func() List { return f.m.page(0, maxCount) }))
		f.refuses(t, "Scan from a malformed cursor", ErrArgument, func() error { return second(f.b.Scan(t.Context(), "!!", 3)) })
		f.refuses(t, "Scan from a cursor of another encoding", ErrMismatch, func() error { return second(f.b.Scan(t.Context(), otherEncoding(t, got.Entries), 3)) })
	}},
	{"Among", []string{"Board.Among"}, func(t *testing.T, f *fixture) {
		ids := []string{"z", "a", "absent", "p10", "a", "id20", "id07"}
		got, err := f.b.Among(t.Context(), ids, f.all()...)
		checkList(t, "Among", got, err, f.ranked(func() List { return f.m.among(ids) }))
		f.refuses(t, "Among no ids", ErrArgument, func() error { return second(f.b.Among(t.Context(), nil)) })
	}},
	{"Len", []string{"Board.Len"}, func(t *testing.T, f *fixture) {
		if n, err := f.b.Len(t.Context()); err != nil || n != int64(len(f.m.vals)) {
			t.Errorf("Len = %d, %v; want %d", n, err, len(f.m.vals))
		}
	}},
	{"Remove", []string{"Board.Remove"}, func(t *testing.T, f *fixture) {
		n, err := f.b.Remove(t.Context(), "a", "id03", "absent", "id03")
		if err != nil || n != 2 {
			t.Errorf("Remove = %d, %v; want 2", n, err)
		}
		delete(f.m.vals, "a")
		delete(f.m.vals, "id03")
		if !f.b.Options().SharedData {
			delete(f.data, "a")
			delete(f.data, "id03")
		}
		f.refuses(t, "Remove with an empty id", ErrArgument, func() error { return second(f.b.Remove(t.Context(), "b", "")) })
		f.checkAll(t, f.b, "after Remove")
	}},
	{"SetData", []string{"Board.SetData"}, func(t *testing.T, f *fixture) {
		if err := f.b.SetData(t.Context(), "p1", []byte("new data")); err != nil {
			t.Fatalf("SetData: %v", err)
		}
		f.data["p1"] = []byte("new data")
		f.refuses(t, "SetData of an absent id", ErrNotFound, func() error { return f.b.SetData(t.Context(), "absent", []byte("x")) })
		f.refuses(t, "SetData over 64 KiB", ErrArgument, func() error { return f.b.SetData(t.Context(), "p1", make([]byte, 64<<10+1)) })
		f.checkAll(t, f.b, "after SetData")
	}},
	{"Drop", []string{"Board.Drop"}, func(t *testing.T, f *fixture) {
		if err := f.b.Drop(t.Context()); err != nil {
			t.Fatalf("Drop: %v", err)
		}
		if _, err := Open(t.Context(), f.client, f.open, Options{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open after Drop: err = %v, want ErrNotFound", err)
		}
		if n, err := f.b.Len(t.Context()); err != nil || n != 0 {
			t.Errorf("Len after Drop = %d, %v; want 0", n, err)
		}
		if o := f.b.Options(); o.SharedData {
			// Dropping a board leaves its group's shared data.
			if _, ok := snapshot(t, f.client, "tb:{"+o.Group+"}:data")["tb:{"+o.Group+"}:data"]; !ok {
				t.Errorf("Drop removed the group's shared data")
			}
		}
		for k := range snapshot(t, f.client, "*"+f.prefix+"*") {
			if strings.Contains(k, "{"+f.b.Name()+"}") || strings.Contains(k, "{"+f.b.Name()+"~") {
				t.Errorf("key %s is left after Drop", k)
			}
		}
	}},
	{"Migrate", []string{"Board.Migrate"}, func(t *testing.T, f *fixture) {
		o := f.b.Options()
		if o.Shards > 0 {
			f.refuses(t, "Migrate of a sharded board", ErrArgument, func() error {
				return second(f.b.Migrate(t.Context(), f.b.Layout(), o, MigrateOptions{}))
			})
			return
		}
		o.Strategy, o.DenseRanks = 1-o.Strategy, true
		nb, err := f.b.Migrate(t.Context(), f.b.Layout(), o, MigrateOptions{Batch: 7})
		if err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		f.m.suffix = o.Strategy == KeySuffix
		if kindOf(nb) != kindOf(f.b) {
			t.Errorf("Migrate made a %s of a %s", kindOf(nb), kindOf(f.b))
		}
		f.checkAll(t, nb, "after Migrate")
		opened, err := Open(t.Context(), f.client, f.open, Options{})
		if err != nil {
			t.Fatalf("Open after Migrate: %v", err)
		}
		if got := opened.Options(); got.Strategy != o.Strategy || !got.DenseRanks {
			t.Errorf("Open after Migrate: Strategy %v DenseRanks %t, want %v true", got.Strategy, got.DenseRanks, o.Strategy)
		}
		f.checkAll(t, opened, "Open after Migrate")
	}},
	{"Reshard", []string{"Board.Reshard"}, func(t *testing.T, f *fixture) {
		if f.b.Options().Shards == 0 {
			f.refuses(t, "Reshard of a board that is not sharded", ErrArgument, func() error {
				return second(f.b.Reshard(t.Context(), 2, MigrateOptions{}))
			})
			return
		}
		nb, err := f.b.Reshard(t.Context(), 5, MigrateOptions{Batch: 7})
		if err != nil {
			t.Fatalf("Reshard: %v", err)
		}
		f.checkAll(t, nb, "after Reshard")
		opened, err := Open(t.Context(), f.client, f.open, Options{})
		if err != nil || opened.Options().Shards != 5 {
			t.Fatalf("Open after Reshard: %v shards, %v; want 5", opened, err)
		}
		f.checkAll(t, opened, "Open after Reshard")
		f.refuses(t, "Reshard to 0 shards", ErrArgument, func() error { return second(nb.Reshard(t.Context(), 0, MigrateOptions{})) })
	}},
	{"Windows", []string{"Periodic.Windows"}, func(t *testing.T, f *fixture) {
		if f.p == nil {
			f.checkOpen(t) // a board of no period: its own name is its only board
			return
		}
		ws, err := f.p.Windows(t.Context())
		if err != nil || !slices.Contains(ws, f.w) {
			t.Errorf("Windows = %v, %v; want %v among them", ws, err, f.w)
		}
		w, err := Open(t.Context(), f.client, fullName(f.b.Options().Group, f.p.name+":"+f.w.Label), Options{})
		if err != nil {
			t.Fatalf("Open of the window: %v", err)
		}
		if !strings.HasSuffix(kindOf(w), "window") {
			t.Errorf("Open of the window gave a %s", kindOf(w))
		}
	}},
	{"Window", []string{"Periodic.At"}, func(t *testing.T, f *fixture) {
		if f.p == nil {
			f.checkOpen(t)
			return
		}
		if got, want := f.p.At(f.w.Start).Name(), f.p.name+":"+f.w.Label; got != want {
			t.Errorf("At names %s, want %s", got, want)
		}
		f.checkAll(t, f.p.At(f.w.Start), "At of the window") // an archive's window too
	}},
	{"Archive", []string{"Periodic.Archive", "Periodic.Archived"}, func(t *testing.T, f *fixture) {
		if f.p == nil {
			f.checkOpen(t)
			return
		}
		if !strings.HasSuffix(f.b.Name(), ":final") {
			f.refuses(t, "Archive of a window that has not ended", ErrArgument, func() error {
				return second(f.p.Archive(t.Context(), f.w, ArchiveOptions{}))
			})
			f.refuses(t, "Archived of a window with no archive", ErrNotFound, func() error {
				return second(f.p.Archived(t.Context(), f.w))
			})
			return
		}
		// The archive was made with a retention of an hour (build): asked
		// with it, Archive returns it; asked with other options, it
		// refuses, changing nothing.
		f.refuses(t, "Archive again with other options", ErrMismatch, func() error {
			return second(f.p.Archive(t.Context(), f.w, ArchiveOptions{}))
		})
		for what, get := range map[string]func() (*Board, error){
			"Archive again": func() (*Board, error) { return f.p.Archive(t.Context(), f.w, ArchiveOptions{Retention: time.Hour}) },
			"Archived":      func() (*Board, error) { return f.p.Archived(t.Context(), f.w) },
		} {
			a, err := get()
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if a.Name() != f.b.Name() {
				t.Errorf("%s names %s, want %s", what, a.Name(), f.b.Name())
			}
			f.checkAll(t, a, what)
		}
	}},
	{"Open", []string{"Board.Name", "Board.Layout", "Board.Options"}, func(t *testing.T, f *fixture) {
		f.checkOpen(t)
	}},
}

// checkOpen opens the board by its name and checks that the handle is
// the same board: name, layout, kind, settings, and every answer.
func (f *fixture) checkOpen(t *testing.T) {
	t.Helper()
	o, err := Open(t.Context(), f.client, f.open, Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", f.open, err)
	}
	if o.Name() != f.b.Name() || !reflect.DeepEqual(o.Layout().Fields(), f.b.Layout().Fields()) || kindOf(o) != kindOf(f.b) {
		t.Errorf("Open(%s) = %s, a %s; want %s, a %s", f.open, o.Name(), kindOf(o), f.b.Name(), kindOf(f.b))
	}
	if diff := cmp.Diff(f.b.Options(), o.Options(), cmpopts.IgnoreUnexported(Options{})); diff != "" {
		t.Errorf("Open(%s).Options() (-built +opened):\n%s", f.open, diff)
	}
	if !o.opts.expireAt.Equal(f.b.opts.expireAt.Truncate(time.Millisecond)) {
		t.Errorf("Open(%s) expires at %v, want %v", f.open, o.opts.expireAt, f.b.opts.expireAt)
	}
	f.checkAll(t, o, "Open("+f.open+")")
	// A write through the opened handle is a write to the same board,
	// expiring as the board does.
	sub := Submission{ID: "opened", Values: []float64{4, 1, 1}, Data: []byte("via Open")}
	if _, err := o.Submit(t.Context(), sub); err != nil {
		t.Fatalf("Submit through Open(%s): %v", f.open, err)
	}
	f.m.apply(sub)
	f.data[sub.ID] = sub.Data
	f.checkAll(t, f.b, "a write through Open("+f.open+")")
}

// runMatrix runs every column on a fresh board of every kind in kinds,
// with the strategies strategies gives each, on the server newEnv gives.
func runMatrix(t *testing.T, kinds []string, strategies func(kind string) []Strategy, newEnv func(t *testing.T) (rueidis.Client, rueidis.Client, string)) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			for _, s := range strategies(kind) {
				t.Run(s.String(), func(t *testing.T) {
					for _, c := range columns {
						t.Run(c.name, func(t *testing.T) {
							client, caching, prefix := newEnv(t)
							f, err := build(t, client, prefix, kindSpecs[kind], s)
							if err != nil {
								t.Fatalf("building a %s board: %v", kind, err)
							}
							f.caching = caching
							if got := kindOf(f.b); got != kind {
								t.Fatalf("built a %s board, want %s", got, kind)
							}
							c.run(t, f)
						})
					}
				})
			}
		})
	}
}

func bothStrategiesOf(string) []Strategy { return []Strategy{PackedScore, KeySuffix} }

func TestKindMatrix(t *testing.T) {
	runMatrix(t, kindNames, bothStrategiesOf, func(t *testing.T) (rueidis.Client, rueidis.Client, string) {
		env := redistest.New(t)
		return env.Client, sharedCaching(t, env.Addr), env.Prefix
	})
}

// On a cluster every kind runs every column, in one strategy each,
// alternating.
func TestKindMatrixCluster(t *testing.T) {
	redistest.NewCluster(t, 3) // started once, before the cells
	runMatrix(t, kindNames, func(kind string) []Strategy {
		return []Strategy{Strategy(slices.Index(kindNames, kind) % 2)}
	}, func(t *testing.T) (rueidis.Client, rueidis.Client, string) {
		env := redistest.NewCluster(t, 3)
		return env.Client, sharedCaching(t, env.Addrs...), env.Prefix
	})
}

// Every exported method of a Board, a Group and a Periodic is some
// column's, and every column's method exists.
func TestKindMatrixCoversEveryMethod(t *testing.T) {
	exported := map[string]bool{}
	for _, typ := range []reflect.Type{reflect.TypeFor[*Board](), reflect.TypeFor[*Group](), reflect.TypeFor[*Periodic]()} {
		for i := range typ.NumMethod() {
			exported[typ.Elem().Name()+"."+typ.Method(i).Name] = true
		}
	}
	covered := map[string]bool{}
	for _, c := range columns {
		for _, m := range c.methods {
			covered[m] = true
			if !exported[m] {
				t.Errorf("column %s names %s, which is not an exported method", c.name, m)
			}
		}
	}
	var missing []string
	for m := range exported {
		if !covered[m] {
			missing = append(missing, m)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("method %s has no column in the matrix", m)
	}
}

// Every kind of board the package builds has a row: the settings that
// decide where a board lives (Group, SharedData, Shards), crossed with
// the forms of a board (a board, a periodic window, an archive), give
// either a board Open reads back as the kind of a row, or a refusal.
func TestKindMatrixCoversEveryKind(t *testing.T) {
	// The settings of Options: those that make a kind, and the others.
	kindSettings := []string{"Group", "SharedData", "Shards"}
	others := []string{"Strategy", "Cap", "DenseRanks", "MaxIDLen", "UpdateAttempts", "SkipWriteRank", "WaitReplicas", "WaitTimeout", "WaitAOF", "Observer", "Rules", "Bounds", "RequestRetention", "Hiding", "KeepTop", "CacheTop"}
	typ := reflect.TypeFor[Options]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.IsExported() && !slices.Contains(kindSettings, f.Name) && !slices.Contains(others, f.Name) {
			t.Errorf("Options.%s is new: say whether it makes a kind of board (and give the kind a row)", f.Name)
		}
	}
	env := redistest.New(t)
	found := map[string]bool{}
	i := 0
	for _, group := range []bool{false, true} {
		for _, shared := range []bool{false, true} {
			for _, shards := range []int{0, 3} {
				for _, form := range []string{"", "window", "archive"} {
					spec := kindSpec{group: group, shared: shared, shards: shards, form: form}
					i++
					f, err := build(t, env.Client, fmt.Sprintf("%s_%d", env.Prefix, i), spec, PackedScore)
					if err != nil {
						if !errors.Is(err, ErrOptions) {
							t.Errorf("building %+v: err = %v, want a board or ErrOptions", spec, err)
						}
						continue
					}
					o, err := Open(t.Context(), env.Client, f.open, Options{})
					if err != nil {
						t.Errorf("Open of a %+v board: %v", spec, err)
						continue
					}
					k := kindOf(o)
					if !slices.Contains(kindNames, k) {
						t.Errorf("the package builds a %s board (%+v), which has no row", k, spec)
					}
					if kindSpecs[k] != spec {
						t.Errorf("a %+v board opens as a %s, whose row is %+v", spec, k, kindSpecs[k])
					}
					found[k] = true
				}
			}
		}
	}
	for _, k := range kindNames {
		if !found[k] {
			t.Errorf("row %s is no kind the package builds", k)
		}
	}
}

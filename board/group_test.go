package board

import (
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// groupPart is one board of the differential group: its options and the
// policy (or its fields' policies) of its part of each group write.
type groupPart struct {
	opts     Options
	policy   Policy
	fields   []Policy
	periodic bool // a window of a Periodic built with the group's Options.Group
}

// groupParts covers both strategies, caps, dense ranks, shared and own
// member data, an add that can leave its field's range, and a periodic
// window.
var groupParts = []groupPart{
	{opts: Options{DenseRanks: true, SharedData: true}, policy: Best},
	{opts: Options{}, fields: []Policy{Add, Max, Min}},
	{opts: Options{Strategy: KeySuffix, Cap: 30, SharedData: true}, policy: Replace},
	{opts: Options{Strategy: KeySuffix, DenseRanks: true, Cap: 20}, fields: []Policy{Add, Max, Keep}},
	{opts: Options{DenseRanks: true, Cap: 25}, policy: Best, periodic: true},
}

// groupBoards builds the boards of parts in group tag.
func groupBoards(t *testing.T, client rueidis.Client, prefix, tag string, parts []groupPart) []*Board {
	t.Helper()
	var out []*Board
	for i, p := range parts {
		o := p.opts
		o.Group = tag
		name := prefix + "_g" + strconv.Itoa(i)
		if !p.periodic {
			out = append(out, newBoard(t, client, prefix, "g"+strconv.Itoa(i), testLayout(t), o))
			continue
		}
		per, err := NewPeriodic(client, name, testLayout(t), Every(time.Hour), time.Hour, o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, per.At(time.Now()))
	}
	return out
}

// groupWrite is one write of id with values v to every board of parts,
// each with its part's policy; data on the first.
func groupWrite(parts []groupPart, id string, v []float64, data []byte) []Submission {
	subs := make([]Submission, len(parts))
	for i, p := range parts {
		subs[i] = Submission{ID: id, Values: slices.Clone(v), Policy: p.policy, Fields: p.fields}
	}
	subs[0].Data = data
	return subs
}

// groupDump returns every key whose name holds tag, with what it holds
// (redistest.Dump) and its expiry: equal dumps mean nothing was written.
func groupDump(t *testing.T, client rueidis.Client, tag string) map[string]string {
	t.Helper()
	ctx := t.Context()
	out := map[string]string{}
	for _, node := range client.Nodes() {
		keys, err := node.Do(ctx, node.B().Keys().Pattern("*"+tag+"*").Build()).AsStrSlice()
		if err != nil {
			t.Fatalf("KEYS: %v", err)
		}
		for _, k := range keys {
			d, err := redistest.Dump(ctx, client, k)
			if err != nil {
				t.Fatalf("DUMP %s: %v", k, err)
			}
			at, err := client.Do(ctx, client.B().Pexpiretime().Key(k).Build()).AsInt64()
			if err != nil {
				t.Fatalf("PEXPIRETIME %s: %v", k, err)
			}
			out[k] = strconv.FormatInt(at, 10) + " " + d
		}
	}
	if len(out) == 0 {
		t.Fatalf("no key holds %q", tag)
	}
	return out
}

// groupModel is the group as the boards should hold it: a model per
// board, the member data each board keeps of its own, and the group's
// shared data.
type groupModel struct {
	parts  []groupPart
	boards []*model
	own    []map[string]string
	shared map[string]string
}

func newGroupModel(t *testing.T, parts []groupPart) *groupModel {
	m := &groupModel{parts: parts, shared: map[string]string{}}
	for _, p := range parts {
		bm := newModel(testLayout(t))
		bm.suffix = p.opts.Strategy == KeySuffix
		m.boards, m.own = append(m.boards, bm), append(m.own, map[string]string{})
	}
	return m
}

// submit applies subs as Group.Submit must: every board's write, or, when
// any board refuses, none (ok false). It returns each board's result.
func (m *groupModel) submit(subs []Submission) ([]Result, bool) {
	trial := make([]*model, len(m.boards))
	res := make([]Result, len(m.boards))
	for i, bm := range m.boards {
		trial[i] = &model{layout: bm.layout, vals: clone(bm.vals), suffix: bm.suffix}
		r, ok := trial[i].apply(subs[i])
		if !ok {
			return nil, false
		}
		r.Entry = trial[i].find(subs[i].ID)
		if c := m.parts[i].opts.Cap; c > 0 {
			r = trial[i].trim(subs[i].ID, c, r)
		}
		res[i] = r
	}
	var data []byte
	for _, s := range subs {
		if s.Data != nil {
			data = s.Data
		}
	}
	for i := range m.boards {
		m.boards[i] = trial[i]
		if data != nil && m.parts[i].opts.SharedData {
			m.shared[subs[i].ID] = string(data)
		} else if data != nil {
			m.own[i][subs[i].ID] = string(data)
		}
		for id := range m.own[i] {
			if _, on := m.boards[i].vals[id]; !on {
				delete(m.own[i], id) // removed with the entry: by a cap
			}
		}
	}
	return res, true
}

// remove applies Group.Remove(ids) and returns its count.
func (m *groupModel) remove(ids []string) int64 {
	n := int64(0)
	for i, bm := range m.boards {
		for _, id := range ids {
			if _, on := bm.vals[id]; on {
				delete(bm.vals, id)
				n++
			}
			delete(m.own[i], id)
		}
	}
	for _, id := range ids {
		delete(m.shared, id)
	}
	return n
}

// check compares every board with its model: entries, ranks (dense ones
// where kept), member data, the dense index's keys, each board's own data
// HASH and the group's shared one.
func (m *groupModel) check(t *testing.T, client rueidis.Client, boards []*Board, when string) {
	t.Helper()
	ctx := t.Context()
	for i, b := range boards {
		opts := []ReadOption{WithData()}
		bm := m.boards[i]
		if b.opts.DenseRanks {
			opts = append(opts, WithRanks(Competition, Dense))
			bm.ranks = readConfig{comp: true, dense: true}
		}
		want := bm.page(0, 1000)
		bm.ranks = readConfig{}
		for j, e := range want.Entries {
			d, ok := m.own[i][e.ID]
			if b.opts.SharedData {
				d, ok = m.shared[e.ID]
			}
			if ok {
				want.Entries[j].Data = []byte(d)
			}
		}
		got, err := b.Top(ctx, 1000, opts...)
		if err != nil {
			t.Fatalf("%s: board %d: Top: %v", when, i, err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: board %d (-want +got):\n%s", when, i, diff)
		}
		k := b.gen.Load().keys
		if b.opts.DenseRanks {
			tuples := map[string]bool{}
			for _, v := range bm.vals {
				tuples[fmtFloat(v[0])+" "+fmtFloat(v[1])+" "+fmtFloat(v[2])] = true
			}
			nv, _ := client.Do(ctx, client.B().Zcard().Key(k.v).Build()).AsInt64()
			nc, _ := client.Do(ctx, client.B().Hlen().Key(k.c).Build()).AsInt64()
			if nv != int64(len(tuples)) || nc != int64(len(tuples)) {
				t.Fatalf("%s: board %d: dense index of %d tuples, %d counts; want %d", when, i, nv, nc, len(tuples))
			}
		}
		if !b.opts.SharedData {
			nd, _ := client.Do(ctx, client.B().Hlen().Key(k.d).Build()).AsInt64()
			if nd != int64(len(m.own[i])) {
				t.Fatalf("%s: board %d: data HASH of %d ids, want %d", when, i, nd, len(m.own[i]))
			}
		}
	}
	got, err := client.Do(ctx, client.B().Hgetall().Key(sharedDataKey(boards[0].opts.Group)).Build()).AsStrMap()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m.shared, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("%s: shared data (-want +got):\n%s", when, diff)
	}
}

// A random workload of group writes and removes, against a model per
// board: each board applies its own policy, cap and dense index; a write
// any board refuses (an add out of range, mismatched ids or data) and a
// refused remove change no key; Remove counts what the models lose.
func TestGroupDifferential(t *testing.T) {
	for _, cl := range []bool{false, true} {
		t.Run(map[bool]string{false: "single", true: "cluster"}[cl], func(t *testing.T) {
			var client rueidis.Client
			var prefix string
			if cl {
				env := redistest.NewCluster(t, 3)
				client, prefix = env.Client, env.Prefix
			} else {
				env := redistest.New(t)
				client, prefix = env.Client, env.Prefix
			}
			tag := prefix + "game"
			runGroupWorkload(t, client, tag, groupBoards(t, client, prefix, tag, groupParts), 400)
		})
	}
}

func runGroupWorkload(t *testing.T, client rueidis.Client, tag string, boards []*Board, steps int) {
	t.Helper()
	ctx := t.Context()
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatalf("NewGroup: %v", err)
	}
	m := newGroupModel(t, groupParts)
	rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
	var refusedValue, refusedArg, removed int
	for step := 0; step < steps; step++ {
		when := "step " + strconv.Itoa(step)
		if rng.IntN(4) == 0 {
			ids := make([]string, 1+rng.IntN(6))
			for i := range ids {
				ids[i] = "p" + strconv.Itoa(rng.IntN(45)) // some never written; some given twice
			}
			want := m.remove(ids)
			n, err := g.Remove(ctx, ids...)
			if err != nil || n != want {
				t.Fatalf("%s: Remove(%q) = %d, %v; want %d", when, ids, n, err, want)
			}
			removed += int(n)
			continue
		}
		id := "p" + strconv.Itoa(rng.IntN(40))
		data := []byte("d" + strconv.Itoa(step))
		subs := groupWrite(groupParts, id, []float64{float64(rng.IntN(600)), float64(rng.IntN(2)), float64(rng.IntN(256))}, nil)
		for i := range subs {
			if rng.IntN(3) == 0 {
				subs[i].Data = data
			}
		}
		badArg := false
		switch rng.IntN(25) {
		case 0:
			subs[1+rng.IntN(len(subs)-1)].ID = id + "x"
			badArg = true
		case 1:
			i := rng.IntN(len(subs))
			subs[i].Data, subs[(i+1)%len(subs)].Data = data, []byte("other")
			badArg = true
		}
		var want []Result
		ok := !badArg
		if ok {
			want, ok = m.submit(subs)
		}
		var before map[string]string
		if !ok {
			before = groupDump(t, client, tag)
		}
		res, err := g.Submit(ctx, subs)
		switch {
		case badArg:
			refusedArg++
			if !errors.Is(err, ErrArgument) || errors.Is(err, errValue) {
				t.Fatalf("%s: mismatched ids or data: err = %v, want ErrArgument", when, err)
			}
		case !ok:
			refusedValue++
			if !errors.Is(err, errValue) || !errors.Is(err, pack.ErrOverflow) {
				t.Fatalf("%s: an add out of range: err = %v, want errValue", when, err)
			}
		case err != nil:
			t.Fatalf("%s: %v", when, err)
		default:
			for i := range boards {
				w, r := want[i], res[i]
				if r.Err != nil || r.Changed != w.Changed || r.Trimmed != w.Trimmed || r.Entry.Rank != w.Entry.Rank ||
					w.Entry.Rank != 0 && !cmp.Equal(r.Entry.Values, w.Entry.Values) {
					t.Fatalf("%s board %d: result %+v, want %+v", when, i, r, w)
				}
			}
		}
		if !ok {
			if diff := cmp.Diff(before, groupDump(t, client, tag)); diff != "" {
				t.Fatalf("%s: a refused write changed keys (-before +after):\n%s", when, diff)
			}
		}
		if step%50 == 0 {
			m.check(t, client, boards, when)
		}
	}
	m.check(t, client, boards, "after the workload")
	if refusedValue == 0 || refusedArg == 0 || removed == 0 {
		t.Errorf("the workload refused %d adds out of range, %d mismatched writes, removed %d entries: want some of each", refusedValue, refusedArg, removed)
	}
}

func clone(m map[string][]float64) map[string][]float64 {
	out := make(map[string][]float64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// NewGroup refuses, changing nothing, what it documents; Submit and
// Remove refuse their arguments, and a refusal by any board, the last
// one included, whether Go or the script sees it, writes nothing on any.
func TestGroupRefusals(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tag := env.Prefix + "game"
	parts := append(slices.Clone(groupParts[:4]), groupPart{opts: Options{MaxIDLen: 8}, fields: []Policy{Add, Replace, Replace}})
	boards := groupBoards(t, env.Client, env.Prefix, tag, parts)
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if _, err := g.Submit(ctx, groupWrite(parts, "p"+strconv.Itoa(i), []float64{float64(i), 1, 2}, []byte("d"))); err != nil {
			t.Fatal(err)
		}
	}
	// A value a board refuses: the error names that board as Open does,
	// once, then says why.
	_, err = g.Submit(ctx, groupWrite(parts, "big", []float64{1e9, 1, 2}, nil))
	if want := "board: " + tag + "/" + boards[0].Name() + ": field "; !errors.Is(err, ErrArgument) || err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "board") != 1+strings.Count(tag+boards[0].Name(), "board") {
		t.Errorf("a group write of a value out of range: %v, want ErrArgument and a message starting %q, saying board once", err, want)
	}
	// A window whose stored descriptor differs from its handle's.
	per, err := NewPeriodic(env.Client, env.Prefix+"_w", testLayout(t), Every(time.Hour), time.Hour, Options{Group: tag})
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewPeriodic(env.Client, env.Prefix+"_w", testLayout(t), Every(time.Hour), time.Hour, Options{Group: tag, DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	mustSubmit(t, other.At(now), Submission{ID: "p1", Values: []float64{1, 1, 1}})
	bad := append(slices.Clone(boards), per.At(now))
	gbad, err := NewGroup(bad...)
	if err != nil {
		t.Fatal(err)
	}
	lone := newBoard(t, env.Client, env.Prefix, "lone", testLayout(t), Options{})
	elsewhere := newBoard(t, env.Client, env.Prefix, "elsewhere", testLayout(t), Options{Group: tag + "2"})
	sharded := newBoard(t, env.Client, env.Prefix, "sharded", testLayout(t), Options{Shards: 2})
	foreign, err := configure(rdb.New(otherClient{env.Client}), boards[1].name, testLayout(t), Options{Group: tag})
	if err != nil {
		t.Fatal(err)
	}
	for name, bs := range map[string][]*Board{
		"none": nil, "a nil board": {boards[0], nil}, "one board twice": {boards[0], boards[0]},
		"65 boards": make([]*Board, maxGroup+1), "a board of no group": {boards[0], lone},
		"boards of two groups": {boards[0], elsewhere}, "a sharded board": {boards[0], sharded},
		"boards of two clients": {boards[0], foreign},
	} {
		if _, err := NewGroup(bs...); !errors.Is(err, ErrOptions) {
			t.Errorf("NewGroup of %s: err = %v, want ErrOptions", name, err)
		}
	}

	v := []float64{5, 1, 5}
	long := make([]string, maxRemove+1)
	for i := range long {
		long[i] = "p1"
	}
	cases := []struct {
		name string
		run  func() error
		want error
	}{
		{"Submit of no submissions", func() error { _, err := g.Submit(ctx, nil); return err }, ErrArgument},
		{"Submit of one submission too few", func() error { _, err := g.Submit(ctx, groupWrite(parts[:4], "p1", v, nil)); return err }, ErrArgument},
		{"Submit of two ids", func() error {
			s := groupWrite(parts, "p1", v, nil)
			s[4].ID = "p2"
			_, err := g.Submit(ctx, s)
			return err
		}, ErrArgument},
		{"Submit of two data", func() error {
			s := groupWrite(parts, "p1", v, []byte("a"))
			s[3].Data = []byte("b")
			_, err := g.Submit(ctx, s)
			return err
		}, ErrArgument},
		{"Submit of data and empty data", func() error {
			s := groupWrite(parts, "p1", v, []byte("a"))
			s[3].Data = []byte{}
			_, err := g.Submit(ctx, s)
			return err
		}, ErrArgument},
		{"Submit of an id too long for the last board", func() error { _, err := g.Submit(ctx, groupWrite(parts, "p123456789", v, nil)); return err }, errID},
		{"Submit of a value out of the last board's range", func() error {
			s := groupWrite(parts, "p1", v, nil)
			s[4].Values = []float64{5, 2, 5}
			_, err := g.Submit(ctx, s)
			return err
		}, errValue},
		{"Submit of an add out of the last board's range", func() error {
			s := groupWrite(parts, "p1", v, nil)
			s[1].Values[0], s[4].Values[0] = 1, 1023
			_, err := g.Submit(ctx, s)
			return err
		}, pack.ErrOverflow},
		{"Submit to a window of another descriptor, last", func() error {
			_, err := gbad.Submit(ctx, append(groupWrite(parts, "p1", v, []byte("x")), Submission{ID: "p1", Values: v}))
			return err
		}, ErrMismatch},
		{"Remove of no ids", func() error { _, err := g.Remove(ctx); return err }, ErrArgument},
		{"Remove of 1001 ids", func() error { _, err := g.Remove(ctx, long...); return err }, ErrArgument},
		{"Remove of an empty id", func() error { _, err := g.Remove(ctx, "p1", ""); return err }, errID},
		{"Remove of an id too long for the last board", func() error { _, err := g.Remove(ctx, "p1", "p123456789"); return err }, errID},
	}
	for _, c := range cases {
		before := groupDump(t, env.Client, tag)
		if err := c.run(); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		if diff := cmp.Diff(before, groupDump(t, env.Client, tag)); diff != "" {
			t.Errorf("%s changed keys (-before +after):\n%s", c.name, diff)
		}
	}
}

// Shared member data is stored once for the group, read through every
// board, kept when an entry is removed from one board, and removed by
// Group.Remove with the entries of every board.
func TestGroupSharedData(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	parts := groupParts[:3]
	boards := groupBoards(t, env.Client, env.Prefix, env.Prefix+"shared", parts)
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Submit(ctx, groupWrite(parts, "ann", []float64{10, 1, 5}, []byte("dann"))); err != nil {
		t.Fatal(err)
	}
	for _, b := range boards {
		e, err := b.Get(ctx, "ann", WithData())
		if err != nil || string(e.Data) != "dann" {
			t.Errorf("%s: Get = %+v, %v", b.Name(), e, err)
		}
	}
	if n, _ := env.Client.Do(ctx, env.Client.B().Exists().Key(names(boards[0].prefix, 0).d).Build()).AsInt64(); n != 0 {
		t.Errorf("%s keeps a member-data HASH of its own", boards[0].Name())
	}
	if _, err := boards[0].Remove(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	if e, err := boards[2].Get(ctx, "ann", WithData()); err != nil || string(e.Data) != "dann" {
		t.Errorf("after a Remove from another board: Get = %+v, %v", e, err)
	}
	o, err := Open(ctx, env.Client, boards[2].opts.Group+"/"+boards[2].Name(), Options{})
	if err != nil || !o.opts.SharedData {
		t.Fatalf("Open in a group = %v, %v", o, err)
	}
	if e, err := o.Get(ctx, "ann", WithData()); err != nil || string(e.Data) != "dann" {
		t.Errorf("Get through Open = %+v, %v", e, err)
	}
	// The name Open takes is an argument: a bad group in it is ErrArgument,
	// as the rest of a bad name is (Options.Group's is ErrOptions).
	if _, err := Open(ctx, env.Client, "a{b"+"/"+"x", Options{}); !errors.Is(err, ErrArgument) {
		t.Errorf("Open of a bad group: err = %v, want ErrArgument", err)
	}
	// ann is on boards 1 and 2 (removed from 0): 2 entries.
	if n, err := g.Remove(ctx, "ann", "nobody", "ann"); err != nil || n != 2 {
		t.Errorf("Remove = %d, %v; want 2", n, err)
	}
	for _, b := range boards {
		if _, err := b.Get(ctx, "ann", WithData()); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s after Remove: err = %v, want ErrNotFound", b.Name(), err)
		}
	}
	if n, _ := env.Client.Do(ctx, env.Client.B().Hexists().Key(sharedDataKey(boards[0].opts.Group)).Field("ann").Build()).AsInt64(); n != 0 {
		t.Errorf("the shared data of ann outlives Remove")
	}
}

// A board of a group that migrates keeps taking group writes and removes:
// the group follows its generation, its writes and removes are mirrored
// into the target, and a handle that has not seen the migration start
// finds out before any board is written: the call, sent again, removes
// each entry once and counts it once.
func TestGroupWhileMigrating(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	parts := groupParts[:4]
	boards := groupBoards(t, env.Client, env.Prefix, env.Prefix+"mig", parts)
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if _, err := g.Submit(ctx, groupWrite(parts, "p"+strconv.Itoa(i), []float64{float64(i), 0, 1}, []byte("d"))); err != nil {
			t.Fatal(err)
		}
	}
	// Another handle of the last board migrates it: the group's handle
	// still names generation 0, which now holds tombstones.
	last := boards[len(boards)-1]
	mover, err := New(ctx, env.Client, last.name, testLayout(t), last.opts)
	if err != nil {
		t.Fatal(err)
	}
	to := Options{Group: last.opts.Group, Strategy: PackedScore, DenseRanks: true}
	halfMigrate(t, mover, testLayout(t), to, MigrateOptions{Batch: 10})
	if last.gen.Load().n != 0 {
		t.Fatalf("the group's handle followed the migration: generation %d", last.gen.Load().n)
	}
	// p5 is on the boards without a cap (0 and 1), p290 on every board,
	// p1000 on none.
	if n, err := g.Remove(ctx, "p5", "p290", "p1000"); err != nil || n != 6 {
		t.Fatalf("Remove while the last board migrates = %d, %v; want 6", n, err)
	}
	if last.gen.Load().mig == nil {
		t.Fatalf("the group's handle did not read the migration")
	}
	if _, err := g.Submit(ctx, groupWrite(parts, "late", []float64{999, 1, 0}, nil)); err != nil {
		t.Fatal(err)
	}
	nb, err := mover.Migrate(ctx, testLayout(t), to, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := nb.Get(ctx, "late"); err != nil || e.Rank != 1 {
		t.Errorf("the group write during the migration: %+v, %v", e, err)
	}
	for _, id := range []string{"p5", "p290"} {
		for i, b := range append(boards[:len(boards)-1:len(boards)-1], nb) {
			if _, err := b.Get(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Errorf("board %d: %s after the group remove: err = %v, want ErrNotFound", i, id, err)
			}
		}
	}
	if n, err := nb.Len(ctx); err != nil || n != 20 {
		t.Errorf("the migrated board holds %d entries, %v; want 20", n, err)
	}
}

// A group's script names its boards in a comment: a name holding a
// newline and Lua ends no comment there, so nothing of it runs.
func TestGroupHostileNames(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tag := env.Prefix + "_hostile"
	canary := "pwned:" + tag // no brace: names refuse them
	names := []string{
		"a\nredis.call('SET', '" + canary + "', 'write')\n--",
		"b\rredis.call('SET', '" + canary + "', 'remove')\r--",
	}
	var boards []*Board
	for _, n := range names {
		b, err := New(ctx, env.Client, n, testLayout(t), Options{Group: tag})
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
	}
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	sub := Submission{ID: "p1", Values: []float64{1, 1, 1}}
	if _, err := g.Submit(ctx, []Submission{sub, sub}); err != nil {
		t.Fatal(err)
	}
	if n, err := g.Remove(ctx, "p1"); err != nil || n != 2 {
		t.Fatalf("Remove = %d, %v; want 2", n, err)
	}
	if n, err := env.Client.Do(ctx, env.Client.B().Exists().Key(canary).Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("a board's name ran as Lua: %s exists (%d, %v)", canary, n, err)
	}
}

// Boards of one kind share their function in a group's script (the
// windows of one periodic board, say), so that the script grows with the
// kinds of boards, not their number.
func TestGroupScriptSharesFunctions(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tag := env.Prefix + "_kinds"
	per, err := NewPeriodic(env.Client, env.Prefix+"_days", testLayout(t), Every(time.Hour), 48*time.Hour, Options{Group: tag})
	if err != nil {
		t.Fatal(err)
	}
	other := newBoard(t, env.Client, env.Prefix, "other", testLayout(t), Options{Group: tag, Strategy: KeySuffix})
	sizes := map[int]int{}
	for _, n := range []int{2, 6} {
		boards := []*Board{other}
		for i := range n {
			boards = append(boards, per.At(time.Now().Add(-time.Duration(i)*time.Hour)))
		}
		g, err := NewGroup(boards...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Remove(ctx, "nobody"); err != nil {
			t.Fatal(err)
		}
		gens := make([]*generation, len(g.boards))
		for i, b := range g.boards {
			gens[i] = b.gen.Load()
		}
		src := groupRemoveSource(g.boards, gens)
		if k := strings.Count(src, "local function board_"); k != 2 {
			t.Errorf("%d windows and a key-suffix board: %d functions, want 2", n, k)
		}
		sizes[n] = len(src)
	}
	if d := sizes[6] - sizes[2]; d > 1000 {
		t.Errorf("4 more windows grew the script by %d bytes, want their names and key counts only", d)
	}
}

// A group of the most boards a Group holds, a year of weekly windows
// say, writes and removes atomically; a removal of more ids than its
// bound on work allows is refused, nothing removed.
func TestGroupOfMaxBoards(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tag := env.Prefix + "_max"
	per, err := NewPeriodic(env.Client, env.Prefix+"_hours", testLayout(t), Every(time.Hour), 100*time.Hour, Options{Group: tag})
	if err != nil {
		t.Fatal(err)
	}
	boards := []*Board{newBoard(t, env.Client, env.Prefix, "all", testLayout(t), Options{Group: tag, Strategy: KeySuffix})}
	for i := range maxGroup - 1 {
		boards = append(boards, per.At(time.Now().Add(-time.Duration(i)*time.Hour)))
	}
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	subs := make([]Submission, len(boards))
	for i := range subs {
		subs[i] = Submission{ID: "p1", Values: []float64{float64(i), 1, 1}}
	}
	if _, err := g.Submit(ctx, subs); err != nil {
		t.Fatal(err)
	}
	for i, b := range boards {
		if e, err := b.Get(ctx, "p1"); err != nil || e.Values[0] != float64(i) {
			t.Fatalf("board %d: Get = %+v, %v; want p1 with %d points", i, e, err, i)
		}
	}
	many := make([]string, maxGroupRemovals/maxGroup+1)
	for i := range many {
		many[i] = "p1"
	}
	before := dumpKeys(t, env)
	if _, err := g.Remove(ctx, many...); !errors.Is(err, ErrArgument) {
		t.Errorf("Remove of %d ids from %d boards = %v; want ErrArgument", len(many), len(boards), err)
	}
	if after := dumpKeys(t, env); !maps.Equal(before, after) {
		t.Error("the refused Remove changed keys")
	}
	if n, err := g.Remove(ctx, many[1:]...); err != nil || n != int64(len(boards)) {
		t.Errorf("Remove = %d, %v; want %d", n, err, len(boards))
	}
}

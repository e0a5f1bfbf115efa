package board

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// groupBoards builds a global board (Best), a weekly one (PerField, points
// added) and a regional one (Replace, key suffix), in group tag or, with
// tag "", each in its own.
func groupBoards(t *testing.T, client rueidis.Client, prefix, tag string, shared bool) []*Board {
	t.Helper()
	var out []*Board
	for i, o := range []Options{{DenseRanks: true}, {}, {Strategy: KeySuffix, Cap: 30}} {
		o.Group, o.SharedData = tag, shared
		out = append(out, newBoard(t, client, prefix, "g"+strconv.Itoa(i), testLayout(t), o))
	}
	return out
}

// groupWrite is the workload's write of id: Best on the global board, an
// add of points on the weekly one, Replace on the regional one.
func groupWrite(id string, v []float64) GroupSubmission {
	return GroupSubmission{ID: id, Data: []byte("d" + id), Entries: []GroupEntry{
		{Values: v, Policy: Best},
		{Values: []float64{v[0], v[1], v[2]}, Policy: PerField, Ops: []Op{OpAdd, OpMax, OpMin}},
		{Values: v},
	}}
}

// A random workload through an atomic group, against a model per board:
// each board applies its own policy; an add that would leave its field's
// range on one board refuses the whole write, and nothing is written on
// any board.
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
			runGroupWorkload(t, groupBoards(t, client, prefix, prefix+"game", true), 300)
		})
	}
}

func runGroupWorkload(t *testing.T, boards []*Board, steps int) {
	t.Helper()
	ctx := t.Context()
	g, err := NewGroup(boards...)
	if err != nil || !g.Atomic() {
		t.Fatalf("NewGroup: atomic %t, %v", g != nil && g.Atomic(), err)
	}
	models := []*model{newModel(testLayout(t)), newModel(testLayout(t)), newModel(testLayout(t))}
	models[2].suffix = true
	rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
	refused := 0
	for step := 0; step < steps; step++ {
		id := "p" + strconv.Itoa(rng.IntN(40))
		s := groupWrite(id, []float64{float64(rng.IntN(600)), float64(rng.IntN(2)), float64(rng.IntN(256))})
		oks := make([]bool, 3)
		trial := make([]*model, 3)
		for i, m := range models {
			trial[i] = &model{layout: m.layout, vals: clone(m.vals), suffix: m.suffix}
			e := s.Entries[i]
			_, oks[i] = trial[i].apply(Submission{ID: s.ID, Values: e.Values, Policy: e.Policy, Ops: e.Ops})
		}
		res, err := g.Submit(ctx, s)
		if !oks[1] {
			refused++
			if !errors.Is(err, errValue) || !errors.Is(err, pack.ErrOverflow) {
				t.Fatalf("step %d: an add out of range: err = %v, want errValue", step, err)
			}
		} else if err != nil {
			t.Fatalf("step %d: %v", step, err)
		} else {
			for i := range models {
				models[i] = trial[i]
			}
			if c := boards[2].opts.Cap; int64(len(models[2].vals)) > c {
				models[2].trim(id, c, Result{})
			}
			checkGroupResults(t, step, boards, models, id, res)
		}
	}
	for i, b := range boards {
		got, err := scanAll(ctx, b, 100)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(models[i].page(0, 1000), got); diff != "" {
			t.Fatalf("board %d after the workload (-want +got):\n%s", i, diff)
		}
	}
	if refused == 0 {
		t.Errorf("no write was refused: the workload never tried an add out of range")
	}
}

// checkGroupResults compares each board's result to its model.
func checkGroupResults(t *testing.T, step int, boards []*Board, models []*model, id string, res []ManyResult) {
	t.Helper()
	for i := range boards {
		want := models[i].find(id)
		if res[i].Err != nil || (want.Rank != 0 && res[i].Entry.Rank != want.Rank) || !cmp.Equal(want.Values, res[i].Entry.Values) && want.Rank != 0 {
			t.Fatalf("step %d board %d: result %+v, want %+v", step, i, res[i], want)
		}
	}
}

func clone(m map[string][]float64) map[string][]float64 {
	out := make(map[string][]float64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Shared member data is stored once for the group, read through every
// board, kept when an entry is removed, and removed by RemoveData.
func TestGroupSharedData(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	boards := groupBoards(t, env.Client, env.Prefix, env.Prefix+"shared", true)
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Submit(ctx, groupWrite("ann", []float64{10, 1, 5})); err != nil {
		t.Fatal(err)
	}
	for _, b := range boards {
		e, err := b.Get(ctx, "ann", WithData())
		if err != nil || string(e.Data) != "dann" {
			t.Errorf("%s: Get = %+v, %v", b.Name(), e, err)
		}
		if n, _ := env.Client.Do(ctx, env.Client.B().Exists().Key(names(b.prefix, 0).d).Build()).AsInt64(); n != 0 {
			t.Errorf("%s keeps a member-data HASH of its own", b.Name())
		}
	}
	if _, err := boards[0].Remove(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	if e, err := boards[1].Get(ctx, "ann", WithData()); err != nil || string(e.Data) != "dann" {
		t.Errorf("after a Remove from another board: Get = %+v, %v", e, err)
	}
	o, err := Open(ctx, env.Client, boards[1].opts.Group+"/"+boards[1].Name(), Options{})
	if err != nil || !o.opts.SharedData {
		t.Fatalf("OpenGroup = %v, %v", o, err)
	}
	if e, err := o.Get(ctx, "ann", WithData()); err != nil || string(e.Data) != "dann" {
		t.Errorf("Get through OpenGroup = %+v, %v", e, err)
	}
	if _, err := Open(ctx, env.Client, "a{b"+"/"+"x", Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("OpenGroup of a bad group: err = %v, want ErrOptions", err)
	}
	if n, err := g.RemoveData(ctx, "ann", "nobody"); err != nil || n != 1 {
		t.Errorf("RemoveData = %d, %v", n, err)
	}
	if e, _ := boards[1].Get(ctx, "ann", WithData()); e.Data != nil {
		t.Errorf("after RemoveData: data %q", e.Data)
	}
}

// A group of boards of different tags writes each board on its own: one
// board's refusal leaves the others written. NewGroup refuses what it
// says.
func TestGroupNotAtomic(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	boards := groupBoards(t, env.Client, env.Prefix, "", false)
	g, err := NewGroup(boards...)
	if err != nil || g.Atomic() {
		t.Fatalf("NewGroup of boards of different tags: atomic %t, %v", g.Atomic(), err)
	}
	mustSubmit(t, boards[1], Submission{ID: "x", Values: []float64{1020, 0, 0}})
	res, err := g.Submit(ctx, groupWrite("x", []float64{9, 1, 1}))
	if err != nil || res[0].Err != nil || res[2].Err != nil || !errors.Is(res[1].Err, errValue) {
		t.Fatalf("Submit = %+v, %v: want the weekly board alone refused", res, err)
	}
	if e, err := boards[0].Get(ctx, "x"); err != nil || e.Values[0] != 9 {
		t.Errorf("global board: %+v, %v", e, err)
	}
	for _, bad := range [][]*Board{nil, {boards[0], nil}, {boards[0], boards[0]}, make([]*Board, maxGroup+1)} {
		if _, err := NewGroup(bad...); !errors.Is(err, ErrOptions) {
			t.Errorf("NewGroup(%d boards): err = %v, want ErrOptions", len(bad), err)
		}
	}
	if _, err := g.Submit(ctx, GroupSubmission{ID: "x"}); !errors.Is(err, ErrArgument) {
		t.Errorf("Submit with no entries: err = %v, want ErrArgument", err)
	}
	if _, err := g.RemoveData(ctx, "x"); !errors.Is(err, ErrOptions) {
		t.Errorf("RemoveData with no shared data: err = %v, want ErrOptions", err)
	}
}

// A board of an atomic group that migrates keeps taking group writes:
// the group follows its generation, and its writes are mirrored.
func TestGroupWhileMigrating(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	boards := groupBoards(t, env.Client, env.Prefix, env.Prefix+"mig", false)
	g, err := NewGroup(boards...)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if _, err := g.Submit(ctx, groupWrite("p"+strconv.Itoa(i), []float64{float64(i), 0, 1})); err != nil {
			t.Fatal(err)
		}
	}
	halfMigrate(t, boards[0], testLayout(t), Options{Group: boards[0].opts.Group}, MigrateOptions{Batch: 10})
	if _, err := g.Submit(ctx, groupWrite("late", []float64{999, 1, 0})); err != nil {
		t.Fatal(err)
	}
	nb, err := boards[0].Migrate(ctx, testLayout(t), Options{Group: boards[0].opts.Group}, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := nb.Get(ctx, "late"); err != nil || e.Rank != 1 {
		t.Errorf("the group write during the migration: %+v, %v", e, err)
	}
}

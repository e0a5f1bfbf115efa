package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// mustLayout builds a bit layout or fails t.
func mustLayout(t testing.TB, fields ...pack.Field) *pack.Layout {
	l, err := pack.NewLayout(fields...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// migration is one kind of migration the tests run: from a layout and
// options to others, with the defaults of the fields it adds.
type migrationCase struct {
	name     string
	from, to *pack.Layout
	fo, to2  Options
	defaults map[string]float64
}

func migrationCases(t testing.TB) []migrationCase {
	small := mustLayout(t, pack.Field{Name: "points", Width: 10}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	wide := mustLayout(t, pack.Field{Name: "points", Width: 16}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	return []migrationCase{
		{name: "widen a field", from: small, to: wide},
		{name: "add a trailing field", from: small, to: withLevel(t), defaults: map[string]float64{"level": 7}},
		{name: "packed to key suffix", from: small, to: small, to2: Options{Strategy: KeySuffix}},
		{name: "key suffix to packed, wider", from: small, fo: Options{Strategy: KeySuffix}, to: wide},
		{name: "dense ranks on", from: small, to: small, to2: Options{DenseRanks: true}},
		{name: "a cap, dense, key suffix", from: small, fo: Options{DenseRanks: true}, to: withLevel(t), to2: Options{Strategy: KeySuffix, DenseRanks: true, Cap: 40}},
		{name: "key suffix, a field added", from: small, fo: Options{Strategy: KeySuffix, DenseRanks: true}, to: withLevel(t), to2: Options{Strategy: KeySuffix}, defaults: map[string]float64{"level": 2}},
	}
}

// withLevel is testLayout with a trailing level field (4 bits).
func withLevel(t testing.TB) *pack.Layout {
	return mustLayout(t, pack.Field{Name: "points", Width: 10}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter}, pack.Field{Name: "level", Width: 4})
}

// mapValues maps source values to the target layout as a migration does:
// by field name, new fields taking their default.
func mapValues(from, to *pack.Layout, v []float64, defaults map[string]float64) []float64 {
	out := make([]float64, to.Len())
	for i := range out {
		name := to.Field(i).Name
		if j := from.Index(name); j >= 0 {
			out[i] = v[j]
		} else {
			out[i] = defaults[name]
		}
	}
	return out
}

// checkMigrated compares every entry of b, with ranks of every kind and
// member data, to a model holding the source model's entries mapped to the
// target, cap applied.
func checkMigrated(t *testing.T, b *Board, src *model, from *pack.Layout, defaults map[string]float64, data map[string]string) {
	t.Helper()
	ctx := t.Context()
	want := newModel(b.layout)
	for id, v := range src.vals {
		want.vals[id] = mapValues(from, b.layout, v, defaults)
	}
	all := want.sorted()
	if c := b.opts.Cap; c > 0 && int64(len(all)) > c {
		for _, e := range all[c:] {
			delete(want.vals, e.ID)
		}
		all = all[:c]
	}
	got, err := scanAll(ctx, b, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(all, got.Entries, cmp.Comparer(func(a, b []byte) bool { return string(a) == string(b) })); diff != "" {
		t.Fatalf("entries after migration (-want +got):\n%s", diff)
	}
	for i, e := range all {
		if i%17 != 0 {
			continue
		}
		kinds := []RankKind{Ordinal, Competition}
		if b.opts.DenseRanks {
			kinds = append(kinds, Dense)
		}
		for _, k := range kinds {
			if r, err := b.Rank(ctx, e.ID, k); err != nil || r != want.rank(e.ID, k) {
				t.Errorf("Rank(%s, %v) = %d, %v; want %d", e.ID, k, r, err, want.rank(e.ID, k))
			}
		}
		g, err := b.Get(ctx, e.ID, WithData())
		if err != nil || string(g.Data) != data[e.ID] {
			t.Errorf("Get(%s) data = %q, %v; want %q", e.ID, g.Data, err, data[e.ID])
		}
	}
}

// fill writes n random entries with member data to b and to m.
func fill(t *testing.T, b *Board, m *model, n int, rng *rand.Rand) map[string]string {
	t.Helper()
	data := map[string]string{}
	var subs []Submission
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("p%05d", i)
		v := []float64{float64(rng.IntN(300)), float64(rng.IntN(2)), float64(rng.IntN(256))}
		subs = append(subs, Submission{ID: id, Values: v, Data: []byte("d" + id)})
		m.vals[id], data[id] = v, "d"+id
	}
	for _, r := range b.SubmitMany(t.Context(), subs) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	return data
}

// Every kind of migration of a board at rest gives the board a fresh board
// of the new settings would be, fed the same entries; the old handle is
// refused after the switch, the returned one works, and nothing but
// tombstones is left under the old names.
func TestMigrateKinds(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	for i, c := range migrationCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, env.Client, env.Prefix, "kind"+strconv.Itoa(i), c.from, c.fo)
			src := newModel(c.from)
			data := fill(t, b, src, 300, rand.New(rand.NewPCG(uint64(i), 1)))
			nb, err := b.Migrate(ctx, c.to, c.to2, MigrateOptions{Defaults: c.defaults, Batch: 37})
			if err != nil {
				t.Fatal(err)
			}
			checkMigrated(t, nb, src, c.from, c.defaults, data)
			if _, err := b.Top(ctx, 1); !errors.Is(err, ErrMismatch) {
				t.Errorf("old handle after the switch: err = %v, want ErrMismatch", err)
			}
			if _, err := New(ctx, env.Client, b.Name(), c.to, c.to2); err != nil {
				t.Errorf("New with the new settings: %v", err)
			}
			if _, err := New(ctx, env.Client, b.Name(), c.from, c.fo); !errors.Is(err, ErrMismatch) {
				t.Errorf("New with the old settings: err = %v, want ErrMismatch", err)
			}
			checkLookup(t, nb)
			checkOnlyTombstones(t, b, nb)
			defer func() {
				if err := nb.Drop(ctx); err != nil {
					t.Fatal(err)
				}
				if keys := boardKeys(t, nb); len(keys) != 0 {
					t.Errorf("keys left after Drop: %q", keys)
				}
			}()
			// Called again after the switch (a caller that crashed before
			// Migrate returned): it returns at once.
			again, err := b.Migrate(ctx, c.to, c.to2, MigrateOptions{Defaults: c.defaults})
			if err != nil || again.gen.Load().n != nb.gen.Load().n {
				t.Fatalf("Migrate again after the switch: %v", err)
			}
		})
	}
}

// checkOnlyTombstones checks that below nb's generation only tombstones
// (strings) and the meta HASH are left of the board.
func checkOnlyTombstones(t *testing.T, old, nb *Board) {
	t.Helper()
	ctx := t.Context()
	keys := boardKeys(t, old)
	live := map[string]bool{}
	for _, k := range nb.gen.Load().keys.all() {
		live[k] = true
	}
	for _, k := range keys {
		typ, _ := old.rc().Do(ctx, old.rc().B().Type().Key(k).Build()).ToString()
		if !live[k] && k != nb.gen.Load().keys.meta && typ != "string" {
			t.Errorf("key %s of type %s left after the migration", k, typ)
		}
	}
}

// loadWriter is one of the writers of TestMigrateUnderLoad: it owns the
// ids whose number is w modulo the writer count, writes them with Best
// and field by field through a handle of the old settings until that handle is
// refused (the switch), then through one opened from the board, and keeps
// the model of its ids in the new layout.
type loadWriter struct {
	w, writers, ids int
	old, cur        *Board
	m               *model
	rng             *rand.Rand
	writes, after   int
}

// step makes one write; switched reports that it found the board switched.
func (lw *loadWriter) step(t *testing.T, level float64) error {
	ctx := context.Background()
	id := fmt.Sprintf("p%06d", lw.w+lw.writers*lw.rng.IntN(lw.ids/lw.writers))
	s := Submission{ID: id, Values: []float64{float64(lw.rng.IntN(1024)), float64(lw.rng.IntN(2)), float64(lw.rng.IntN(256))}, Policy: Best}
	if lw.rng.IntN(2) == 0 {
		s.Policy, s.Fields = Replace, []Policy{Add, Max, Min}
		s.Values[0] = float64(lw.rng.IntN(21) - 10)
	}
	if lw.cur.layout.Len() > len(s.Values) { // the new layout: level, kept
		s.Values = append(s.Values, level)
		if s.Fields != nil {
			s.Fields = append(s.Fields, Keep)
		}
	}
	_, err := lw.cur.Submit(ctx, s)
	if errors.Is(err, ErrMismatch) && lw.cur == lw.old {
		if lw.cur, err = Open(ctx, lw.old.rc(), lw.old.Name(), Options{}); err != nil {
			return err
		}
		return lw.step(t, level)
	}
	ms := s
	ms.Values = append([]float64(nil), s.Values...)
	if len(ms.Values) < lw.m.layout.Len() {
		ms.Values = append(ms.Values, level)
		if ms.Fields != nil {
			ms.Fields = append(append([]Policy(nil), ms.Fields...), Keep)
		}
	}
	lw.m.suffix = lw.cur.suffix() // a packed handle checks the packed ranges
	_, ok := lw.m.apply(ms)
	switch {
	case !ok && errors.Is(err, errValue):
		return nil
	case !ok || err != nil:
		return fmt.Errorf("writer %d: %+v: model ok %t, board err %v", lw.w, s, ok, err)
	}
	lw.writes++
	if lw.cur != lw.old {
		lw.after++
	}
	return nil
}

// A migration of a 100,000-entry board (adding a field, switching to key
// suffix with dense ranks) under 16 writers using Best and field by field, which
// move to the new settings when their old handle is refused: every
// acknowledged write is on the board afterwards, in the new encoding, and
// the board never shrinks while it migrates.
func TestMigrateUnderLoad(t *testing.T) {
	c := migrationCases(t)[1] // add a trailing field
	c.to2 = Options{Strategy: KeySuffix, DenseRanks: true}
	migrateUnderLoad(t, 100_000, c)
}

// migrateUnderLoad runs c on a board of ids entries under 16 writers (see
// TestMigrateUnderLoad); a field the target adds is "level", 7 for all.
func migrateUnderLoad(t *testing.T, ids int, c migrationCase) {
	const writers, level = 16, 7
	env := redistest.New(t)
	ctx := t.Context()
	to2 := c.to2
	b := newBoard(t, env.Client, env.Prefix, "load", c.from, c.fo)
	final := newModel(c.to)
	load := newModel(c.from)
	rng := rand.New(rand.NewPCG(7, 7))
	for start := 0; start < ids; start += 10_000 {
		var subs []Submission
		for i := start; i < start+10_000; i++ {
			v := []float64{float64(rng.IntN(1024)), float64(rng.IntN(2)), float64(rng.IntN(256))}
			subs = append(subs, Submission{ID: fmt.Sprintf("p%06d", i), Values: v})
			load.vals[subs[len(subs)-1].ID] = v
		}
		for _, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	}
	lws := make([]*loadWriter, writers)
	for w := range lws {
		lws[w] = &loadWriter{w: w, writers: writers, ids: ids, m: newModel(c.to), rng: rand.New(rand.NewPCG(uint64(w), 9))}
		lws[w].old = newBoard(t, env.Client, env.Prefix, "load", c.from, c.fo)
		lws[w].cur = lws[w].old
		for id, v := range load.vals {
			if n, _ := strconv.Atoi(id[1:]); n%writers == w {
				lws[w].m.vals[id] = mapValues(c.from, c.to, v, map[string]float64{"level": level})
			}
		}
	}
	done := make(chan struct{})
	errs := make(chan error, writers+1)
	for _, lw := range lws {
		go func() {
			for {
				select {
				case <-done:
					if lw.after >= 50 || lw.cur == lw.old && lw.writes > 1e6 {
						errs <- nil
						return
					}
				default:
				}
				if err := lw.step(t, level); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	stopReads := make(chan struct{})
	readErr := make(chan error, 1)
	go func() { readErr <- neverShrinks(b, int64(ids), stopReads) }()
	began := time.Now()
	nb, err := b.Migrate(ctx, c.to, to2, MigrateOptions{Defaults: c.defaults})
	t.Logf("migrated %d entries in %v", ids, time.Since(began))
	if err != nil {
		t.Fatal(err) // before waiting: the writers wait for the switch
	}
	close(done)
	for range lws {
		if e := <-errs; e != nil {
			t.Error(e)
		}
	}
	close(stopReads)
	if err != nil {
		t.Fatal(err)
	}
	if e := <-readErr; e != nil {
		t.Error(e)
	}
	writes := 0
	for _, lw := range lws {
		for id, v := range lw.m.vals {
			final.vals[id] = v
		}
		writes += lw.writes
	}
	t.Logf("%d acknowledged writes during and after the migration", writes)
	checkLoad(t, nb, final)
	checkLookup(t, nb)
	if diff := cmp.Diff(describe(c.to, to2), nb.descriptorOf()); diff != "" {
		t.Errorf("descriptor after the migration (-want +got):\n%s", diff)
	}
}

// neverShrinks reads the board's length through a handle of the old
// settings (then one opened after the switch) until stop: it must never be
// below n, and every read must succeed.
func neverShrinks(b *Board, n int64, stop chan struct{}) error {
	ctx := context.Background()
	for h := b; ; {
		select {
		case <-stop:
			return nil
		default:
		}
		got, err := h.Len(ctx)
		if errors.Is(err, ErrMismatch) {
			if h, err = Open(ctx, b.rc(), b.Name(), Options{}); err != nil {
				return err
			}
			continue
		}
		if err != nil || got < n {
			return fmt.Errorf("Len during the migration = %d, %v; want at least %d", got, err, n)
		}
	}
}

// checkLoad compares the whole board with m: every entry in order, and the
// three rank kinds of a sample.
func checkLoad(t *testing.T, b *Board, m *model) {
	t.Helper()
	ctx := t.Context()
	want := m.sorted()
	got, err := scanAll(ctx, b, maxCount)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got.Entries); diff != "" {
		t.Fatalf("board after the migration (-want +got):\n%s", diff)
	}
	comp, dense := int64(0), int64(0)
	for i, e := range want {
		if i == 0 || m.cmpTuple(want[i-1].Values, e.Values) != 0 {
			comp, dense = int64(i+1), dense+1
		}
		if i%997 != 0 {
			continue
		}
		for kind, r := range map[RankKind]int64{Ordinal: e.Rank, Competition: comp, Dense: dense} {
			if g, err := b.Rank(ctx, e.ID, kind); err != nil || g != r {
				t.Errorf("Rank(%s, %v) = %d, %v; want %d", e.ID, kind, g, err, r)
			}
		}
	}
}

// migrationState returns the state and the copy's position (the score of
// the last entry copied, "done" at the end) in b's meta HASH.
func migrationState(t *testing.T, b *Board) (state, position string) {
	t.Helper()
	m := readMetaRaw(t, b)
	return m["state"], m["pscore"]
}

// A migration cut short by its context leaves the board working (reads
// from the source, writes mirrored) and is resumed by calling Migrate
// again: nothing written meanwhile is lost.
func TestMigrateCancelledAndResumed(t *testing.T) {
	env := redistest.New(t)
	c := migrationCases(t)[5] // a cap, dense, key suffix, a field added
	b := newBoard(t, env.Client, env.Prefix, "cancel", c.from, c.fo)
	src := newModel(c.from)
	data := fill(t, b, src, 3000, rand.New(rand.NewPCG(3, 3)))
	stale := newBoard(t, env.Client, env.Prefix, "cancel", c.from, c.fo)
	mo := MigrateOptions{Defaults: c.defaults, Batch: 5}
	halfMigrate(t, b, c.to, c.to2, mo)
	writeDuring(t, stale, src, data)
	nb, err := b.Migrate(t.Context(), c.to, c.to2, mo)
	if err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, nb, src, c.from, c.defaults, data)
}

// writeDuring writes, removes and sets member data through b while it
// migrates (b may be a handle built before the migration began: its first
// call finds the board moved), and records it all in m and data.
func writeDuring(t *testing.T, b *Board, m *model, data map[string]string) {
	t.Helper()
	ctx := t.Context()
	if _, err := b.Top(ctx, 10); err != nil {
		t.Fatalf("Top while migrating: %v", err)
	}
	var subs []Submission
	for i := 0; i < 30; i++ {
		s := Submission{ID: fmt.Sprintf("many%d", i), Values: []float64{float64(i * 30), 0, 5}, Data: []byte("m")}
		subs = append(subs, s)
		m.vals[s.ID], data[s.ID] = s.Values, "m"
	}
	for _, r := range b.SubmitMany(ctx, subs) {
		if r.Err != nil {
			t.Fatalf("SubmitMany while migrating: %v", r.Err)
		}
	}
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("p%05d", i*13)
		switch i % 4 {
		case 0:
			if _, err := b.Remove(ctx, id); err != nil {
				t.Fatal(err)
			}
			delete(m.vals, id)
			delete(data, id)
		case 1:
			if err := b.SetData(ctx, id, []byte("new"+id)); err != nil && !errors.Is(err, ErrNotFound) {
				t.Fatal(err)
			}
			if _, ok := m.vals[id]; ok {
				data[id] = "new" + id
			}
		default:
			s := Submission{ID: id + "n", Values: []float64{float64(i), 1, float64(i % 256)}, Data: []byte("n")}
			mustSubmit(t, b, s)
			m.vals[s.ID], data[s.ID] = s.Values, "n"
		}
	}
}

// Entries that do not fit the new layout are reported, never masked: the
// migration waits, the board keeps working, and once they are fixed or
// removed Migrate finishes.
func TestMigrateMisfits(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	from := testLayout(t)
	narrow := mustLayout(t, pack.Field{Name: "points", Width: 8}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	b := newBoard(t, env.Client, env.Prefix, "misfit", from, Options{})
	src := newModel(from)
	data := fill(t, b, src, 500, rand.New(rand.NewPCG(5, 5)))
	var over []string
	for id, v := range src.vals {
		if v[0] > 255 {
			over = append(over, id)
		}
	}
	_, err := b.Migrate(ctx, narrow, Options{}, MigrateOptions{})
	var me *misfitsError
	if !errors.As(err, &me) || !errors.Is(err, errValue) || !errors.Is(err, pack.ErrOverflow) {
		t.Fatalf("Migrate to a narrower field: err = %v, want a *misfitsError", err)
	}
	if me.Count != int64(len(over)) || len(me.Examples) != 10 || !strings.Contains(me.Examples[0].Reason, `field "points"`) {
		t.Fatalf("misfits: %d (want %d), examples %+v", me.Count, len(over), me.Examples)
	}
	if msg := err.Error(); strings.Count(msg, pack.ErrOverflow.Error()) != 1 || strings.Count(msg, "board: ") != 1 {
		t.Errorf("the misfits' message names its sentinels and package more than once: %s", msg)
	}
	if n, err := b.Len(ctx); err != nil || n != 500 {
		t.Fatalf("Len while waiting on misfits = %d, %v", n, err)
	}
	for i, id := range over {
		if i%2 == 0 {
			mustSubmit(t, b, Submission{ID: id, Values: []float64{255, 0, 0}})
			src.vals[id] = []float64{255, 0, 0}
			continue
		}
		if _, err := b.Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
		delete(src.vals, id)
		delete(data, id)
	}
	nb, err := b.Migrate(ctx, narrow, Options{}, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, nb, src, from, nil, data)
}

// migrateChildEnv names the board a child test binary migrates (see
// TestMain): "<addr> <board name>".
const migrateChildEnv = "TIEBREAK_MIGRATE_CHILD"

// migrateChild is the child process of TestMigrateKilled: it migrates the
// board named in its environment as that test's case does, a few ids a
// step, until it is killed. It returns the process's exit code.
func migrateChild(arg string) int {
	addr, name, _ := strings.Cut(arg, " ")
	client, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, DisableCache: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer client.Close()
	c := migrationCases(nil)[5]
	ctx := context.Background()
	b, err := New(ctx, client, name, c.from, c.fo)
	if err == nil {
		_, err = b.Migrate(ctx, c.to, c.to2, MigrateOptions{Defaults: c.defaults, Batch: 2})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A migration whose process is killed (SIGKILL) part way is resumed by
// another: nothing written meanwhile is lost.
func TestMigrateKilled(t *testing.T) {
	env := redistest.New(t)
	c := migrationCases(t)[5]
	b := newBoard(t, env.Client, env.Prefix, "killed", c.from, c.fo)
	src := newModel(c.from)
	data := fill(t, b, src, 3000, rand.New(rand.NewPCG(4, 4)))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), migrateChildEnv+"="+env.Addr+" "+b.Name())
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if _, cur := migrationState(t, b); cur != "" {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if state, cur := migrationState(t, b); state != "migrating" || cur == "done" {
		t.Fatalf("after the kill: state %q cursor %q, want migrating part way", state, cur)
	}
	writeDuring(t, b, src, data)
	nb, err := b.Migrate(t.Context(), c.to, c.to2, MigrateOptions{Defaults: c.defaults})
	if err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, nb, src, c.from, c.defaults, data)
}

// Every kind of migration on a 3-master Redis Cluster, the boards' hash
// tags spread over the masters, with writes while one migration waits
// half done: every script declares its keys, all in the board's slot.
func TestMigrateCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	for i, c := range migrationCases(t) {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			b := newBoard(t, cl.Client, cl.Prefix, "cl"+strconv.Itoa(i), c.from, c.fo)
			src := newModel(c.from)
			data := fill(t, b, src, 400, rand.New(rand.NewPCG(uint64(i), 2)))
			stale := newBoard(t, cl.Client, cl.Prefix, "cl"+strconv.Itoa(i), c.from, c.fo)
			mo := MigrateOptions{Defaults: c.defaults, Batch: 3}
			halfMigrate(t, b, c.to, c.to2, mo)
			writeDuring(t, stale, src, data)
			nb, err := b.Migrate(ctx, c.to, c.to2, mo)
			if err != nil {
				t.Fatal(err)
			}
			checkMigrated(t, nb, src, c.from, c.defaults, data)
			if _, err := b.Len(ctx); !errors.Is(err, ErrMismatch) {
				t.Errorf("old handle after the switch: err = %v, want ErrMismatch", err)
			}
			if err := nb.Drop(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// boardKeys lists every key of b's hash tag (single server only).
func boardKeys(t *testing.T, b *Board) []string {
	t.Helper()
	keys, err := b.rc().Do(t.Context(), b.rc().B().Keys().Pattern("tb:{"+b.Name()+"}:*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// Migrate refuses bad options, a handle whose settings are not stored, and
// a second migration to other settings while one is under way, changing
// nothing; Drop in the middle of a migration removes every generation.
func TestMigrateRefuses(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	c := migrationCases(t)[1] // add a trailing field
	b := newBoard(t, env.Client, env.Prefix, "refuse", c.from, Options{})
	fill(t, b, newModel(c.from), 300, rand.New(rand.NewPCG(1, 1)))
	before := readMetaRaw(t, b)
	for _, bad := range []struct {
		mo   MigrateOptions
		want error
	}{
		{MigrateOptions{Batch: -1}, ErrArgument},
		{MigrateOptions{Batch: maxMigrateBatch + 1}, ErrArgument},
		{MigrateOptions{Pause: -1}, ErrArgument},
		{MigrateOptions{Pause: 2 * time.Second}, ErrArgument},
		{MigrateOptions{Defaults: map[string]float64{"points": 1}}, ErrArgument},
		{MigrateOptions{Defaults: map[string]float64{"nosuch": 1}}, ErrArgument},
		{MigrateOptions{Defaults: map[string]float64{"level": 16}}, errValue},
		{MigrateOptions{Defaults: map[string]float64{"level": 0.5}}, errValue},
	} {
		if _, err := b.Migrate(ctx, c.to, Options{}, bad.mo); !errors.Is(err, bad.want) {
			t.Errorf("Migrate(%+v): err = %v, want %v", bad.mo, err, bad.want)
		}
	}
	if _, err := b.Migrate(ctx, c.to, Options{Cap: -1}, MigrateOptions{}); !errors.Is(err, ErrOptions) {
		t.Errorf("Migrate to bad options: err = %v, want ErrOptions", err)
	}
	stranger, err := configure(rdb.New(env.Client), b.Name(), c.from, Options{DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stranger.Migrate(ctx, c.to, Options{}, MigrateOptions{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("Migrate from a handle of other settings: err = %v, want ErrMismatch", err)
	}
	if diff := cmp.Diff(before, readMetaRaw(t, b)); diff != "" {
		t.Errorf("a refused Migrate changed the meta HASH (-want +got):\n%s", diff)
	}
	halfMigrate(t, b, c.to, Options{}, MigrateOptions{Defaults: map[string]float64{"level": 1}, Batch: 1})
	if _, err := b.Migrate(ctx, c.to, Options{DenseRanks: true}, MigrateOptions{}); !errors.Is(err, ErrMigrating) {
		t.Errorf("a second migration to other settings: err = %v, want ErrMigrating", err)
	}
	if _, err := b.Migrate(ctx, c.to, Options{}, MigrateOptions{}); !errors.Is(err, ErrMigrating) {
		t.Errorf("the same migration with other defaults: err = %v, want ErrMigrating", err)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if keys := boardKeys(t, b); len(keys) != 0 {
		t.Errorf("keys left after Drop in the middle of a migration: %q", keys)
	}
}

// halfMigrate starts a migration of b and cancels its context after the
// first copy step: the migration is left under way.
func halfMigrate(t *testing.T, b *Board, to *pack.Layout, o Options, mo MigrateOptions) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	faultPoint = func(op, step string) {
		if step == "copy" {
			cancel()
		}
	}
	defer func() { faultPoint = nil }()
	if _, err := b.Migrate(ctx, to, o, mo); !errors.Is(err, context.Canceled) || errors.Is(err, ErrRedis) {
		t.Fatalf("Migrate cancelled part way: err = %v, want context.Canceled", err)
	}
	if state, cur := migrationState(t, b); state != "migrating" {
		t.Fatalf("after the cancel: state %q cursor %q, want migrating", state, cur)
	}
}

// A board of a group that shares its member data migrates like any other:
// the target keeps the group (its keys, its shared data), handles built
// before the migration mirror their writes into it while it runs, and
// every call works after the switch.
func TestMigrateGroupedSharedData(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	c := migrationCases(t)[0]
	o := Options{Group: env.Prefix + "_g", SharedData: true}
	b := newBoard(t, env.Client, "", "shared", c.from, o)
	stale := newBoard(t, env.Client, "", "shared", c.from, o)
	src := newModel(c.from)
	data := fill(t, b, src, 300, rand.New(rand.NewPCG(8, 8)))
	to := o
	halfMigrate(t, b, c.to, to, MigrateOptions{Batch: 20})
	writeDuring(t, stale, src, data)
	nb, err := b.Migrate(ctx, c.to, to, MigrateOptions{Batch: 20})
	if err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, nb, src, c.from, nil, data)
	opened, err := Open(ctx, env.Client, o.Group+"/"+nb.Name(), Options{})
	if err != nil {
		t.Fatalf("OpenGroup after the migration: %v", err)
	}
	if _, err := opened.Submit(ctx, Submission{ID: "new", Values: []float64{1, 0, 1}, Data: []byte("d")}); err != nil {
		t.Fatalf("a write after the migration: %v", err)
	}
}

// Migrate of a board no longer stored (dropped, or lost by a server that
// restarted empty), before it or between its steps, is ErrNotFound and
// writes nothing: it never makes an empty board whole again to migrate it.
func TestMigrateOfABoardGone(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	b := newBoard(t, env.Client, env.Prefix, "gone", l, Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 1}})
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Migrate(ctx, l, Options{DenseRanks: true}, MigrateOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Migrate of a dropped board: %v, want ErrNotFound", err)
	}
	if keys := dumpKeys(t, env); len(keys) != 0 {
		t.Errorf("Migrate of a dropped board left %v", keys)
	}
	// Lost between two steps: every key of the board deleted, as a server
	// restarted without its data would have them.
	b = newBoard(t, env.Client, env.Prefix, "lost", l, Options{})
	for i := range 30 {
		mustSubmit(t, b, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 1}})
	}
	faultPoint = func(op, step string) {
		if op == "Migrate" && step == "copy" {
			faultPoint = nil
			keys, err := env.Client.Do(ctx, env.Client.B().Keys().Pattern("*"+env.Prefix+"*").Build()).AsStrSlice()
			if err != nil {
				t.Error(err)
			}
			for _, k := range keys {
				env.Client.Do(ctx, env.Client.B().Del().Key(k).Build())
			}
		}
	}
	defer func() { faultPoint = nil }()
	if _, err := b.Migrate(ctx, l, Options{DenseRanks: true}, MigrateOptions{Batch: 5}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Migrate of a board lost between its steps: %v, want ErrNotFound", err)
	}
	if keys := dumpKeys(t, env); len(keys) != 0 {
		t.Errorf("Migrate of a board lost between its steps left %v", keys)
	}
}

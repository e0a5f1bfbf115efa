package board

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/engine"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// ids holds awkward ids: separators, NUL, 0xff, UTF-8, braces, prefixes of
// one another.
var ids = []string{"a", "b", "ab", "a\x00", "\x00", "\xff", "\xff\xfe", "é", "日本", "x|y", ":", "{", "}", "A", "0", "00"}

// workload drives a random sequence of writes and reads through boards and
// a model, failing on the first answer that differs.
type workload struct {
	t      *testing.T
	ids    []string // the ids drawn from
	rng    *rand.Rand
	model  *model
	boards []*Board
	all    []anyBoard // boards, then any sharded boards
	dense  bool       // whether the boards keep dense ranks
	cap    int64      // the boards' cap, which the model applies too
	// sent are the writes made with a request id, and their results: a
	// retry of one writes nothing and returns its result.
	sent []sentWrite
	// hiding: the boards keep Options.Hiding, and the workload hides and
	// shows members too.
	hiding bool
}

// sentWrite is a write made with a request id, and its result.
type sentWrite struct {
	s    Submission
	want Result
}

// anyBoard is what a Board and a Sharded both answer.
type anyBoard = *Board

// newWorkload builds one board per strategy with options o, and a model.
func newWorkload(t *testing.T, l *pack.Layout, o Options) *workload {
	t.Helper()
	env := redistest.New(t)
	return newWorkloadOn(t, env.Client, env.Prefix, l, o)
}

// newWorkloadOn is newWorkload on client, the boards' names starting with
// prefix.
func newWorkloadOn(t *testing.T, client rueidis.Client, prefix string, l *pack.Layout, o Options) *workload {
	t.Helper()
	env := &redistest.Env{Client: client, Prefix: prefix}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w := &workload{t: t, ids: ids, rng: rand.New(rand.NewPCG(seed, 1)), model: newModel(l), dense: o.DenseRanks}
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		o.Strategy = s
		b := newBoard(t, env.Client, env.Prefix, s.String(), l, o)
		w.boards, w.all = append(w.boards, b), append(w.all, b)
	}
	return w
}

// manyIDs returns n distinct ids for the bucketed key-suffix lookup: the
// awkward ones, and more holding the bytes its records are made of (zero,
// \x00\x01, \x00\x03), digits like a member's prefix, and prefixes and
// suffixes of one another, so that a bucket holds many ids that one
// search for another could mistake.
func manyIDs(n int) []string {
	out := append([]string(nil), ids...)
	forms := []func(i int) string{
		func(i int) string { return "u" + strconv.Itoa(i) },
		func(i int) string { return strconv.Itoa(i) },
		func(i int) string { return "\x00\x03" + strconv.Itoa(i) },
		func(i int) string { return strconv.Itoa(i) + "\x00\x01" },
		func(i int) string { return "\x00" + strconv.Itoa(i) + "\x00\x03\x00" },
		func(i int) string { return "u" + strconv.Itoa(i) + "0000000" },
		func(i int) string { return strings.Repeat("\x00", 1+i%5) + strconv.Itoa(i/5) },
	}
	seen := map[string]bool{}
	for _, id := range out {
		seen[id] = true
	}
	for i := 0; len(out) < n; i++ {
		if id := forms[i%len(forms)](i); !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// run makes steps random operations, checking the side indexes every 50
// steps when asked.
func (w *workload) run(steps int, indexes bool) {
	for step := 0; step < steps; step++ {
		switch n := w.rng.IntN(10); {
		case n < 5:
			w.submit(step)
		case n < 6 && w.hiding && w.rng.IntN(2) == 0:
			w.hideOrShow(step)
		case n < 6:
			w.remove(step)
		default:
			w.read(step)
		}
		if indexes && step%50 == 0 {
			w.checkIndexes()
		}
	}
}

func TestDifferential(t *testing.T) {
	newWorkload(t, testLayout(t), Options{DenseRanks: true}).run(1500, true)
}

// The same with hidden members: the workload hides and shows members
// too, and every read of others, of every kind and rank kind, must be
// the model's without them; a Get on a hidden member's own behalf ranks
// it where it would be.
func TestDifferentialHiding(t *testing.T) {
	w := newWorkload(t, testLayout(t), Options{DenseRanks: true, Hiding: true})
	w.hiding = true
	w.run(2000, true)
}

// The same on the 3-master cluster.
func TestDifferentialHidingCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	w := newWorkloadOn(t, cl.Client, cl.Prefix, testLayout(t), Options{DenseRanks: true, Hiding: true})
	w.hiding = true
	w.run(1000, true)
}

// The same on boards that keep nothing beside their entries, so that the
// packed board's Replace and Best writes take Redis's own commands (ZADD
// in MULTI/EXEC) instead of the script.
func TestDifferentialNativeWrites(t *testing.T) {
	newWorkload(t, testLayout(t), Options{}).run(1500, false)
}

// The same with a second packed board whose client is taken to be one of
// an engine that refused ZRANK ... WITHSCORE: its Best writes send ZSCORE
// and ZRANK, as on Redis 7.0, while the first board's send ZRANK ...
// WITHSCORE where the engine takes it (Redis 7.2, Valkey 8); both agree
// with the model, on every engine.
func TestDifferentialNativeWritesWithoutWithScore(t *testing.T) {
	env := redistest.New(t)
	w := newWorkload(t, testLayout(t), Options{})
	older := &otherClient{env.Client}
	zrankWithScore.Refuse(older)
	b := newBoard(t, older, env.Prefix, "older", testLayout(t), Options{})
	w.boards, w.all = append(w.boards, b), append(w.all, b)
	w.run(1500, false)
	e, err := engine.Of(t.Context(), env.Client)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.boards[0].withScore(); got != e.ZRankWithScore() || b.withScore() {
		t.Errorf("%v: withScore %v and %v, want %v and false", e, got, b.withScore(), e.ZRankWithScore())
	}
}

// otherClient is a client of its own (a key of its own in the maps kept
// per client) that sends through Client.
type otherClient struct{ rueidis.Client }

// The differential test on a board of hundreds of ids (many of them made
// of the bytes the bucketed key-suffix lookup stores its records with), so
// that the lookup's buckets split as the board grows and empty as it
// shrinks; with a cap, trims remove ids too.
func TestDifferentialManyIDs(t *testing.T) {
	for _, capN := range []int64{0, 250} {
		t.Run("cap"+strconv.FormatInt(capN, 10), func(t *testing.T) {
			w := newWorkload(t, testLayout(t), Options{DenseRanks: true, Cap: capN})
			w.ids, w.cap = manyIDs(700), capN
			w.run(3000, true)
			for _, b := range w.boards[1:] {
				checkLookup(t, b)
			}
			lk := w.boards[1].gen.Load().keys.lk
			if n, err := w.boards[1].rc().Do(t.Context(), w.boards[1].rc().B().Hget().Key(lk).Field("n").Build()).AsInt64(); err != nil || n < 8 {
				t.Errorf("the lookup has %d buckets (%v) for %d ids: the buckets did not split", n, err, len(w.model.vals))
			}
			// Remove every id: the lookup goes with the last.
			for _, id := range w.ids {
				_, had := w.model.vals[id]
				delete(w.model.vals, id)
				for _, b := range w.boards {
					if n, err := b.Remove(t.Context(), id); err != nil || (n == 1) != had {
						t.Fatalf("%s: Remove(%q) = %d, %v; model had it: %v", b.Name(), id, n, err, had)
					}
				}
			}
			for _, b := range w.boards[1:] {
				k := b.gen.Load().keys.lk
				if n, err := b.rc().Do(t.Context(), b.rc().B().Exists().Key(k).Build()).AsInt64(); err != nil || n != 0 {
					t.Errorf("%s: lookup %s left after every id was removed: EXISTS = %d, %v", b.Name(), k, n, err)
				}
			}
		})
	}
}

func fmtTuple(v []float64) string { return fmt.Sprint(v) }

func (w *workload) value(i int) float64 {
	f := w.model.layout.Field(i)
	// Few distinct values, so ties are common; the extremes included.
	choices := []int64{f.Min, f.Max, f.Min + 1, f.Max - 1, (f.Min + f.Max) / 2}
	return float64(choices[w.rng.IntN(len(choices))])
}

func (w *workload) submission() Submission {
	// Replace, Best, a policy of every field (Add, Max, Min, Keep), or
	// (7) one policy a field.
	s := Submission{ID: w.ids[w.rng.IntN(len(w.ids))], Policy: Policy(w.rng.IntN(7))}
	for i := 0; i < w.model.layout.Len(); i++ {
		s.Values = append(s.Values, w.value(i))
	}
	fields := []Policy{Replace, Add, Max, Min, Keep}
	if s.Policy > Keep {
		s.Policy = Replace
		for range s.Values {
			s.Fields = append(s.Fields, fields[w.rng.IntN(len(fields))])
		}
	}
	for i := range s.Values {
		if fieldPolicy(s, i) == Add {
			s.Values[i] = float64(w.rng.IntN(7) - 3)
		}
	}
	return s
}

func (w *workload) submit(step int) {
	if len(w.sent) > 0 && w.rng.IntN(6) == 0 {
		w.retry(step)
		return
	}
	s := w.submission()
	if w.rng.IntN(3) == 0 {
		s.RequestID = "req" + strconv.Itoa(step)
	}
	if w.rng.IntN(3) == 0 {
		s.Overtaken = 1 + w.rng.IntN(5)
	}
	oldIdx := int(w.model.find(s.ID).Rank) - 1 // -1: a new entry
	// Key suffix takes any float64 as the first field, so only the packed
	// range is shared: keep adds inside it.
	f0 := w.model.layout.Field(0)
	if old, had := w.model.vals[s.ID]; had && fieldPolicy(s, 0) == Add {
		if v := old[0] + s.Values[0]; v > float64(f0.Max) || v < float64(f0.Min) {
			if s.Fields == nil { // one policy a field, so that the others still add
				s.Fields = slices.Repeat([]Policy{Add}, len(s.Values))
				s.Policy = Replace
			}
			s.Fields[0], s.Values[0] = Keep, w.value(0)
		}
	}
	want, ok := w.model.submit(s)
	if ok && w.cap > 0 {
		want = w.model.trim(s.ID, w.cap, want)
	}
	if ok && s.Overtaken > 0 {
		want.Overtaken = w.model.passed(want.Entry.Rank, oldIdx, s.Overtaken, s.ID)
	}
	for _, b := range w.all {
		s, want := unpassed(b, s, want)
		got, err := b.Submit(context.Background(), s)
		if (err == nil) != ok {
			w.t.Fatalf("step %d %v: Submit(%+v) err = %v, model ok = %v", step, label(b), s, err, ok)
		}
		if diff := cmp.Diff(want, got); ok && diff != "" {
			w.t.Fatalf("step %d %v: Submit(%+v) (-want +got):\n%s", step, label(b), s, diff)
		}
	}
	if ok && s.RequestID != "" {
		w.sent = append(w.sent, sentWrite{s, want})
	}
}

// retry sends again a write made with a request id, as a caller whose
// reply was lost does: it returns the first result and changes nothing.
func (w *workload) retry(step int) {
	r := w.sent[w.rng.IntN(len(w.sent))]
	for _, b := range w.all {
		s, want := unpassed(b, r.s, r.want)
		r := sentWrite{s, want}
		got, err := b.Submit(context.Background(), r.s)
		if err != nil {
			w.t.Fatalf("step %d %v: retry of %+v: %v", step, label(b), r.s, err)
		}
		if b.Options().Shards > 0 {
			got.Entry.Rank = r.want.Entry.Rank // ranked again over the shards
		}
		if diff := cmp.Diff(r.want, got); diff != "" {
			w.t.Fatalf("step %d %v: retry of %+v (-first result +retry's):\n%s", step, label(b), r.s, diff)
		}
	}
}

func (w *workload) remove(step int) {
	id := w.ids[w.rng.IntN(len(w.ids))]
	_, had := w.model.vals[id]
	delete(w.model.vals, id)
	delete(w.model.hidden, id)
	for _, b := range w.all {
		n, err := b.Remove(context.Background(), id)
		if err != nil || (n == 1) != had {
			w.t.Fatalf("step %d %v: Remove(%q) = %d, %v; model had it: %v", step, label(b), id, n, err, had)
		}
	}
}

// hideOrShow hides a member, or shows one hidden, on every board and in
// the model.
func (w *workload) hideOrShow(step int) {
	id := w.ids[w.rng.IntN(len(w.ids))]
	_, on := w.model.vals[id]
	hide := w.rng.IntN(2) == 0
	want := int64(0)
	if on && w.model.hidden[id] != hide {
		want = 1
		w.model.hidden[id] = hide
	}
	for _, b := range w.all {
		f := b.Show
		if hide {
			f = b.Hide
		}
		if n, err := f(context.Background(), id); err != nil || n != want {
			w.t.Fatalf("step %d %v: hide %v of %q = %d, %v; want %d", step, label(b), hide, id, n, err, want)
		}
	}
}

// read compares one randomly chosen read on every board with the model.
func (w *workload) read(step int) {
	ctx := context.Background()
	id := w.ids[w.rng.IntN(len(w.ids))]
	_, exists := w.model.vals[id]
	had := exists && !w.model.hidden[id]   // as others see it
	self := w.hiding && w.rng.IntN(2) == 0 // a Get on the member's own behalf
	n, off := 1+w.rng.IntN(6), w.rng.IntN(len(w.ids)+2)
	lo, hi := w.value(0), w.value(0)
	kind := RankKind(w.rng.IntN(4))
	if kind == Dense && !w.dense {
		kind = Competition
	}
	opts := w.readOptions()
	if w.rng.IntN(2) == 0 {
		opts = append(opts, WithTotal())
		w.model.ranks.total = true
	}
	subset := w.subset()
	op := w.rng.IntN(8)
	defer func() { w.model.ranks = readConfig{} }()
	for _, b := range w.all {
		var want, got any
		var err error
		found := had // whether the read must find id
		switch op {
		case 0:
			want, got = w.model.rank(id, kind), int64(0)
			got, err = b.Rank(ctx, id, kind)
		case 1:
			want = w.model.page(off, n)
			got, err = b.Page(ctx, int64(off), n, opts...)
		case 2:
			if !had {
				continue
			}
			want = w.model.around(id, n)
			got, err = b.Around(ctx, id, n, opts...)
		case 3:
			want = w.model.between(lo, hi, off%3, n)
			got, err = b.Between(ctx, lo, hi, int64(off%3), n, opts...)
		case 4:
			want = w.model.page(0, len(w.ids))
			got, err = scanAll(ctx, b, n, opts...)
		case 5:
			gopts := opts
			if self {
				gopts, found = append(opts[:len(opts):len(opts)], AsSelf()), exists
				w.model.self = id
			}
			want = w.model.find(id)
			w.model.self = ""
			got, err = b.Get(ctx, id, gopts...)
			if !found && !errors.Is(err, ErrNotFound) {
				w.t.Fatalf("step %d %v: Get(%q) of an id absent (or hidden) to the reader: err = %v, want ErrNotFound", step, label(b), id, err)
			}
		case 6:
			want = w.model.among(subset)
			got, err = b.Among(ctx, subset, opts...)
		default:
			want = w.model.visible()
			got, err = b.Len(ctx)
		}
		if !found && errors.Is(err, ErrNotFound) {
			continue // an absent id: Get and Rank must say so
		}
		if err != nil {
			w.t.Fatalf("step %d %v: read: %v", step, label(b), err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			w.t.Fatalf("step %d %v: read %s (-want +got):\n%s", step, label(b), fmt.Sprint(id, n, off, lo, hi, kind), diff)
		}
	}
}

// readOptions draws the extra ranks of a read (none, competition,
// modified competition, or all where the boards keep dense ranks) and
// tells the model.
func (w *workload) readOptions() []ReadOption {
	switch w.rng.IntN(4) {
	case 1:
		w.model.ranks = readConfig{comp: true}
		return []ReadOption{WithRanks(Competition)}
	case 2:
		w.model.ranks = readConfig{mod: true}
		return []ReadOption{WithRanks(ModifiedCompetition)}
	case 3:
		if w.dense {
			w.model.ranks = readConfig{comp: true, dense: true, mod: true}
			return []ReadOption{WithRanks(Ordinal, Dense, Competition, ModifiedCompetition)}
		}
		w.model.ranks = readConfig{comp: true, mod: true}
		return []ReadOption{WithRanks(Competition, ModifiedCompetition)}
	}
	return nil
}

// subset draws the ids of an Among: some on the board, some not, some
// twice.
func (w *workload) subset() []string {
	out := make([]string, 1+w.rng.IntN(min(len(w.ids), 40)))
	for i := range out {
		out[i] = w.ids[w.rng.IntN(len(w.ids))]
	}
	return out
}

// scanAll pages through the whole board with Scan, n entries a page.
func scanAll(ctx context.Context, b anyBoard, n int, opts ...ReadOption) (List, error) {
	l := List{Entries: []Entry{}}
	var c string
	for {
		p, err := b.Scan(ctx, c, n, opts...)
		if err != nil {
			return l, err
		}
		l.Entries, l.Total = append(l.Entries, p.Entries...), p.Total
		if p.Next == "" {
			return l, nil
		}
		c = p.Next
	}
}

// unpassed is s and its result without the ids passed on a sharded board,
// which refuses to give them (Submission.Overtaken).
func unpassed(b *Board, s Submission, want Result) (Submission, Result) {
	if b.Options().Shards > 0 {
		s.Overtaken, want.Overtaken = 0, nil
	}
	return s, want
}

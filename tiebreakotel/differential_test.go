package tiebreakotel_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
)

// boardKinds are board's sentinels as error.type names them, those that
// wrap another first.
var boardKinds = []struct {
	err  error
	name string
}{
	{board.ErrConflict, "board.ErrConflict"},
	{board.ErrConflict, "board.ErrConflict"},
	{board.ErrNotReplicated, "board.ErrNotReplicated"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrOptions, "board.ErrOptions"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrNotFound, "board.ErrNotFound"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrArgument, "board.ErrArgument"},
	{board.ErrMismatch, "board.ErrMismatch"},
	{board.ErrMismatch, "board.ErrMismatch"},
	{board.ErrMigrating, "board.ErrMigrating"},
	{board.ErrRedis, "board.ErrRedis"},
	{board.ErrReply, "board.ErrReply"},
}

// boardKind is the error.type of err: its sentinel's name, the context's
// error's, or _OTHER.
func boardKind(err error) string {
	for _, k := range boardKinds {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "context.Canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "context.DeadlineExceeded"
	}
	return "_OTHER"
}

// expect is what one call's span must say, from what the call returned.
type expect struct {
	op    string
	err   error
	attrs map[attribute.Key]attribute.Value // result attributes, beside those of every span
}

var errFromFunc = errors.New("the update function refused")

// TestBoardSpansAndMetricsMatchResults runs random board calls (Submit,
// Get, Rank, Top, Around, Remove, Len, Update, SubmitMany, Page, Between,
// Scan, Among, SetData), valid and not, and checks each call's span against what the call returned (name,
// n, rank, count, changed, attempts, error.type and status), then the
// metrics against the calls made: one duration per call, one error per
// failed call, by operation and error.type.
func TestBoardSpansAndMetricsMatchResults(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	b, err := board.New(ctx, r.client, env.Prefix+"_random", testLayout(t), board.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("random source: rand.NewPCG(%d, 0)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	ids := []string{"ada", "bob", "cy", "dee", "eve", "fox"}
	id := func() string {
		if rng.IntN(12) == 0 {
			return "" // ErrID
		}
		return ids[rng.IntN(len(ids))]
	}
	value := func() float64 {
		if rng.IntN(15) == 0 {
			return 1 << 21 // over the field: ErrValue
		}
		return float64(rng.IntN(1 << 20))
	}
	n := func() int { return rng.IntN(8) } // 0: ErrArgument

	calls := make(map[string]uint64)
	failures := make(map[[2]string]int64)
	for i := range 400 {
		var e expect
		switch rng.IntN(15) {
		case 0, 1:
			s := board.Submission{ID: id(), Values: []float64{value(), value()}, Policy: board.Policy(rng.IntN(3))}
			res, err := b.Submit(ctx, s)
			e = expect{op: "Submit", err: err}
			if err == nil {
				e.attrs = map[attribute.Key]attribute.Value{
					"tiebreak.rank": attribute.Int64Value(res.Entry.Rank), "tiebreak.changed": attribute.BoolValue(res.Changed),
					"tiebreak.trimmed": attribute.BoolValue(res.Trimmed), "tiebreak.policy": attribute.StringValue(s.Policy.String()),
				}
			}
		case 2:
			got, err := b.Get(ctx, id())
			e = expect{op: "Get", err: err}
			if err == nil {
				e.attrs = map[attribute.Key]attribute.Value{"tiebreak.rank": attribute.Int64Value(got.Rank)}
			}
		case 3:
			kind := board.RankKind(rng.IntN(3)) // Dense: ErrDenseDisabled
			rank, err := b.Rank(ctx, id(), kind)
			e = expect{op: "Rank", err: err, attrs: map[attribute.Key]attribute.Value{"tiebreak.policy": attribute.StringValue(kind.String())}}
			if err == nil {
				e.attrs["tiebreak.rank"] = attribute.Int64Value(rank)
			}
		case 4:
			k := n()
			l, err := b.Top(ctx, k)
			e = expect{op: "Top", err: err, attrs: nAttr(k)}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(l.Entries)))
			}
		case 5:
			k := n()
			l, err := b.Around(ctx, id(), k)
			e = expect{op: "Around", err: err, attrs: nAttr(k)}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(l.Entries)))
			}
		case 6:
			rm := []string{id(), id()}
			removed, err := b.Remove(ctx, rm...)
			e = expect{op: "Remove", err: err, attrs: nAttr(len(rm))}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(removed)
			}
		case 7:
			size, err := b.Len(ctx)
			e = expect{op: "Len", err: err, attrs: map[attribute.Key]attribute.Value{"tiebreak.count": attribute.Int64Value(size)}}
		case 8:
			refuse := rng.IntN(4) == 0
			res, err := b.Update(ctx, id(), func(old *board.Entry) ([]float64, error) {
				if refuse {
					return nil, errFromFunc
				}
				if old == nil {
					return []float64{1, 1}, nil
				}
				return []float64{min(old.Values[0]+1, 1<<20-1), old.Values[1]}, nil
			})
			e = expect{op: "Update", err: err}
			if err == nil {
				e.attrs = map[attribute.Key]attribute.Value{
					"tiebreak.rank": attribute.Int64Value(res.Entry.Rank), "tiebreak.changed": attribute.BoolValue(res.Changed),
					"tiebreak.update.attempts": attribute.IntValue(1), "tiebreak.update.conflicts": attribute.IntValue(0),
				}
			}
		case 9:
			subs := make([]board.Submission, 1+rng.IntN(3))
			for j := range subs {
				subs[j] = board.Submission{ID: id(), Values: []float64{value(), value()}}
			}
			rs := b.SubmitMany(ctx, subs)
			e = expect{op: "SubmitMany", attrs: nAttr(len(subs))}
			written := 0
			for _, r := range rs {
				if r.Err == nil {
					written++
				} else if e.err == nil {
					e.err = r.Err // the span reports the first failure
				}
			}
			e.attrs["tiebreak.count"] = attribute.Int64Value(int64(written))
		case 10:
			k := n()
			l, err := b.Page(ctx, int64(rng.IntN(4)), k)
			e = expect{op: "Page", err: err, attrs: nAttr(k)}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(l.Entries)))
			}
		case 11:
			k := n()
			lo := value()
			l, err := b.Between(ctx, lo, lo+float64(rng.IntN(1<<19)), 0, k)
			e = expect{op: "Between", err: err, attrs: nAttr(k)}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(l.Entries)))
			}
		case 12:
			k := n()
			p, err := b.Scan(ctx, "", k)
			e = expect{op: "Scan", err: err, attrs: nAttr(k)}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(p.Entries)))
			}
		case 13:
			among := []string{id(), id(), id()}
			l, err := b.Among(ctx, among)
			e = expect{op: "Among", err: err, attrs: nAttr(len(among))}
			if err == nil {
				e.attrs["tiebreak.count"] = attribute.Int64Value(int64(len(l.Entries)))
			}
		case 14:
			err := b.SetData(ctx, id(), []byte("level 3"))
			e = expect{op: "SetData", err: err}
		}
		checkSpan(t, r, i, e)
		calls[e.op]++
		if e.err != nil {
			failures[[2]string{e.op, boardKind(e.err)}]++
		}
	}

	rm := r.metrics(t)
	for op, want := range calls {
		if got := histCount(t, rm, tiebreakotel.DurationMetric, attribute.String("db.operation.name", "board."+op)); got != want {
			t.Errorf("duration of board.%s recorded %d times, want %d (one per call)", op, got, want)
		}
	}
	var total int64
	for k, want := range failures {
		total += want
		got := counter(t, rm, tiebreakotel.ErrorsMetric, attribute.String("db.operation.name", "board."+k[0]), attribute.String("error.type", k[1]))
		if got != want {
			t.Errorf("errors{board.%s, %s} = %d, want %d", k[0], k[1], got, want)
		}
	}
	if got := counter(t, rm, tiebreakotel.ErrorsMetric); got != total || total == 0 {
		t.Errorf("errors in all = %d, want %d, more than 0", got, total)
	}
	t.Logf("%d calls, %d failed, by kind: %v", 400, total, failures)
}

// nAttr is the attribute tiebreak.n of a call for n, none for 0.
func nAttr(n int) map[attribute.Key]attribute.Value {
	if n == 0 {
		return map[attribute.Key]attribute.Value{}
	}
	return map[attribute.Key]attribute.Value{"tiebreak.n": attribute.Int64Value(int64(n))}
}

// checkSpan checks the one span the i-th call made against e.
func checkSpan(t *testing.T, r *rig, i int, e expect) {
	t.Helper()
	ours := r.ours(0)
	if len(ours) != i+1 {
		t.Fatalf("call %d (%s): %d spans of the observer in all, want %d", i, e.op, len(ours), i+1)
	}
	s := ours[i]
	got := attrs(s)
	if s.Name() != "board."+e.op || got["db.operation.name"] != attribute.StringValue("board."+e.op) {
		t.Fatalf("call %d: span %q (db.operation.name %v), want board.%s", i, s.Name(), got["db.operation.name"].Emit(), e.op)
	}
	for k, v := range e.attrs {
		if got[k] != v {
			t.Errorf("call %d (%s, err %v): %s = %q, want %q", i, e.op, e.err, k, got[k].Emit(), v.Emit())
		}
	}
	kind, has := got["error.type"]
	switch {
	case e.err == nil && (has || s.Status().Code == codes.Error):
		t.Errorf("call %d (%s) succeeded; its span says error.type %q, status %v", i, e.op, kind.Emit(), s.Status().Code)
	case e.err != nil && (kind.AsString() != boardKind(e.err) || s.Status().Code != codes.Error):
		t.Errorf("call %d (%s): error %v; span error.type %q, status %v, want %q, Error", i, e.op, e.err, kind.Emit(), s.Status().Code, boardKind(e.err))
	case e.err != nil:
		for _, k := range []attribute.Key{"tiebreak.rank", "tiebreak.changed"} {
			if _, ok := got[k]; ok {
				t.Errorf("call %d (%s) failed (%v) yet reports %s", i, e.op, e.err, k)
			}
		}
	}
}

package tiebreakotel_test

import (
	"context"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/league"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// call is one operation of a test table: it returns the count its span
// must report (-1: none) and its error, and names the error.type its span
// must hold ("" when it succeeds).
type call struct {
	name string
	run  func(ctx context.Context) (int64, error)
	kind string
}

// checkCalls runs each call under a caller's span and checks its span:
// named for it, a child of the caller's, over the client's command spans
// (none when it failed before Redis), with the object's name, the count
// and the error.type.
func checkCalls(t *testing.T, r *rig, object string, calls []call) {
	t.Helper()
	for i, c := range calls {
		ctx, parent := r.tp.Tracer("test").Start(t.Context(), "request")
		from := len(r.spans.Ended())
		count, err := c.run(ctx)
		parent.End()
		ours := r.ours(from)
		if len(ours) != 1 || ours[0].Name() != c.name {
			t.Fatalf("call %d: %d spans of the observer, want one %s", i, len(ours), c.name)
		}
		s := ours[0]
		got := attrs(s)
		if s.Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("call %d (%s): not a child of the caller's span", i, c.name)
		}
		cmds := r.children(s.SpanContext())
		for _, cmd := range cmds {
			if cmd.SpanKind() != trace.SpanKindClient {
				t.Errorf("call %d (%s): child %q of kind %v, want command spans", i, c.name, cmd.Name(), cmd.SpanKind())
			}
		}
		if len(r.children(parent.SpanContext())) != 1 {
			t.Errorf("call %d (%s): %d spans under the caller's, want its one span", i, c.name, len(r.children(parent.SpanContext())))
		}
		if got["db.collection.name"] != attribute.StringValue(object) {
			t.Errorf("call %d (%s): db.collection.name %q, want %q", i, c.name, got["db.collection.name"].Emit(), object)
		}
		switch {
		case c.kind == "" && err != nil:
			t.Fatalf("call %d (%s): %v", i, c.name, err)
		case c.kind != "" && err == nil:
			t.Fatalf("call %d (%s) succeeded, want an error of %s", i, c.name, c.kind)
		case got["error.type"].AsString() != c.kind:
			t.Errorf("call %d (%s): error %v, error.type %q, want %q", i, c.name, err, got["error.type"].Emit(), c.kind)
		case c.kind == "" && len(cmds) == 0:
			t.Errorf("call %d (%s): no command span under it", i, c.name)
		}
		_, counted := got["tiebreak.count"]
		switch {
		case c.kind != "" && counted: // a failed call's result counts nothing
			t.Errorf("call %d (%s) failed (%s) with tiebreak.count %q, want none", i, c.name, c.kind, got["tiebreak.count"].Emit())
		case c.kind == "" && count >= 0 && got["tiebreak.count"] != attribute.Int64Value(count):
			t.Errorf("call %d (%s): tiebreak.count %q, want %d", i, c.name, got["tiebreak.count"].Emit(), count)
		}
	}
}

// TestTimelineSpans: every timeline operation, ok and failing, makes its
// span over its commands, with the count it returned.
func TestTimelineSpans(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	room := env.Prefix + "_room"
	tl, err := timeline.New(r.client, room, tsid.TSID, timeline.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	const first = uint64(640436544564866084)
	msgs := make([]timeline.Message[uint64], 9)
	for i := range msgs {
		msgs[i] = timeline.Message[uint64]{ID: first + 1 + uint64(i), Payload: []byte("hi")}
	}
	page := func(p timeline.Page[uint64], err error) (int64, error) { return int64(len(p.Messages)), err }
	checkCalls(t, r, room, []call{
		{"timeline.Append", func(ctx context.Context) (int64, error) { return -1, tl.Append(ctx, first, []byte("first")) }, ""},
		{"timeline.AppendMany", func(ctx context.Context) (int64, error) { return -1, tl.AppendMany(ctx, msgs) }, ""},
		{"timeline.Append", func(ctx context.Context) (int64, error) { return -1, tl.Append(ctx, first+20, nil) }, "timeline.ErrPayload"},
		{"timeline.Latest", func(ctx context.Context) (int64, error) { return page(tl.Latest(ctx, 4)) }, ""},
		{"timeline.Oldest", func(ctx context.Context) (int64, error) { return page(tl.Oldest(ctx, 3)) }, ""},
		{"timeline.Before", func(ctx context.Context) (int64, error) { return page(tl.Before(ctx, first+5, 50)) }, ""},
		{"timeline.After", func(ctx context.Context) (int64, error) { return page(tl.After(ctx, first+5, 2)) }, ""},
		{"timeline.Before", func(ctx context.Context) (int64, error) { return page(tl.Before(ctx, first+5, -1)) }, "timeline.ErrPageSize"},
		{"timeline.Around", func(ctx context.Context) (int64, error) {
			w, err := tl.Around(ctx, first+5, 3)
			return int64(len(w.Messages)), err
		}, ""},
		{"timeline.Get", func(ctx context.Context) (int64, error) { _, err := tl.Get(ctx, first+3); return -1, err }, ""},
		{"timeline.Get", func(ctx context.Context) (int64, error) { _, err := tl.Get(ctx, first+99); return -1, err }, "timeline.ErrNotFound"},
		{"timeline.Remove", func(ctx context.Context) (int64, error) { return tl.Remove(ctx, first, first+99) }, ""},
		{"timeline.Len", func(ctx context.Context) (int64, error) { return tl.Len(ctx) }, ""},
		{"timeline.Drop", func(ctx context.Context) (int64, error) { return -1, tl.Drop(ctx) }, ""},
	})
}

// TestDecimalMapSpans: every decimal map operation, ok and failing, makes
// its span over its commands, with the count it returned.
func TestDecimalMapSpans(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	name := env.Prefix + "_prices"
	m, err := decimalmap.New(r.client, name, decimalmap.Options{Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	entries := func(es []decimalmap.Entry, err error) (int64, error) { return int64(len(es)), err }
	checkCalls(t, r, name, []call{
		{"decimalmap.Add", func(ctx context.Context) (int64, error) { return m.Add(ctx, "25500.1", "a", "b") }, ""},
		{"decimalmap.Add", func(ctx context.Context) (int64, error) { return m.Add(ctx, "25500.10", "c") }, ""},
		{"decimalmap.Add", func(ctx context.Context) (int64, error) { return m.Add(ctx, "99.5", "d") }, ""},
		{"decimalmap.Add", func(ctx context.Context) (int64, error) { return m.Add(ctx, "not a number", "e") }, "decimalmap.ErrKey"},
		{"decimalmap.Get", func(ctx context.Context) (int64, error) {
			vs, err := m.Get(ctx, "2.55001E4")
			return int64(len(vs)), err
		}, ""},
		{"decimalmap.Range", func(ctx context.Context) (int64, error) { return entries(m.Range(ctx, decimalmap.Query{})) }, ""},
		{"decimalmap.Range", func(ctx context.Context) (int64, error) {
			return entries(m.Range(ctx, decimalmap.Query{Min: decimalmap.Exclusive("100")}))
		}, ""},
		{"decimalmap.Range", func(ctx context.Context) (int64, error) { return entries(m.Range(ctx, decimalmap.Query{Limit: -1})) }, "decimalmap.ErrArgument"},
		{"decimalmap.Scan", func(ctx context.Context) (int64, error) {
			p, err := m.Scan(ctx, "", 1)
			return int64(len(p.Entries)), err
		}, ""},
		{"decimalmap.RemoveValue", func(ctx context.Context) (int64, error) { _, err := m.RemoveValue(ctx, "25500.1", "b"); return -1, err }, ""},
		{"decimalmap.Remove", func(ctx context.Context) (int64, error) { return m.Remove(ctx, "99.5", "1") }, ""},
		{"decimalmap.Len", func(ctx context.Context) (int64, error) { return m.Len(ctx) }, ""},
		{"decimalmap.Drop", func(ctx context.Context) (int64, error) { return -1, m.Drop(ctx) }, ""},
	})
}

// TestCompetitionSpans: a tournament's Join and Entrant, and a league's
// Submit and Roll, ok and refused, each make one span over its commands
// (a roll's reads of its cohorts included), with the error's sentinel.
func TestCompetitionSpans(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	l, err := pack.NewLayout(pack.Field{Name: "points", Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	cup, err := board.New(t.Context(), r.client, env.Prefix+"_cup", l, board.Options{Observer: r.obs, Rules: board.Rules{MaxMembers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	shadow, err := board.New(t.Context(), r.client, env.Prefix+"_shadow", l, board.Options{Observer: r.obs, Hiding: true})
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, r, shadow.Name(), []call{
		{"board.Submit", func(ctx context.Context) (int64, error) {
			_, err := shadow.Submit(ctx, board.Submission{ID: "eve", Values: []float64{1}, RequestID: "r1"})
			return -1, err
		}, ""},
		{"board.Hide", func(ctx context.Context) (int64, error) { return shadow.Hide(ctx, "eve") }, ""},
		{"board.Show", func(ctx context.Context) (int64, error) { return shadow.Show(ctx, "eve") }, ""},
		{"board.Hide", func(ctx context.Context) (int64, error) { return shadow.Hide(ctx, "") }, "board.ErrArgument"},
	})
	checkCalls(t, r, cup.Name(), []call{
		{"board.Join", func(ctx context.Context) (int64, error) { return -1, cup.Join(ctx, "ann") }, ""},
		{"board.Join", func(ctx context.Context) (int64, error) { return -1, cup.Join(ctx, "bob") }, "board.ErrFull"},
		{"board.Entrant", func(ctx context.Context) (int64, error) { _, err := cup.Entrant(ctx, "ann"); return -1, err }, ""},
	})
	origin := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	lg, err := league.New(t.Context(), r.client, env.Prefix+"_lg", l, board.Every(time.Hour).From(origin), league.Options{Board: board.Options{Observer: r.obs}, Promote: league.Zone{Count: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s := lg.At(origin)
	sub := board.Submission{ID: "ann", Values: []float64{3}}
	checkCalls(t, r, lg.Name()+":"+s.Window().Label, []call{
		{"league.Season.Submit", func(ctx context.Context) (int64, error) { _, err := s.Submit(ctx, sub); return -1, err }, ""},
		{"league.Season.Roll", func(ctx context.Context) (int64, error) { return -1, s.Roll(ctx) }, ""},
		{"league.Season.Submit", func(ctx context.Context) (int64, error) { _, err := s.Submit(ctx, sub); return -1, err }, "league.ErrClosed"},
	})
}

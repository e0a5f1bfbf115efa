package tiebreakotel_test

import (
	"context"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"go.opentelemetry.io/otel/trace"
)

// TestClusterNesting: on a three-master cluster, through a
// rueidisotel-wrapped cluster client, a board's Submit, a group's Submit,
// a Top, a limiter's Allow, a group's Remove and a Drop each make one
// span under the caller's, over the command spans of the node its keys
// live on.
func TestClusterNesting(t *testing.T) {
	env := redistest.NewCluster(t, 3)
	r := newRig(t, env.Client)
	ctx := t.Context()
	l := testLayout(t)
	group := env.Prefix + "_g"
	daily, err := board.New(ctx, r.client, env.Prefix+"_daily", l, board.Options{Observer: r.obs, Group: group, SharedData: true})
	if err != nil {
		t.Fatal(err)
	}
	weekly, err := board.New(ctx, r.client, env.Prefix+"_weekly", l, board.Options{Observer: r.obs, Group: group})
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGroup(daily, weekly)
	if err != nil {
		t.Fatal(err)
	}
	lim, err := ratelimit.New(r.client, ratelimit.Options{Prefix: env.Prefix + ":rl:", Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"board.Submit", func(c context.Context) error {
			_, err := daily.Submit(c, board.Submission{ID: "ada", Values: []float64{3, 4}, Fields: []board.Policy{board.Add, board.Max}})
			return err
		}},
		{"board.Group.Submit", func(c context.Context) error {
			_, err := g.Submit(c, []board.Submission{{ID: "bob", Values: []float64{5, 1}}, {ID: "bob", Values: []float64{9, 1}}})
			return err
		}},
		{"board.Top", func(c context.Context) error { _, err := weekly.Top(c, 10); return err }},
		{"ratelimit.Allow", func(c context.Context) error {
			_, err := lim.Allow(c, "ada", ratelimit.Limit{N: 3, Window: time.Minute})
			return err
		}},
		{"board.Group.Remove", func(c context.Context) error { _, err := g.Remove(c, "bob"); return err }},
		{"board.Drop", func(c context.Context) error { return weekly.Drop(c) }},
	}
	for _, c := range calls {
		cctx, parent := r.tp.Tracer("test").Start(ctx, "request")
		from := len(r.spans.Ended())
		err := c.run(cctx)
		parent.End()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ours := r.ours(from)
		if len(ours) != 1 || ours[0].Name() != c.name {
			t.Fatalf("%s: %d spans of the observer, want one", c.name, len(ours))
		}
		if ours[0].Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("%s: not under the caller's span", c.name)
		}
		cmds := r.children(ours[0].SpanContext())
		if len(cmds) == 0 {
			t.Errorf("%s: no command span under it", c.name)
		}
		for _, cmd := range cmds {
			if cmd.SpanKind() != trace.SpanKindClient {
				t.Errorf("%s: child %q of kind %v", c.name, cmd.Name(), cmd.SpanKind())
			}
		}
		if n := len(r.children(parent.SpanContext())); n != 1 {
			t.Errorf("%s: %d spans under the caller's, want 1", c.name, n)
		}
	}
}

package tiebreakotel_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"go.opentelemetry.io/otel/attribute"
)

// A sharded board's call makes one span, named board.<call> as any board's, under
// the caller's and over the commands of every shard it asks; the shards'
// own handles make none.
func TestShardedBoardSpans(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	sb, err := board.New(t.Context(), r.client, env.Prefix+"_sharded", testLayout(t), board.Options{Shards: 3, Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ann", "bob", "cyd", "dee"} {
		if _, err := sb.Submit(t.Context(), board.Submission{ID: id, Values: []float64{float64(len(id) * 7), 1}}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, parent := r.tp.Tracer("test").Start(t.Context(), "request")
	from := len(r.spans.Ended())
	res, err := sb.Submit(ctx, board.Submission{ID: "eve", Values: []float64{30, 2}, Policy: board.Best})
	if err != nil {
		t.Fatal(err)
	}
	top, err := sb.Top(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, absent := sb.Get(ctx, "zed")
	parent.End()
	if !errors.Is(absent, board.ErrNotFound) {
		t.Fatalf("Get of an absent id: %v", absent)
	}
	ours := r.ours(from)
	var names []string
	for _, s := range ours {
		names = append(names, s.Name())
		if s.Parent().SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("%s: parent %v, want the caller's span", s.Name(), s.Parent().SpanID())
		}
		if len(r.children(s.SpanContext())) == 0 {
			t.Errorf("%s: no command span under it", s.Name())
		}
	}
	if diff := cmp.Diff([]string{"board.Submit", "board.Top", "board.Get"}, names); diff != "" {
		t.Fatalf("spans (-want +got):\n%s", diff)
	}
	eq := cmp.Comparer(func(a, b attribute.Value) bool { return a == b })
	checks := []struct {
		key  attribute.Key
		want attribute.Value
	}{
		{"tiebreak.rank", attribute.Int64Value(res.Entry.Rank)},
		{"tiebreak.policy", attribute.StringValue("Best")},
	}
	for _, c := range checks {
		if got := attrs(ours[0])[c.key]; !cmp.Equal(c.want, got, eq) {
			t.Errorf("Submit span %s = %v, want %v", c.key, got, c.want)
		}
	}
	if got := attrs(ours[1])["tiebreak.count"]; got != attribute.Int64Value(int64(len(top.Entries))) {
		t.Errorf("Top span count = %v, want %d", got, len(top.Entries))
	}
	if got := attrs(ours[2])["error.type"]; got != attribute.StringValue("board.ErrNotFound") {
		t.Errorf("Get span error.type = %v, want board.ErrNotFound", got)
	}
}

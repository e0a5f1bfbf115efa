package tiebreakotel_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tiebreakotel"
	"go.opentelemetry.io/otel/attribute"
)

// TestLimiterAdmitsAndRefusals runs random AllowN calls on a few keys and
// checks that the admits and refusals counters move by exactly one per
// call, as the call's Result says, and that each span says allowed,
// remaining, n, key and limit; a call no window can admit
// (ErrExceedsLimit) moves neither counter and counts as an error.
func TestLimiterAdmitsAndRefusals(t *testing.T) {
	env := redistest.New(t)
	r := newRig(t, env.Client)
	ctx := t.Context()
	prefix := env.Prefix + ":rl:"
	l, err := ratelimit.New(r.client, ratelimit.Options{Prefix: prefix, Observer: r.obs})
	if err != nil {
		t.Fatal(err)
	}
	limit := ratelimit.Limit{N: 6, Window: time.Hour}
	seed := rand.Uint64()
	t.Logf("random source: rand.NewPCG(%d, 0)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	keys := []string{"alice", "bob", "carol"}
	coll := attribute.String("db.collection.name", prefix)
	var admits, refusals, exceeded int64
	for i := range 60 {
		key, n := keys[rng.IntN(len(keys))], 1+rng.IntN(limit.N+1) // limit.N+1: ErrExceedsLimit
		from := len(r.spans.Ended())
		before := r.metrics(t)
		var res ratelimit.Result
		var err error
		name := "ratelimit.AllowN"
		if n == 1 && rng.IntN(2) == 0 {
			name = "ratelimit.Allow"
			res, err = l.Allow(ctx, key, limit)
		} else {
			res, err = l.AllowN(ctx, key, limit, n)
		}
		after := r.metrics(t)
		dAdmits := counter(t, after, tiebreakotel.AdmitsMetric, coll) - counter(t, before, tiebreakotel.AdmitsMetric, coll)
		dRefusals := counter(t, after, tiebreakotel.RefusalsMetric, coll) - counter(t, before, tiebreakotel.RefusalsMetric, coll)
		ours := r.ours(from)
		if len(ours) != 1 || ours[0].Name() != name {
			t.Fatalf("call %d: %d spans, want one %s", i, len(ours), name)
		}
		got := attrs(ours[0])
		for k, v := range map[attribute.Key]attribute.Value{
			"tiebreak.key": attribute.StringValue(key), "tiebreak.n": attribute.Int64Value(int64(n)),
			"tiebreak.policy": attribute.StringValue(limit.String()), "db.collection.name": attribute.StringValue(prefix),
		} {
			if got[k] != v {
				t.Errorf("call %d: %s = %q, want %q", i, k, got[k].Emit(), v.Emit())
			}
		}
		switch {
		case errors.Is(err, ratelimit.ErrExceedsLimit):
			exceeded++
			if dAdmits != 0 || dRefusals != 0 || got["error.type"] != attribute.StringValue("ratelimit.ErrExceedsLimit") {
				t.Errorf("call %d: n = %d over the limit: admits +%d, refusals +%d, error.type %q; want +0, +0, ratelimit.ErrExceedsLimit",
					i, n, dAdmits, dRefusals, got["error.type"].Emit())
			}
		case err != nil:
			t.Fatalf("call %d: %v", i, err)
		case res.Allowed > 0:
			admits++
			if dAdmits != 1 || dRefusals != 0 || got["tiebreak.allowed"] != attribute.BoolValue(true) {
				t.Errorf("call %d admitted: admits +%d, refusals +%d, allowed %q; want +1, +0, true", i, dAdmits, dRefusals, got["tiebreak.allowed"].Emit())
			}
		default:
			refusals++
			if dAdmits != 0 || dRefusals != 1 || got["tiebreak.allowed"] != attribute.BoolValue(false) {
				t.Errorf("call %d refused: admits +%d, refusals +%d, allowed %q; want +0, +1, false", i, dAdmits, dRefusals, got["tiebreak.allowed"].Emit())
			}
		}
		if err == nil && got["tiebreak.count"] != attribute.Int64Value(int64(res.Remaining)) {
			t.Errorf("call %d: tiebreak.count = %q, want Remaining = %d", i, got["tiebreak.count"].Emit(), res.Remaining)
		}
	}
	if admits == 0 || refusals == 0 || exceeded == 0 {
		t.Errorf("%d admitted, %d refused, %d over the limit: the run missed a case", admits, refusals, exceeded)
	}
	from := len(r.spans.Ended())
	if err := l.Reset(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if ours := r.ours(from); len(ours) != 1 || ours[0].Name() != "ratelimit.Reset" || attrs(ours[0])["tiebreak.key"] != attribute.StringValue("alice") {
		t.Errorf("Reset made %d spans, want one ratelimit.Reset with its key", len(ours))
	}
	rm := r.metrics(t)
	if got := counter(t, rm, tiebreakotel.ErrorsMetric, attribute.String("error.type", "ratelimit.ErrExceedsLimit")); got != exceeded {
		t.Errorf("errors{ratelimit.ErrExceedsLimit} = %d, want %d", got, exceeded)
	}
}

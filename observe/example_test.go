package observe_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/observe"
	"github.com/tiebreak/tiebreak/ratelimit"
)

// tally is an Observer that counts operations by name and outcome.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
}

func (t *tally) Start(ctx context.Context, op observe.Op) (context.Context, observe.Span) {
	return ctx, tallySpan{t, op.FullName()}
}

type tallySpan struct {
	t    *tally
	name string
}

func (s tallySpan) End(o observe.Outcome) {
	outcome := "ok"
	switch {
	case o.Err != nil:
		outcome = o.ErrKind
	case o.Has&observe.HasAllowed != 0 && !o.Allowed:
		outcome = "refused"
	}
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	s.t.counts[s.name+" "+outcome]++
}

// An Observer of one's own: a limiter that counts its calls by outcome.
func Example() {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	t := &tally{counts: make(map[string]int)}
	l, err := ratelimit.New(env.Client, ratelimit.Options{Prefix: env.Prefix + ":rl:", Observer: t})
	if err != nil {
		panic(err)
	}
	defer l.Reset(ctx, "ada")

	limit := ratelimit.PerMinute(3)
	for range 5 {
		l.Allow(ctx, "ada", limit)
	}
	l.AllowN(ctx, "ada", limit, 4) // more than the limit: an error
	l.Allow(ctx, "", limit)        // no key: an error

	fmt.Println(t.counts["ratelimit.Allow ok"], t.counts["ratelimit.Allow refused"],
		t.counts["ratelimit.AllowN ratelimit.ErrExceedsLimit"], t.counts["ratelimit.Allow ratelimit.ErrKey"])
	// Output: 3 2 1 1
}

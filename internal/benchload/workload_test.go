package benchload

import (
	"context"
	"slices"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redisops"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// tiny is every workload at its smallest: a second or two for all.
func tiny() Config {
	c := Defaults(true)
	for k, v := range map[string]string{"sizes": "200,1000", "ids": "300", "hot": "10", "members": "2000", "messages": "1000",
		"sharded-board": "2000", "sharded-shards": "1,4", "sharded-cpu-writes": "200"} {
		c = c.With(k, v)
	}
	c.Concurrency = 4
	return c
}

// TestEveryFixtureTiny builds every workload's fixture against real Redis,
// checks that it makes the rows and goals it declares, that every goal
// and baseline names a variant of its comparison, runs every variant's
// operation, and checks that Drop leaves no key behind.
func TestEveryFixtureTiny(t *testing.T) {
	for _, w := range Workloads() {
		t.Run(w.Name, func(t *testing.T) {
			env := redistest.New(t)
			ctx := context.Background()
			cfg := tiny()
			f, err := w.Prepare(ctx, Env{Client: env.Client, Prefix: env.Prefix, Logf: t.Logf}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkShape(t, w, f, cfg)
			for _, c := range f.Comparisons {
				for _, v := range c.Variants {
					for range 20 {
						if err := v.Op(ctx); err != nil {
							t.Fatalf("%s %s: %v", c.Name, v.Name, err)
						}
					}
				}
			}
			if err := f.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if keys, err := redisops.ScanKeys(ctx, env.Client, "*"+env.Prefix+"*"); err != nil || len(keys) > 0 {
				t.Errorf("keys left behind: %q (%v)", keys, err)
			}
		})
	}
}

// checkShape checks f's rows and goals against what w declares, and that
// every name a comparison refers to is one of its variants.
func checkShape(t *testing.T, w Workload, f *Fixture, cfg Config) {
	t.Helper()
	rows, goals := len(f.Memory), 0
	for _, m := range f.Memory {
		goals += len(m.Goals)
	}
	for _, c := range f.Comparisons {
		rows += len(c.Variants)
		goals += len(c.Goals)
		var names []string
		for _, v := range c.Variants {
			names = append(names, v.Name)
		}
		for _, v := range c.Variants {
			if !slices.Contains(names, c.BaselineOf(v)) {
				t.Errorf("%s: %s divides by %q, not a variant", c.Name, v.Name, c.BaselineOf(v))
			}
		}
		for _, g := range c.Goals {
			if !slices.Contains(names, g.Variant) || (g.Against != "" && !slices.Contains(names, g.Against)) {
				t.Errorf("%s: goal %q names %q against %q", c.Name, g.Text, g.Variant, g.Against)
			}
		}
	}
	if rows != w.Rows(cfg) || goals != w.Goals(cfg) {
		t.Errorf("%d rows, %d goals; declared %d, %d", rows, goals, w.Rows(cfg), w.Goals(cfg))
	}
}

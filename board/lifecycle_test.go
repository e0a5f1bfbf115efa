package board

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The lifecycle's transitions are the only phase changes the scripts make:
// every step of a kind of meta HASH (a board, a sharded board, a shard) is
// run from every phase that kind passes through, with every other
// precondition of the step met, and a step that changes the phase must be
// a row of transitions; every row is made by some step. (Go runs each
// script on one kind only: begin.lua and switch.lua on a board that is not
// sharded, reshard.lua on a sharded board, export.lua, retire.lua and
// shardpos.lua on a shard.)
func TestLifecycleTransitions(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	const desc, target, token = `{"d":1}`, `{"d":2}`, "tok"
	exec := func(s interface {
		Exec(context.Context, rueidis.Client, []string, []string) rueidis.RedisResult
	}, keys []string, args ...string) error {
		return s.Exec(ctx, env.Client, keys, args).Error()
	}
	gen := func(p string, n int64) []string {
		k := names(p, n)
		return []string{k.z, k.d, k.i, k.v, k.c, k.dirty, k.inflight, k.hist}
	}
	reshard := func(op string) func(p string) error {
		return func(p string) error {
			return exec(reshardScript, []string{p + "meta"}, op, desc, target, token, "3000", "old0")
		}
	}
	export := func(to string) func(p string) error {
		return func(p string) error {
			return exec(exportScript, append(append([]string{p + "meta"}, gen(p, 1)...), gen(p, 2)...), "1", to)
		}
	}
	steps := map[string]func(p string) error{
		"create": func(p string) error { return exec(metaScript, []string{p + "meta", p + "z"}, desc) },
		"begin": func(p string) error {
			from, to := names(p, 1), names(p, 2)
			return exec(beginScript, []string{p + "meta", from.z, from.d, from.v, from.c, from.i, to.z, to.d, to.v, to.c, to.i, from.top}, "1", target, "{}")
		},
		"switch": func(p string) error {
			k := names(p, 1)
			return exec(switchScript, []string{p + "meta", k.z, k.d, k.v, k.c, k.i, k.x, names(p, 2).z, k.top}, "2", "0")
		},
		"clear": func(p string) error {
			k := names(p, 1)
			return exec(clearScript, []string{p + "meta", k.z, k.i, k.v, k.c, k.d}, desc, "1")
		},
		"reshard begin":  reshard("begin"),
		"renew":          reshard("renew"),
		"moved":          reshard("moved"),
		"release":        reshard("release"),
		"revoke":         reshard("revoke"),
		"reshard switch": reshard("switch"),
		"retired":        reshard("retired"),
		"export":         export(string(phaseExporting)),
		"freeze":         export(string(phaseFrozen)),
		"thaw":           export(thaw),
		"retire": func(p string) error {
			return exec(retireScript, append([]string{p + "meta"}, gen(p, 1)...), "1")
		},
		"position": func(p string) error { return exec(shardPos, []string{p + "meta"}, token, "1:x") },
	}
	kinds := []struct {
		name   string
		phases []phase
		steps  []string
	}{
		{"board", []phase{"", phaseLive, phaseMigrating}, []string{"create", "begin", "switch", "clear"}},
		{"sharded board", []phase{"", phaseLive, phaseResharding},
			[]string{"create", "reshard begin", "renew", "moved", "release", "revoke", "reshard switch", "retired"}},
		{"shard", []phase{"", phaseLive, phaseExporting, phaseFrozen, phaseRetired},
			[]string{"create", "export", "freeze", "thaw", "retire", "position", "clear"}},
	}
	allowed := map[[2]string]phase{}
	for _, tr := range transitions {
		allowed[[2]string{string(tr.from), tr.step}] = tr.to
	}
	made := map[[2]string]bool{}
	n := 0
	for _, kind := range kinds {
		for _, from := range kind.phases {
			for _, step := range kind.steps {
				n++
				p := prefixOf("", env.Prefix+"lc"+strconv.Itoa(n))
				if from != "" {
					// every precondition met: the generation, the
					// descriptors, the copy done, the lease and the fence
					// the caller's
					err := env.Client.Do(ctx, env.Client.B().Hset().Key(p+"meta").FieldValue().
						FieldValue(fieldDesc, desc).FieldValue(fieldGen, "1").FieldValue(fieldState, string(from)).
						FieldValue(fieldTarget, target).FieldValue(fieldTGen, "2").FieldValue(fieldDefaults, "{}").
						FieldValue(fieldPScore, positionDone).FieldValue(fieldFence, token).
						FieldValue(fieldLease, token).FieldValue(fieldUntil, "99999999999999").Build()).Error()
					if err != nil {
						t.Fatal(err)
					}
				}
				if err := steps[step](p); err != nil && !isRedisErr(err) { // a refusal (TBFENCED) writes nothing
					t.Fatalf("%s %q, %s: %v", kind.name, from, step, err)
				}
				got, err := env.Client.Do(ctx, env.Client.B().Hget().Key(p+"meta").Field(fieldState).Build()).ToString()
				if err != nil && !rueidis.IsRedisNil(err) {
					t.Fatal(err)
				}
				if phase(got) == from {
					continue
				}
				key := [2]string{string(from), step}
				if to, ok := allowed[key]; !ok || to != phase(got) {
					t.Errorf("%s in phase %q, step %s: moved to %q, not a transition of the lifecycle", kind.name, from, step, got)
				}
				made[key] = true
			}
		}
	}
	for _, tr := range transitions {
		if !made[[2]string{string(tr.from), tr.step}] {
			t.Errorf("transition %q -%s-> %q: made by no step", tr.from, tr.step, tr.to)
		}
	}
}

func isRedisErr(err error) bool {
	_, ok := rueidis.IsRedisErr(err)
	return ok
}

// movedOf reads the field moved of the meta HASH key, as a time (zero when
// absent).
func movedOf(t *testing.T, c rueidis.Client, key string) time.Time {
	t.Helper()
	s, err := c.Do(context.Background(), c.B().Hget().Key(key).Field(fieldMoved).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return time.Time{}
	}
	ms, perr := strconv.ParseInt(s, 10, 64)
	if err != nil || perr != nil {
		t.Fatalf("HGET %s moved = %q: %v %v", key, s, err, perr)
	}
	return time.UnixMilli(ms)
}

// serverNow is the server's clock, in ms.
func serverNow(t *testing.T, c rueidis.Client) time.Time {
	t.Helper()
	ts, err := c.Do(t.Context(), c.B().Time().Build()).AsIntSlice()
	if err != nil || len(ts) != 2 {
		t.Fatalf("TIME: %v %v", ts, err)
	}
	return time.UnixMilli(ts[0]*1000 + ts[1]/1000)
}

// Each step of a migration (begin, every copy step, the switch) stores the
// server's time in the meta HASH's field moved: it advances with each.
func TestMigrateMovedAdvances(t *testing.T) {
	env := redistest.New(t)
	c := migrationCases(t)[1] // add a trailing field
	b := newBoard(t, env.Client, env.Prefix, "moved", c.from, Options{})
	fill(t, b, newModel(c.from), 40, rand.New(rand.NewPCG(3, 3)))
	meta := b.gen.Load().keys.meta
	start := serverNow(t, env.Client)
	if !movedOf(t, env.Client, meta).IsZero() {
		t.Fatal("moved set before any migration")
	}
	var seen []time.Time
	var steps []string
	faultPoint = func(op, step string) {
		if op != "Migrate" || step == "check" {
			return
		}
		seen, steps = append(seen, movedOf(t, env.Client, meta)), append(steps, step)
		time.Sleep(3 * time.Millisecond) // the next step's time is later
	}
	defer func() { faultPoint = nil }()
	t2, err := b.Migrate(t.Context(), c.to, Options{}, MigrateOptions{Batch: 5, Defaults: c.defaults})
	faultPoint = nil
	if err != nil {
		t.Fatal(err)
	}
	final := movedOf(t, env.Client, meta)
	seen, steps = append(seen, final), append(steps, "after")
	if len(steps) < 10 || steps[0] != "begin" || steps[len(steps)-2] != "switch" {
		t.Fatalf("steps %v: want begin, 9 copies, switch", steps)
	}
	prev := start.Add(-time.Millisecond)
	for i, m := range seen[:len(seen)-1] {
		if !m.After(prev) {
			t.Errorf("after step %d (%s): moved %v, not after the previous %v", i, steps[i], m, prev)
		}
		prev = m
	}
	if !final.Equal(seen[len(seen)-2]) || final.After(serverNow(t, env.Client)) {
		t.Errorf("after the switch: moved %v, want the switch's %v", final, seen[len(seen)-2])
	}
	if m, err := t2.readMeta(t.Context(), false); err != nil || m.state != phaseLive {
		t.Errorf("after the switch: state %q, %v; want live", m.state, err)
	}
}

// A resharding stores moved on each old shard's meta HASH (export, copy,
// drain, freeze, retire) and on the sharded board's (begin, the renew
// after a step, switch, retired), the board's last.
func TestReshardMovedAdvances(t *testing.T) {
	env := redistest.New(t)
	b := newSharded(t, env.Client, env.Prefix, "moved", testLayout(t), Options{Shards: 2})
	fillSharded(t, env, b, 60, 4)
	old := b.sh.view.Load().desc.ShardNames
	boardMeta := names(prefixOf("", b.Name()), 0).meta
	start := serverNow(t, env.Client)
	var mu sync.Mutex
	var last time.Time
	faultPoint = func(op, step string) {
		if op != "Reshard" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		m := movedOf(t, env.Client, boardMeta)
		if m.Before(last) || m.Before(start) {
			t.Errorf("at %s: the board's moved %v, before %v or the start %v", step, m, last, start)
		}
		last = m
	}
	defer func() { faultPoint = nil }()
	if _, err := b.Reshard(t.Context(), 3, MigrateOptions{Batch: 7}); err != nil {
		t.Fatal(err)
	}
	faultPoint = nil
	final := movedOf(t, env.Client, boardMeta)
	for _, name := range old {
		m := movedOf(t, env.Client, names(prefixOf("", name), 0).meta)
		if m.Before(start) || m.After(final) {
			t.Errorf("shard %s: moved %v, want between the start %v and the board's %v", name, m, start, final)
		}
	}
	if final.After(serverNow(t, env.Client)) {
		t.Errorf("the board's moved %v is in the future", final)
	}
}

package board

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// The switch checks, inside Redis, that the target holds every entry the
// source holds: a copy whose position skipped entries (as a SCAN cursor
// resumed on a restarted server does) is never switched past; the copy
// starts again and the board ends whole. Without the check, the entries
// skipped here would be lost.
func TestMigrateSwitchChecksTheTarget(t *testing.T) {
	env := redistest.New(t)
	for i, c := range migrationCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, env.Client, env.Prefix, "check"+strconv.Itoa(i), c.from, c.fo)
			src := newModel(c.from)
			data := fill(t, b, src, 600, rand.New(rand.NewPCG(uint64(i), 9)))
			mo := MigrateOptions{Defaults: c.defaults, Batch: 50}
			halfMigrate(t, b, c.to, c.to2, mo)
			// The position jumps ahead, past entries never copied, as a
			// SCAN cursor resumed on a restarted server can.
			ctx := t.Context()
			last, err := b.rc().Do(ctx, b.rc().B().Zrange().Key(b.gen.Load().keys.z).Min("-2").Max("-2").Withscores().Build()).AsZScores()
			if err != nil || len(last) != 1 {
				t.Fatalf("the source's last entries: %v %v", last, err)
			}
			pos := b.rc().B().Hset().Key(b.gen.Load().keys.meta).FieldValue().
				FieldValue("pscore", strconv.FormatFloat(last[0].Score, 'g', 17, 64)).FieldValue("pmember", last[0].Member).Build()
			if err := b.rc().Do(ctx, pos).Error(); err != nil {
				t.Fatal(err)
			}
			recopied := 0
			faultPoint = func(op, step string) {
				if step == "check" {
					recopied++
				}
			}
			defer func() { faultPoint = nil }()
			nb, err := b.Migrate(ctx, c.to, c.to2, mo)
			if err != nil {
				t.Fatal(err)
			}
			// A capped target that already holds its best entries lacks
			// none of those it keeps: the check passes at once.
			if want := 2; recopied != want && (c.to2.Cap == 0 || recopied != 1) {
				t.Errorf("the switch was tried %d times, want %d (a failed check, then a second copy)", recopied, want)
			}
			checkMigrated(t, nb, src, c.from, c.defaults, data)
		})
	}
}

// A migration's copy resumes from its position after the server restarts
// (killed, its append-only file synced at every write): the position is
// data (the last score and member copied), where a SCAN cursor would point
// into a hash table the restarted server no longer has and skip entries.
// Nothing written before, during or after is lost.
func TestMigrateResumesAfterRestart(t *testing.T) {
	srv, client := redistest.Private(t, "--appendonly", "yes", "--appendfsync", "always")
	for i, c := range migrationCases(t)[:4] {
		t.Run(c.name, func(t *testing.T) {
			b := newBoard(t, client, "restart", strconv.Itoa(i), c.from, c.fo)
			src := newModel(c.from)
			data := fill(t, b, src, 3000, rand.New(rand.NewPCG(uint64(i), 11)))
			mo := MigrateOptions{Defaults: c.defaults, Batch: 40}
			halfMigrate(t, b, c.to, c.to2, mo)
			if err := srv.Crash(); err != nil {
				t.Fatal(err)
			}
			if err := srv.Restart(); err != nil {
				t.Fatal(err)
			}
			waitServing(t, b.Len)
			writeDuring(t, b, src, data)
			nb, err := b.Migrate(t.Context(), c.to, c.to2, mo)
			if err != nil {
				t.Fatal(err)
			}
			checkMigrated(t, nb, src, c.from, c.defaults, data)
		})
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// waitServing waits until a server answers length after a restart (it
// answers LOADING while it reads its append-only file).
func waitServing(t *testing.T, length func(context.Context) (int64, error)) {
	t.Helper()
	for i := 0; ; i++ {
		if _, err := length(t.Context()); err == nil {
			return
		} else if i == 3000 {
			t.Fatalf("the restarted server does not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Two processes running the same migration at once share its position,
// each step going further; one switches, and the other, finding the board
// switched to the same settings, succeeds too. Writes go on throughout
// and none is lost.
func TestMigrateRacing(t *testing.T) {
	env := redistest.New(t)
	c := migrationCases(t)[5]
	b := newBoard(t, env.Client, env.Prefix, "race", c.from, c.fo)
	other := newBoard(t, env.Client, env.Prefix, "race", c.from, c.fo)
	src := newModel(c.from)
	data := fill(t, b, src, 3000, rand.New(rand.NewPCG(6, 6)))
	mo := MigrateOptions{Defaults: c.defaults, Batch: 30}
	errs := make(chan error, 2)
	for _, h := range []*Board{b, other} {
		go func() {
			_, err := h.Migrate(t.Context(), c.to, c.to2, mo)
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("a racing Migrate: %v", err)
		}
	}
	nb, err := Open(t.Context(), env.Client, b.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, nb, src, c.from, c.defaults, data)
}

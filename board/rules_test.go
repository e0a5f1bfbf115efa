package board

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// tournamentKinds are the kinds of board that take Rules: every kind of
// one hash tag that is written (an archive has none; a sharded board
// refuses them).
var tournamentKinds = []string{"plain", "grouped", "grouped+shared", "window", "grouped window", "grouped+shared window"}

// tournamentBoard builds a board of kind k with rules r, named from
// prefix.
func tournamentBoard(t *testing.T, client rueidis.Client, prefix, k string, r Rules) *Board {
	t.Helper()
	return kindBoard(t, client, prefix, k, Options{Rules: r})
}

// kindBoard builds a board of kind k (a kind of one hash tag that is
// written) with the settings of o, named from prefix.
func kindBoard(t *testing.T, client rueidis.Client, prefix, k string, o Options) *Board {
	t.Helper()
	spec := kindSpecs[k]
	o.SharedData = spec.shared
	name := prefix + "t"
	if spec.group {
		o.Group = prefix + "g"
	}
	if spec.form == "" {
		b, err := New(t.Context(), client, name, testLayout(t), o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	now := time.Now()
	p, err := NewPeriodic(client, name, testLayout(t), Every(time.Hour).From(now.Add(-30*time.Minute).Truncate(time.Millisecond)), time.Hour, o)
	if err != nil {
		t.Fatal(err)
	}
	return p.At(now)
}

// serverMs is the server's clock, in Unix milliseconds.
func serverMs(t *testing.T, client rueidis.Client) int64 {
	t.Helper()
	r, err := client.Do(t.Context(), client.B().Time().Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := strconv.ParseInt(r[0], 10, 64)
	us, _ := strconv.ParseInt(r[1], 10, 64)
	return s*1000 + us/1000
}

// sub is a submission of id with points.
func sub(id string, points float64) Submission {
	return Submission{ID: id, Values: []float64{points, 0, 1}}
}

// wantRefused checks that err wraps want and ErrArgument.
func wantRefused(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) || !errors.Is(err, ErrArgument) {
		t.Errorf("%s: err = %v, want %v (an ErrArgument)", what, err, want)
	}
}

// wantEntrant checks what the board knows of id.
func wantEntrant(t *testing.T, b *Board, id string, entered bool, attempts, left int64) {
	t.Helper()
	e, err := b.Entrant(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Entrant{ID: id, Entered: entered, Attempts: attempts, AttemptsLeft: left}); e != want {
		t.Errorf("Entrant(%s) = %+v, want %+v", id, e, want)
	}
}

// wantLen checks the number of entries.
func wantLen(t *testing.T, b *Board, want int64) {
	t.Helper()
	if n, err := b.Len(t.Context()); err != nil || n != want {
		t.Errorf("Len = %d, %v; want %d", n, err, want)
	}
}

// On every kind of board that takes rules, on one server and on a
// cluster, each rule refuses at its edge, with its sentinel, changing
// nothing, and lets the write before the edge through.
func TestRulesEveryKind(t *testing.T) {
	for where, env := range serverAndCluster(t) {
		client, prefix := env.Client, env.Prefix
		for i, k := range tournamentKinds {
			t.Run(where+"/"+k, func(t *testing.T) {
				p := fmt.Sprintf("%s%d_", prefix, i)
				checkJoinAndAttempts(t, tournamentBoard(t, client, p+"j", k, Rules{JoinRequired: true, MaxMembers: 3, MaxAttempts: 2}))
				checkMaxMembers(t, tournamentBoard(t, client, p+"m", k, Rules{MaxMembers: 2}))
				now := time.UnixMilli(serverMs(t, client))
				checkClosed(t, tournamentBoard(t, client, p+"s", k, Rules{Start: now.Add(time.Hour)}), true)
				checkClosed(t, tournamentBoard(t, client, p+"e", k, Rules{End: now.Add(-time.Millisecond)}), false)
			})
		}
	}
}

func checkJoinAndAttempts(t *testing.T, b *Board) {
	ctx := t.Context()
	_, err := b.Submit(ctx, sub("a", 5))
	wantRefused(t, "a write before joining", err, ErrNotJoined)
	wantLen(t, b, 0)
	wantEntrant(t, b, "a", false, 0, 2)
	if err := b.Join(ctx, "a", "b", "a"); err != nil {
		t.Fatal(err)
	}
	wantRefused(t, "a Join of two beyond MaxMembers 3", b.Join(ctx, "c", "d"), ErrFull)
	wantEntrant(t, b, "c", false, 0, 2)
	if err := b.Join(ctx, "b", "c"); err != nil {
		t.Fatalf("a Join up to MaxMembers, one already in: %v", err)
	}
	for i, pts := range []float64{5, 7} {
		if _, err := b.Submit(ctx, sub("a", pts)); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	wantEntrant(t, b, "a", true, 2, 0)
	_, err = b.Submit(ctx, sub("a", 9))
	wantRefused(t, "a third attempt of 2", err, ErrNoAttempts)
	_, err = b.Update(ctx, "a", func(*Entry) ([]float64, error) { return []float64{9, 0, 1}, nil })
	wantRefused(t, "an Update after the last attempt", err, ErrNoAttempts)
	got := b.SubmitMany(ctx, []Submission{sub("b", 1), sub("d", 1), sub("b", 2), sub("b", 3)})
	wantRefused(t, "SubmitMany of one not joined", got[1].Err, ErrNotJoined)
	wantRefused(t, "SubmitMany's third attempt", got[3].Err, ErrNoAttempts)
	if got[0].Err != nil || got[2].Err != nil {
		t.Errorf("SubmitMany's accepted writes: %v, %v", got[0].Err, got[2].Err)
	}
	if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 7 {
		t.Errorf("a after its refused attempts = %v, %v; want its second, 7 points", e.Values, err)
	}
	wantLen(t, b, 2)
	// Remove keeps the record: the attempts stay spent.
	if _, err := b.Remove(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	wantEntrant(t, b, "a", true, 2, 0)
	_, err = b.Submit(ctx, sub("a", 1))
	wantRefused(t, "a write after Remove, attempts spent", err, ErrNoAttempts)
	// Clear removes the records with the entries.
	if err := b.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	wantEntrant(t, b, "a", false, 0, 2)
	_, err = b.Submit(ctx, sub("a", 1))
	wantRefused(t, "a write after Clear", err, ErrNotJoined)
}

func checkMaxMembers(t *testing.T, b *Board) {
	ctx := t.Context()
	for _, id := range []string{"a", "b"} {
		if _, err := b.Submit(ctx, sub(id, 1)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := b.Submit(ctx, sub("c", 1))
	wantRefused(t, "a third member of 2", err, ErrFull)
	wantRefused(t, "a Join beyond MaxMembers", b.Join(ctx, "c"), ErrFull)
	if _, err := b.Submit(ctx, sub("a", 3)); err != nil {
		t.Errorf("an entrant writing again on a full board: %v", err)
	}
	wantEntrant(t, b, "a", true, 2, -1)
	wantEntrant(t, b, "c", false, 0, -1)
	wantLen(t, b, 2)
}

// checkClosed checks a board whose tournament has not started (early) or
// has ended.
func checkClosed(t *testing.T, b *Board, early bool) {
	ctx := t.Context()
	_, err := b.Submit(ctx, sub("a", 1))
	wantRefused(t, "a write outside Start and End", err, ErrClosed)
	wantLen(t, b, 0)
	wantEntrant(t, b, "a", false, 0, -1)
	err = b.Join(ctx, "a")
	if early && err != nil {
		t.Errorf("a Join before Start: %v", err)
	}
	if !early {
		wantRefused(t, "a Join after End", err, ErrClosed)
	}
}

// A tournament closes at End by the server's clock, to the millisecond:
// every write accepted began before End, every write refused as closed
// ended at or after it.
func TestRulesEndEdge(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	// Before the start, a Join is taken and a write of member data is not.
	early, err := New(ctx, env.Client, env.Prefix+"early", testLayout(t), Options{Rules: Rules{Start: time.Now().Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := early.Join(ctx, "x"); err != nil {
		t.Errorf("Join before the start: %v", err)
	}
	wantRefused(t, "SetData before the start", early.SetData(ctx, "x", []byte("name")), ErrClosed)
	end := serverMs(t, env.Client) + 300
	b, err := New(ctx, env.Client, env.Prefix+"edge", testLayout(t), Options{Rules: Rules{End: time.UnixMilli(end)}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		before := serverMs(t, env.Client)
		_, err := b.Submit(ctx, sub(strconv.Itoa(i), 1))
		after := serverMs(t, env.Client)
		switch {
		case err == nil && before >= end:
			t.Fatalf("write %d accepted, sent at %d, at or after End %d", i, before, end)
		case errors.Is(err, ErrClosed) && after < end:
			t.Fatalf("write %d refused as closed, answered at %d, before End %d", i, after, end)
		case errors.Is(err, ErrClosed):
			wantLen(t, b, int64(i))
			// Member data is written by the rules too: not once closed.
			before := dumpKeys(t, env)
			wantRefused(t, "SetData after End", b.SetData(ctx, "0", []byte("renamed")), ErrClosed)
			if after := dumpKeys(t, env); !maps.Equal(after, before) {
				t.Errorf("a refused SetData changed the keys:\nbefore %s\nafter  %s", before, after)
			}
			return
		case err != nil:
			t.Fatal(err)
		}
	}
}

// Racing first writes of distinct members and racing attempts of one
// member: exactly MaxMembers members get in, exactly MaxAttempts attempts
// count, every other write is refused with its sentinel, as a model of
// the rules says.
func TestRulesRacingWriters(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	const members, attempts, writers = 7, 5, 40
	b, err := New(ctx, env.Client, env.Prefix+"race", testLayout(t), Options{Rules: Rules{MaxMembers: members, MaxAttempts: attempts}})
	if err != nil {
		t.Fatal(err)
	}
	// The shared member is in before the race, one attempt spent.
	if _, err := b.Submit(ctx, sub("shared", 0)); err != nil {
		t.Fatal(err)
	}
	var in, full, spent, ok atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range 10 {
				// Each writer's own id, then the shared one.
				id := "w" + strconv.Itoa(w)
				if i%2 == 1 {
					id = "shared"
				}
				_, err := b.Submit(ctx, sub(id, float64(i)))
				switch {
				case err == nil && id == "shared":
					ok.Add(1)
				case err == nil && i == 0:
					in.Add(1)
				case errors.Is(err, ErrFull):
					full.Add(1)
				case errors.Is(err, ErrNoAttempts):
					spent.Add(1)
				case err != nil:
					t.Error(err)
				}
				if err != nil && id != "shared" {
					return // refused as a member: it never gets in
				}
			}
		})
	}
	wg.Wait()
	n, err := b.Len(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The shared member is one of the members; every accepted first write
	// is one more.
	if n != members || in.Load() != members-1 || full.Load() != writers-(members-1) {
		t.Errorf("%d entries, %d writers got in, %d refused; want %d members in all", n, in.Load(), full.Load(), members)
	}
	e, err := b.Entrant(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if ok.Load() != attempts-1 || e != (Entrant{ID: "shared", Entered: true, Attempts: attempts, AttemptsLeft: 0}) {
		t.Errorf("the shared member: %d racing writes accepted, %+v; want %d, %d attempts, none left", ok.Load(), e, attempts-1, attempts)
	}
	for w := range writers {
		e, err := b.Entrant(ctx, "w"+strconv.Itoa(w))
		if err != nil {
			t.Fatal(err)
		}
		if e.Entered && e.Attempts != attempts {
			t.Errorf("writer %d's member: %+v, want all %d attempts", w, e, attempts)
		}
	}
	t.Logf("%d in, %d refused as full, %d refused with no attempts left", in.Load(), full.Load(), spent.Load())
}

// Rules are a stored setting: Open reads them, New refuses others, Open
// refuses them given; a sharded board refuses them; rules no tournament
// could have are refused; an archive has none and holds the window's
// entries; a Migrate keeps the entrants.
func TestRulesSettings(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	r := Rules{Start: time.UnixMilli(1_000), End: time.Now().Add(time.Hour).Truncate(time.Millisecond), MaxAttempts: 2}
	b, err := New(ctx, env.Client, env.Prefix+"s", l, Options{Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Open(ctx, env.Client, env.Prefix+"s", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Options().Rules; !got.Start.Equal(r.Start) || !got.End.Equal(r.End) || got.MaxAttempts != 2 {
		t.Errorf("Open's rules = %+v, want %+v", got, r)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"s", l, Options{Rules: Rules{MaxAttempts: 3}}); !errors.Is(err, ErrMismatch) {
		t.Errorf("New with other rules: %v, want ErrMismatch", err)
	}
	if _, err := Open(ctx, env.Client, env.Prefix+"s", Options{Rules: r}); !errors.Is(err, ErrOptions) {
		t.Errorf("Open given rules: %v, want ErrOptions", err)
	}
	if _, err := New(ctx, env.Client, env.Prefix+"sh", l, Options{Shards: 2, Rules: r}); !errors.Is(err, ErrOptions) {
		t.Errorf("a sharded board with rules: %v, want ErrOptions", err)
	}
	for _, bad := range []Rules{{End: time.UnixMilli(5), Start: time.UnixMilli(5)}, {MaxMembers: -1}, {MaxAttempts: 1<<53 + 1}, {Start: time.UnixMilli(-5)}} {
		if _, err := New(ctx, env.Client, env.Prefix+"bad", l, Options{Rules: bad}); !errors.Is(err, ErrOptions) {
			t.Errorf("rules %+v: %v, want ErrOptions", bad, err)
		}
	}
	for _, f := range []func() error{
		func() error { return b.Join(ctx, "") },
		func() error { return b.Join(ctx) },
		func() error { _, err := b.Entrant(ctx, ""); return err },
	} {
		if err := f(); !errors.Is(err, ErrArgument) {
			t.Errorf("bad input: %v, want ErrArgument", err)
		}
	}
	plain, err := New(ctx, env.Client, env.Prefix+"plain", l, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Join(ctx, "a"); !errors.Is(err, ErrArgument) {
		t.Errorf("Join on a board without rules: %v, want ErrArgument", err)
	}
	// A Migrate keeps the entrants: the attempts stay spent.
	if _, err := b.Submit(ctx, sub("a", 1)); err != nil {
		t.Fatal(err)
	}
	m, err := b.Migrate(ctx, l, Options{Rules: r, DenseRanks: true}, MigrateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantEntrant(t, m, "a", true, 1, 1)
	if _, err := m.Submit(ctx, sub("a", 2)); err != nil {
		t.Fatal(err)
	}
	_, err = m.Submit(ctx, sub("a", 3))
	wantRefused(t, "the third attempt, across a migration", err, ErrNoAttempts)
}

// Each window of a tournament is a round: its handle refuses writes and
// joins after the window ends (and before it starts), from At or from
// Open; its archive holds
// its entries and no rules; the next window counts its own attempts; its
// Options carry its rules, not its round.
func TestRulesWindows(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	// Windows of a second: the test waits for one to begin, by the
	// server's clock (the scripts'), writes in it, then waits for it to
	// end.
	p, err := NewPeriodic(env.Client, env.Prefix+"arc", testLayout(t), Every(time.Second), time.Hour,
		Options{Rules: Rules{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.period.Window(time.UnixMilli(serverMs(t, env.Client)))
	for serverMs(t, env.Client) < w.End.UnixMilli() {
		time.Sleep(10 * time.Millisecond)
	}
	w, _ = p.period.Window(w.End)
	round := p.At(w.Start)
	for _, id := range []string{"a", "b"} {
		if _, err := round.Submit(ctx, sub(id, 3)); err != nil {
			t.Fatal(err)
		}
	}
	for serverMs(t, env.Client) < w.End.UnixMilli() { // the scripts' clock
		time.Sleep(20 * time.Millisecond)
	}
	_, err = round.Submit(ctx, sub("c", 1))
	wantRefused(t, "a write to a window that ended", err, ErrClosed)
	wantRefused(t, "a join to a window that ended", round.Join(ctx, "c"), ErrClosed)
	// A handle from Open, by the window's name, knows its round: it
	// refuses as At's does, so that naming a past window gives no more
	// attempts.
	opened, err := Open(ctx, env.Client, round.Name(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = opened.Submit(ctx, sub("c", 1))
	wantRefused(t, "a write to a window that ended, through Open", err, ErrClosed)
	wantRefused(t, "a join to a window that ended, through Open", opened.Join(ctx, "c"), ErrClosed)
	_, err = p.At(w.End.Add(time.Hour)).Submit(ctx, sub("c", 1))
	wantRefused(t, "a write to a window not yet begun", err, ErrClosed)
	a, err := p.Archive(ctx, w, ArchiveOptions{Retention: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	wantLen(t, a, 2)
	if a.Options().Rules.set() {
		t.Errorf("the archive's rules = %+v, want none", a.Options().Rules)
	}
	if _, err := a.Entrant(ctx, "a"); !errors.Is(err, ErrArgument) {
		t.Errorf("Entrant on an archive: %v, want ErrArgument", err)
	}
	// The current window counts its own attempts.
	if _, err := p.At(time.Now()).Submit(ctx, sub("a", 1)); err != nil {
		t.Errorf("a's first attempt in the next window: %v", err)
	}
	// A window's Options build another board with its rules, not its
	// round: that board takes writes after the window ended.
	other, err := New(ctx, env.Client, env.Prefix+"arc-all", testLayout(t), round.Options())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Submit(ctx, sub("a", 1)); err != nil {
		t.Errorf("a board built with an ended window's Options refuses its first write: %v", err)
	}
}

// A group's write checks every board's rules before it writes any: one
// board's refusal changes none.
func TestRulesGroup(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	open, err := New(ctx, env.Client, "open", l, Options{Group: env.Prefix + "g"})
	if err != nil {
		t.Fatal(err)
	}
	cup, err := New(ctx, env.Client, "cup", l, Options{Group: env.Prefix + "g", Rules: Rules{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup(open, cup)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Submit(ctx, []Submission{sub("a", 1), sub("a", 1)}); err != nil {
		t.Fatal(err)
	}
	_, err = g.Submit(ctx, []Submission{sub("a", 9), sub("a", 9)})
	wantRefused(t, "a group write past the cup's attempts", err, ErrNoAttempts)
	for _, b := range []*Board{open, cup} {
		if e, err := b.Get(ctx, "a"); err != nil || e.Values[0] != 1 {
			t.Errorf("%s after the refused group write: %v, %v; want 1 point", b.Name(), e.Values, err)
		}
	}
	wantEntrant(t, cup, "a", true, 1, 0)
}

// Join, a write and Entrant cost one round trip each; a refused write
// leaves the board and its entrants as they were (the model: nothing).
func TestRulesRefusalChangesNothing(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	b, err := New(ctx, env.Client, env.Prefix+"n", testLayout(t), Options{Rules: Rules{JoinRequired: true, MaxMembers: 1}})
	if err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env)
	_, err = b.Submit(ctx, sub("x", 1))
	wantRefused(t, "not joined", err, ErrNotJoined)
	wantRefused(t, "two joins for one place", b.Join(ctx, "x", "y"), ErrFull)
	if after := dumpKeys(t, env); !maps.Equal(after, before) {
		t.Errorf("refusals changed the keys:\nbefore %s\nafter  %s", before, after)
	}
}

// serverAndCluster yields the environments the tests of a capability run
// on, by name: one server, then the 3-master cluster.
func serverAndCluster(t *testing.T) iter.Seq2[string, *redistest.Env] {
	return func(yield func(string, *redistest.Env) bool) {
		if !yield("server", redistest.New(t)) {
			return
		}
		ce := redistest.NewCluster(t, 3)
		yield("cluster", &redistest.Env{Client: ce.Client, Prefix: ce.Prefix})
	}
}

// Rules set by a Migrate count the members already on the board, each as
// one entrant with no attempt scored, as Rules.MaxMembers says: a board
// of two members migrated to at most two refuses a third (ErrFull, nothing
// written), whether the two were copied or written during the migration.
func TestRulesByMigrateCountTheMembers(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	l := testLayout(t)
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		b, err := New(ctx, env.Client, env.Prefix+"bymigrate"+s.String(), l, Options{Strategy: s})
		if err != nil {
			t.Fatal(err)
		}
		mustSubmit(t, b, sub("a", 1))
		faultPoint = func(op, step string) { // "b" arrives while the copy runs
			if op == "Migrate" && step == "copy" {
				faultPoint = nil
				mustSubmit(t, b, sub("b", 1))
			}
		}
		m, err := b.Migrate(ctx, l, Options{Strategy: s, Rules: Rules{MaxMembers: 2, MaxAttempts: 1}}, MigrateOptions{})
		faultPoint = nil
		if err != nil {
			t.Fatal(err)
		}
		wantEntrant(t, m, "a", true, 0, 1)
		wantEntrant(t, m, "b", true, 0, 1)
		if _, err := m.Submit(ctx, sub("b", 2)); err != nil {
			t.Fatalf("%v: the second member's first attempt: %v", s, err)
		}
		_, err = m.Submit(ctx, sub("c", 5))
		wantRefused(t, s.String()+": a third member of at most two", err, ErrFull)
		if n, err := m.Len(ctx); err != nil || n != 2 {
			t.Errorf("%v: Len %d, %v; want the 2 members", s, n, err)
		}
	}
}

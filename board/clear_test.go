package board

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// dumpKeys returns the content of every key whose name holds the test's
// prefix, and its PTTL, by name.
func dumpKeys(t *testing.T, env *redistest.Env) map[string]string {
	t.Helper()
	ctx := t.Context()
	keys, err := env.Client.Do(ctx, env.Client.B().Keys().Pattern("*"+env.Prefix+"*").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		d, ok := keyContent(t, env.Client, k)
		if !ok {
			continue
		}
		ttl, _ := env.Client.Do(ctx, env.Client.B().Pttl().Key(k).Build()).AsInt64()
		out[k] = fmt.Sprintf("%q ttl>0:%t", d, ttl > 0)
	}
	return out
}

// metaOf returns the meta HASH of the board whose keys start with prefix.
func metaOf(t *testing.T, c rueidis.Client, prefix string) map[string]string {
	t.Helper()
	m, err := c.Do(t.Context(), c.B().Hgetall().Key(prefix+"meta").Build()).AsStrMap()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fillData writes n entries with member data to b.
func fillData(t *testing.T, b *Board, n int) {
	t.Helper()
	for i := range n {
		s := Submission{ID: "u" + strconv.Itoa(i), Values: []float64{float64(i % 4), float64(i % 2), float64(i)}, Data: []byte("d" + strconv.Itoa(i))}
		if _, err := b.Submit(t.Context(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// checkEmptyThenWritable checks that b is empty, then that a write and the
// reads after it work, through b and through a handle Open builds, and
// that the board describes itself as before (desc).
func checkEmptyThenWritable(t *testing.T, b *Board, openName, desc string) {
	t.Helper()
	ctx := t.Context()
	if n, err := b.Len(ctx); err != nil || n != 0 {
		t.Fatalf("after Clear: Len = %d, %v", n, err)
	}
	if l, err := b.Top(ctx, 10); err != nil || len(l.Entries) != 0 {
		t.Fatalf("after Clear: Top = %v, %v", l, err)
	}
	if _, err := b.Get(ctx, "u1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after Clear: Get = %v, want ErrNotFound", err)
	}
	o, err := Open(ctx, b.rc(), openName, Options{})
	if err != nil {
		t.Fatalf("Open after Clear: %v", err)
	}
	if o.descriptorOf().encoded() != desc {
		t.Fatalf("Open after Clear describes %s, want %s", o.descriptorOf().encoded(), desc)
	}
	for i, h := range []*Board{b, o} {
		s := Submission{ID: "w" + strconv.Itoa(i), Values: []float64{float64(3 - i), 0, 1}, Data: []byte("x")}
		if _, err := h.Submit(ctx, s); err != nil {
			t.Fatalf("write after Clear: %v", err)
		}
	}
	e, err := o.Get(ctx, "w0", WithData())
	if err != nil || e.Rank != 1 || string(e.Data) != "x" {
		t.Fatalf("after Clear and writes: Get(w0) = %+v, %v; want rank 1 with its data", e, err)
	}
	if n, err := o.Len(ctx); err != nil || n != 2 {
		t.Fatalf("after Clear and writes: Len = %d, %v", n, err)
	}
}

func TestClearKinds(t *testing.T) {
	ctx := t.Context()
	for _, s := range []Strategy{PackedScore, KeySuffix} {
		t.Run("plain/"+s.String(), func(t *testing.T) {
			env := redistest.New(t)
			b := newBoard(t, env.Client, env.Prefix, "c", testLayout(t), Options{Strategy: s, Cap: 5, DenseRanks: true})
			fillData(t, b, 9)
			meta := metaOf(t, env.Client, b.prefix)
			if err := b.Clear(ctx); err != nil {
				t.Fatal(err)
			}
			if got := dumpKeys(t, env); len(got) != 1 {
				t.Fatalf("after Clear: keys %v, want the meta HASH alone", keyNames(got))
			}
			if after := metaOf(t, env.Client, b.prefix); !maps.Equal(meta, after) {
				t.Fatalf("Clear changed the meta HASH: %v, was %v", after, meta)
			}
			checkEmptyThenWritable(t, b, b.name, b.desc.encoded())
			if r, err := b.Rank(ctx, "w1", Dense); err != nil || r != 2 {
				t.Fatalf("dense rank after Clear: %d, %v; want 2", r, err)
			}
		})
	}
	t.Run("grouped/SharedData", func(t *testing.T) {
		env := redistest.New(t)
		o := Options{Group: env.Prefix + "g", SharedData: true}
		a := newBoard(t, env.Client, env.Prefix, "a", testLayout(t), o)
		other := newBoard(t, env.Client, env.Prefix, "b", testLayout(t), o)
		fillData(t, a, 4)
		fillData(t, other, 4)
		if err := a.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := other.Len(ctx); err != nil || n != 4 {
			t.Fatalf("the group's other board after Clear: Len = %d, %v", n, err)
		}
		d, err := env.Client.Do(ctx, env.Client.B().Hlen().Key(sharedDataKey(o.Group)).Build()).AsInt64()
		if err != nil || d != 4 {
			t.Fatalf("the shared data HASH after Clear holds %d, %v; want the 4 ids kept", d, err)
		}
		checkEmptyThenWritable(t, a, o.Group+"/"+a.name, a.desc.encoded())
	})
	t.Run("window", func(t *testing.T) {
		env := redistest.New(t)
		p, err := NewPeriodic(env.Client, env.Prefix+"w", testLayout(t), Every(time.Hour), time.Hour, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := p.At(time.Now())
		if err := b.Clear(ctx); err != nil {
			t.Fatalf("Clear of a window not yet written: %v", err)
		}
		fillData(t, b, 3)
		meta := metaOf(t, env.Client, b.prefix)
		if err := b.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		if after := metaOf(t, env.Client, b.prefix); !maps.Equal(meta, after) || after["expire"] == "" {
			t.Fatalf("Clear changed the window's meta HASH: %v, was %v", after, meta)
		}
		checkEmptyThenWritable(t, b, b.name, b.desc.encoded())
		for k, v := range dumpKeys(t, env) {
			if !strings.HasSuffix(v, "ttl>0:true") {
				t.Errorf("after Clear and a write, window key %s does not expire", k)
			}
		}
	})
	t.Run("archive", func(t *testing.T) {
		env := redistest.New(t)
		p, err := NewPeriodic(env.Client, env.Prefix+"ar", testLayout(t), Every(200*time.Millisecond), time.Minute, Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, _ := p.period.Window(time.Now())
		fillData(t, p.At(w.Start), 3)
		time.Sleep(time.Until(w.End) + 10*time.Millisecond)
		a, err := p.Archive(ctx, w, ArchiveOptions{Top: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		checkEmptyThenWritable(t, a, a.name, a.desc.encoded())
	})
	t.Run("sharded", func(t *testing.T) {
		env := redistest.New(t)
		b := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Shards: 3})
		fillData(t, b, 20)
		before := metaOf(t, env.Client, b.prefix)
		if err := b.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		if got := dumpKeys(t, env); len(got) != 4 {
			t.Fatalf("after Clear: keys %v, want the 4 meta HASHes", keyNames(got))
		}
		if after := metaOf(t, env.Client, b.prefix); !maps.Equal(before, after) {
			t.Fatalf("Clear changed the meta HASH: %v, was %v", after, before)
		}
		checkEmptyThenWritable(t, b, b.name, b.descriptorOf().encoded())
	})
}

// A Clear refused changes no key.
func TestClearRefusals(t *testing.T) {
	ctx := t.Context()
	t.Run("migrating", func(t *testing.T) {
		env := redistest.New(t)
		b := newBoard(t, env.Client, env.Prefix, "m", testLayout(t), Options{DenseRanks: true})
		fillData(t, b, 5)
		to, err := configure(b.conn, b.name, testLayout(t), Options{Cap: 3})
		if err != nil {
			t.Fatal(err)
		}
		_, defaults, err := b.checkMigrate(to, MigrateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.beginMigration(ctx, to, defaults); err != nil {
			t.Fatal(err)
		}
		before := dumpKeys(t, env)
		if err := b.Clear(ctx); !errors.Is(err, ErrMigrating) {
			t.Fatalf("Clear of a migrating board: %v, want ErrMigrating", err)
		}
		if after := dumpKeys(t, env); !maps.Equal(before, after) {
			t.Fatalf("a refused Clear changed keys:\n%v\nwas\n%v", after, before)
		}
	})
	t.Run("resharding", func(t *testing.T) {
		env := redistest.New(t)
		b := newSharded(t, env.Client, env.Prefix, "r", testLayout(t), Options{Shards: 2})
		fillData(t, b, 6)
		startCopy(t, b, 3)
		before := dumpKeys(t, env)
		if err := b.Clear(ctx); !errors.Is(err, ErrMigrating) {
			t.Fatalf("Clear of a resharding board: %v, want ErrMigrating", err)
		}
		if after := dumpKeys(t, env); !maps.Equal(before, after) {
			t.Fatalf("a refused Clear changed keys:\n%v\nwas\n%v", after, before)
		}
	})
	t.Run("dropped", func(t *testing.T) {
		env := redistest.New(t)
		b := newBoard(t, env.Client, env.Prefix, "d", testLayout(t), Options{})
		fillData(t, b, 2)
		if err := b.Drop(ctx); err != nil {
			t.Fatal(err)
		}
		if err := b.Clear(ctx); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Clear of a dropped board: %v, want ErrNotFound", err)
		}
		if got := dumpKeys(t, env); len(got) != 0 {
			t.Fatalf("a refused Clear left keys %v", keyNames(got))
		}
	})
}

// After Drop, a write through a handle made before it makes the board
// whole again (descriptor and entry), or, on a sharded board, is refused
// (ErrNotFound) and writes nothing.
func TestDropThenStaleWrite(t *testing.T) {
	ctx := t.Context()
	type kind struct {
		name string
		make func(t *testing.T, env *redistest.Env) (stale *Board, openName string)
	}
	plain := func(o Options) func(t *testing.T, env *redistest.Env) (*Board, string) {
		return func(t *testing.T, env *redistest.Env) (*Board, string) {
			b := newBoard(t, env.Client, env.Prefix, "p", testLayout(t), o)
			name := b.name
			if o.Group != "" {
				name = o.Group + "/" + name
			}
			return b, name
		}
	}
	kinds := []kind{
		{"packed-native", plain(Options{})},
		{"keysuffix", plain(Options{Strategy: KeySuffix, DenseRanks: true})},
		{"capped", plain(Options{Cap: 3})},
		{"grouped", func(t *testing.T, env *redistest.Env) (*Board, string) {
			return plain(Options{Group: env.Prefix + "g", SharedData: true})(t, env)
		}},
		{"migrated", func(t *testing.T, env *redistest.Env) (*Board, string) {
			b := newBoard(t, env.Client, env.Prefix, "mg", testLayout(t), Options{})
			fillData(t, b, 3)
			nb, err := b.Migrate(ctx, testLayout(t), Options{Cap: 10}, MigrateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if nb.gen.Load().n == 0 {
				t.Fatal("the migrated board is still in generation 0")
			}
			return nb, nb.name
		}},
		{"migrating", func(t *testing.T, env *redistest.Env) (*Board, string) {
			b := newBoard(t, env.Client, env.Prefix, "mi", testLayout(t), Options{})
			fillData(t, b, 3)
			to, _ := configure(b.conn, b.name, testLayout(t), Options{Cap: 10})
			_, defaults, err := b.checkMigrate(to, MigrateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.beginMigration(ctx, to, defaults); err != nil {
				t.Fatal(err)
			}
			if err := b.refreshGen(ctx); err != nil {
				t.Fatal(err)
			}
			return b, b.name
		}},
		{"window", func(t *testing.T, env *redistest.Env) (*Board, string) {
			p, err := NewPeriodic(env.Client, env.Prefix+"w", testLayout(t), Every(time.Hour), time.Hour, Options{})
			if err != nil {
				t.Fatal(err)
			}
			b := p.At(time.Now())
			return b, b.name
		}},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			env := redistest.New(t)
			stale, name := k.make(t, env)
			if _, err := stale.Submit(ctx, Submission{ID: "old", Values: []float64{1, 0, 1}}); err != nil {
				t.Fatal(err)
			}
			dropper, err := Open(ctx, env.Client, name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := dropper.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if got := dumpKeys(t, env); len(got) != 0 {
				t.Fatalf("after Drop: keys %v", keyNames(got))
			}
			if _, err := stale.Submit(ctx, Submission{ID: "new", Values: []float64{2, 0, 1}}); err != nil {
				t.Fatalf("write through the stale handle: %v", err)
			}
			o, err := Open(ctx, env.Client, name, Options{})
			if err != nil {
				t.Fatalf("Open after Drop and a stale write: %v", err)
			}
			if o.desc.encoded() != stale.desc.encoded() {
				t.Fatalf("Open describes %s, want the stale handle's %s", o.desc.encoded(), stale.desc.encoded())
			}
			l, err := o.Top(ctx, 10)
			if err != nil || len(l.Entries) != 1 || l.Entries[0].ID != "new" {
				t.Fatalf("Top after Drop and a stale write: %+v, %v; want new alone", l, err)
			}
			if !stale.opts.expireAt.IsZero() {
				m := metaOf(t, env.Client, stale.prefix)
				if m["expire"] != strconv.FormatInt(stale.opts.expireAt.UnixMilli(), 10) {
					t.Fatalf("the window's meta HASH %v lacks its expiry", m)
				}
				for key, v := range dumpKeys(t, env) {
					if !strings.HasSuffix(v, "ttl>0:true") {
						t.Errorf("window key %s does not expire", key)
					}
				}
			}
			if err := o.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if got := dumpKeys(t, env); len(got) != 0 {
				t.Fatalf("after the second Drop: keys %v", keyNames(got))
			}
		})
	}
	t.Run("sharded", func(t *testing.T) {
		env := redistest.New(t)
		b := newSharded(t, env.Client, env.Prefix, "s", testLayout(t), Options{Shards: 2})
		fillData(t, b, 4)
		dropper, err := Open(ctx, env.Client, b.name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := dropper.Drop(ctx); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b", "c", "d"} {
			if _, err := b.Submit(ctx, Submission{ID: id, Values: []float64{2, 0, 1}}); !errors.Is(err, ErrNotFound) {
				t.Fatalf("write through the stale handle after Drop: %v, want ErrNotFound", err)
			}
		}
		if got := dumpKeys(t, env); len(got) != 0 {
			t.Fatalf("refused writes left keys %v", keyNames(got))
		}
		if _, err := Open(ctx, env.Client, b.name, Options{}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Open after Drop: %v, want ErrNotFound", err)
		}
	})
	t.Run("sharded/one shard dropped", func(t *testing.T) {
		env := redistest.New(t)
		b := newSharded(t, env.Client, env.Prefix, "s1", testLayout(t), Options{Shards: 2})
		v := b.sh.view.Load()
		if err := v.shards[0].drop(ctx); err != nil {
			t.Fatal(err)
		}
		id := ""
		for i := 0; id == ""; i++ {
			if c := "i" + strconv.Itoa(i); shardOf(c, 2) == 0 {
				id = c
			}
		}
		if _, err := b.Submit(ctx, Submission{ID: id, Values: []float64{2, 0, 1}}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("write to a dropped shard: %v, want ErrNotFound", err)
		}
		if n := keysOf(t, env); n != 2 {
			t.Fatalf("after a refused write: %d keys, want the 2 meta HASHes left", n)
		}
	})
}

// refreshGen reads b's meta HASH again, as a handle does after a tombstone.
func (b *Board) refreshGen(ctx context.Context) error {
	m, err := b.readMeta(ctx, false)
	if err != nil {
		return err
	}
	return b.adopt(m)
}

// racingClient moves the board's generation before every drop.lua it
// sends, as a migration's steps would between Drop's reads and its script.
type racingClient struct {
	rueidis.Client
	meta string
}

func (c racingClient) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	args := cmd.Commands()
	if len(args) > 3 && (args[0] == "EVALSHA" || args[0] == "EVAL") && args[3] == c.meta && args[2] != "2" {
		c.Client.Do(ctx, c.Client.B().Hincrby().Key(c.meta).Field("gen").Increment(1).Build())
	}
	return c.Client.Do(ctx, cmd)
}

// Drop returns nil only when the board is gone: losing every race to a
// migration's steps, it removes nothing and returns ErrMigrating.
func TestDropLosingRaces(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "race", testLayout(t), Options{})
	fillData(t, b, 3)
	racer, err := New(ctx, racingClient{Client: env.Client, meta: b.prefix + "meta"}, b.name, testLayout(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := dumpKeys(t, env)
	if err := racer.Drop(ctx); !errors.Is(err, ErrMigrating) {
		t.Fatalf("Drop losing every race: %v, want ErrMigrating", err)
	}
	after := dumpKeys(t, env)
	delete(before, b.prefix+"meta")
	delete(after, b.prefix+"meta")
	if !maps.Equal(before, after) {
		t.Fatalf("a Drop that lost its races changed keys:\n%v\nwas\n%v", after, before)
	}
	// The race moved the generation and no keys: put it back.
	if err := env.Client.Do(ctx, env.Client.B().Hset().Key(b.prefix+"meta").FieldValue().FieldValue("gen", "0").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if n := keysOf(t, env); n != 0 {
		t.Fatalf("after Drop: %d keys left", n)
	}
}

func keyNames(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A board a native write made whole again after a Drop stores its
// descriptor alone (no generation, no state): it is live in generation
// 0, so Clear empties it and Migrate moves every entry.
func TestNativeRemakeIsLive(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "remade", testLayout(t), Options{})
	if err := b.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"ann", "bob"} {
		if _, err := b.Submit(ctx, Submission{ID: id, Values: []float64{float64(i + 1), 0, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if m := metaOf(t, env.Client, b.prefix); m["gen"] != "" || m["state"] != "" {
		t.Fatalf("meta HASH %v: want the descriptor alone (a native write's)", m)
	}
	nb, err := b.Migrate(ctx, testLayout(t), Options{Strategy: KeySuffix}, MigrateOptions{})
	if err != nil {
		t.Fatalf("Migrate of a board a native write made whole: %v", err)
	}
	if l, err := nb.Top(ctx, 10); err != nil || len(l.Entries) != 2 || l.Entries[0].ID != "bob" {
		t.Fatalf("after Migrate: %+v, %v; want bob, ann", l, err)
	}
	c := newBoard(t, env.Client, env.Prefix, "remade2", testLayout(t), Options{})
	if err := c.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submit(ctx, Submission{ID: "ann", Values: []float64{1, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Clear(ctx); err != nil {
		t.Fatalf("Clear of a board a native write made whole: %v", err)
	}
	if n, err := c.Len(ctx); err != nil || n != 0 {
		t.Fatalf("Len after Clear = %d, %v", n, err)
	}
}

// A handle of a migrated board (generation 2) whose board was dropped and
// made again by New (generation 0) writes where the new board reads: its
// write finds the generation moved and reads the board again.
func TestDropThenNewThenStaleWrite(t *testing.T) {
	ctx := t.Context()
	for _, o := range []Options{{}, {DenseRanks: true}, {Strategy: KeySuffix}} {
		t.Run(o.Strategy.String()+"/dense="+strconv.FormatBool(o.DenseRanks), func(t *testing.T) {
			env := redistest.New(t)
			b := newBoard(t, env.Client, env.Prefix, "dn", testLayout(t), o)
			fillData(t, b, 3)
			to := o
			to.Cap = 100
			stale, err := b.Migrate(ctx, testLayout(t), to, MigrateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if stale.gen.Load().n == 0 {
				t.Fatal("the migrated board is still in generation 0")
			}
			if err := stale.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			fresh, err := New(ctx, env.Client, stale.name, testLayout(t), to)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := stale.Submit(ctx, Submission{ID: "cyd", Values: []float64{7, 0, 1}}); err != nil {
				t.Fatalf("write through the stale handle: %v", err)
			}
			if e, err := fresh.Get(ctx, "cyd"); err != nil || e.Values[0] != 7 {
				t.Fatalf("the new board's Get of the stale handle's write = %+v, %v", e, err)
			}
			if err := fresh.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			if got := dumpKeys(t, env); len(got) != 0 {
				t.Fatalf("after Drop: keys %v (the stale write went elsewhere)", keyNames(got))
			}
		})
	}
}

// A key of the board that holds another Redis type, where no migration
// left a tombstone (written by something else), is ErrReply naming the
// damage, not a generation that moved.
func TestForeignTypeIsDamage(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	b := newBoard(t, env.Client, env.Prefix, "foreign", testLayout(t), Options{})
	mustSubmit(t, b, Submission{ID: "a", Values: []float64{1, 0, 1}})
	z := b.gen.Load().keys.z
	for _, cmd := range []rueidis.Completed{env.Client.B().Del().Key(z).Build(), env.Client.B().Hset().Key(z).FieldValue().FieldValue("x", "y").Build()} {
		if err := env.Client.Do(ctx, cmd).Error(); err != nil {
			t.Fatal(err)
		}
	}
	_, err1 := b.Top(ctx, 3)
	_, err2 := b.Len(ctx)
	_, err3 := b.Get(ctx, "a")
	for i, err := range []error{err1, err2, err3} {
		if !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "another Redis type") {
			t.Errorf("read %d of a board whose entries key is a HASH: %v, want ErrReply naming the damage", i, err)
		}
	}
}

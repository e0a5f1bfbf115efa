package timeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// windowView is what a test compares of a Window: payloads and flags.
type windowView struct {
	Payloads           []string
	HasOlder, HasNewer bool
}

func viewOf[ID any](w Window[ID]) windowView {
	v := windowView{HasOlder: w.HasOlder, HasNewer: w.HasNewer}
	for _, m := range w.Messages {
		v.Payloads = append(v.Payloads, string(m.Payload))
	}
	return v
}

// Around on m1..m9 (even rests, so odd ones are never stored): the
// anchor's own message included when stored, as central as the edges
// allow, filled from the other side at the edges.
func TestAround(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_around", tsid.TSID, Options{Strategy: s})
		base := uint64(9153062458) << 22
		m := func(i uint64) uint64 { return base + 2*i } // m(i) holds "m<i>"
		for i := uint64(1); i <= 9; i++ {
			mustAppend(t, tl, Message[uint64]{ID: m(i), Payload: fmt.Appendf(nil, "m%d", i)})
		}
		for _, c := range []struct {
			name   string
			anchor uint64
			n      int
			want   windowView
		}{
			{"m5, n 4", m(5), 4, windowView{[]string{"m4", "m5", "m6", "m7"}, true, true}},
			{"m5, n 5", m(5), 5, windowView{[]string{"m3", "m4", "m5", "m6", "m7"}, true, true}},
			{"m5, n 1", m(5), 1, windowView{[]string{"m5"}, true, true}},
			{"m5, n 2", m(5), 2, windowView{[]string{"m5", "m6"}, true, true}},
			{"between m4 and m5, n 4", m(5) - 1, 4, windowView{[]string{"m3", "m4", "m5", "m6"}, true, true}},
			{"between m4 and m5, n 1", m(5) - 1, 1, windowView{[]string{"m5"}, true, true}},
			{"between m4 and m5, n 3", m(5) - 1, 3, windowView{[]string{"m4", "m5", "m6"}, true, true}},
			{"m1, n 4", m(1), 4, windowView{[]string{"m1", "m2", "m3", "m4"}, false, true}},
			{"m2, n 4", m(2), 4, windowView{[]string{"m1", "m2", "m3", "m4"}, false, true}},
			{"m9, n 4", m(9), 4, windowView{[]string{"m6", "m7", "m8", "m9"}, true, false}},
			{"m8, n 5", m(8), 5, windowView{[]string{"m5", "m6", "m7", "m8", "m9"}, true, false}},
			{"below all, n 3", 0, 3, windowView{[]string{"m1", "m2", "m3"}, false, true}},
			{"above all, n 3", tsid.TSID.Max(), 3, windowView{[]string{"m7", "m8", "m9"}, true, false}},
			{"m5, n 9", m(5), 9, windowView{[]string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"}, false, false}},
			{"m5, n 20", m(5), 20, windowView{[]string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"}, false, false}},
		} {
			w, err := tl.Around(ctx, c.anchor, c.n)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if diff := gocmp.Diff(c.want, viewOf(w)); diff != "" {
				t.Errorf("Around(%s) (-want +got):\n%s", c.name, diff)
			}
			if len(w.Messages) > 0 && (w.Older != w.Messages[0].ID || w.Newer != w.Messages[len(w.Messages)-1].ID) {
				t.Errorf("Around(%s): Older %d, Newer %d, not the window's ends", c.name, w.Older, w.Newer)
			}
		}
		empty := newTL(t, env.Client, env.Prefix+"_around_empty", tsid.TSID, Options{Strategy: s})
		w, err := empty.Around(ctx, m(5), 4)
		if diff := gocmp.Diff(Window[uint64]{}, w); err != nil || diff != "" {
			t.Errorf("Around on an empty timeline: %v (-want +got):\n%s", err, diff)
		}
	})
}

// Oldest, then After from its Next, reads the whole timeline oldest first.
func TestOldestThenAfter(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_oldest", tsid.TSID, Options{Strategy: s})
		p, err := tl.Oldest(ctx, 3)
		if diff := gocmp.Diff(Page[uint64]{}, p); err != nil || diff != "" {
			t.Errorf("Oldest on an empty timeline: %v (-want +got):\n%s", err, diff)
		}
		var want []uint64
		for i := uint64(0); i < 10; i++ {
			id := uint64(9153062458+i/4)<<22 | i // four messages a millisecond
			want = append(want, id)
			mustAppend(t, tl, Message[uint64]{ID: id, Payload: []byte("x")})
		}
		var got []uint64
		var more []bool
		for p, err = tl.Oldest(ctx, 3); err == nil; p, err = tl.After(ctx, p.Next, 3) {
			got = append(got, idsOf(p.Messages)...)
			more = append(more, p.HasMore)
			if !p.HasMore {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("Oldest then After (-want +got):\n%s", diff)
		}
		if diff := gocmp.Diff([]bool{true, true, true, false}, more); diff != "" {
			t.Errorf("HasMore of the pages (-want +got):\n%s", diff)
		}
	})
}

// Remove takes many IDs in one script: stored, absent and repeated ones,
// and counts each stored message once.
func TestRemoveMany(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_remove", tsid.TSID, Options{Strategy: s})
		base := uint64(9153062458) << 22
		for i := uint64(0); i < 6; i++ {
			mustAppend(t, tl, Message[uint64]{ID: base + i, Payload: []byte("x")})
		}
		n, err := tl.Remove(ctx, base+1, base+3, base+3, base+100, base+5)
		if err != nil || n != 3 {
			t.Errorf("Remove = %d, %v; want 3", n, err)
		}
		p, err := tl.Oldest(ctx, 10)
		if diff := gocmp.Diff([]uint64{base, base + 2, base + 4}, idsOf(p.Messages)); err != nil || diff != "" {
			t.Errorf("after Remove: %v (-want +got):\n%s", err, diff)
		}
		ids := make([]uint64, MaxRemove)
		for i := range ids {
			ids[i] = base + uint64(i)
		}
		if n, err := tl.Remove(ctx, ids...); err != nil || n != 3 {
			t.Errorf("Remove of MaxRemove IDs = %d, %v; want 3", n, err)
		}
	})
}

// The zero ID works as a cursor and an anchor in every layout, even where
// the codec refuses it as an ID (UUIDv7's nil UUID): it stands below every
// ID. A cursor crosses an API as text, so the one read is the zero ID's
// text parsed back, and the Next of an empty page, likewise.
func TestZeroCursor(t *testing.T) {
	ms := uint64(1767323045000) // 2026-01-02, in Unix milliseconds
	tsidMS, _ := tsid.TSID.Score(tsid.TSID.Time(0).AddDate(6, 0, 0))
	custom, err := tsid.NewLayoutSpec(tsid.LayoutSpec{Name: "custom", TimeBits: 30, RestBits: 30, Text: tsid.TextCrockford})
	if err != nil {
		t.Fatal(err)
	}
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		for _, l := range []*tsid.Layout{tsid.TSID, tsid.Snowflake, tsid.Discord, tsid.Sonyflake, custom} {
			ids := []uint64{uint64(tsidMS)<<l.RestBits() | 1, uint64(tsidMS)<<l.RestBits() | 2, uint64(tsidMS+1) << l.RestBits()}
			checkZeroCursor(t, newTL(t, env.Client, env.Prefix+"_zero_"+l.Name(), l, Options{Strategy: s}), l, ids)
		}
		for _, c := range []struct {
			l   *tsid.Layout128
			fix func(*[16]byte)
		}{{tsid.ULID, noFix}, {tsid.UUIDv7, fixV7}} {
			var ids [][16]byte
			for i := range 3 {
				var id [16]byte
				for j, x := 5, ms+uint64(i/2); j >= 0; j, x = j-1, x>>8 {
					id[j] = byte(x)
				}
				id[15] = byte(i)
				c.fix(&id)
				ids = append(ids, id)
			}
			checkZeroCursor(t, newTL(t, env.Client, env.Prefix+"_zero_"+c.l.Name(), Codec[[16]byte](c.l), Options{Strategy: s}), c.l, ids)
		}
	})
}

// textCodec is a layout with a text form, as every tsid layout has.
type textCodec[ID any] interface {
	Name() string
	Format(id ID) string
	Parse(s string) (ID, error)
}

// viaText returns id formatted and parsed back by l, as a cursor that
// went to a client and came back.
func viaText[ID any](t *testing.T, l textCodec[ID], id ID) ID {
	t.Helper()
	back, err := l.Parse(l.Format(id))
	if err != nil {
		t.Fatalf("%s: the cursor %q does not parse back: %v", l.Name(), l.Format(id), err)
	}
	return back
}

// checkZeroCursor reads tl, empty, from the zero ID and from an empty
// page's Next, both through their text form; then appends ids (ascending)
// and reads around the zero ID: nothing before it, everything after it.
func checkZeroCursor[ID any](t *testing.T, tl *Timeline[ID], l textCodec[ID], ids []ID) {
	t.Helper()
	ctx := context.Background()
	var zero ID
	empty, err := tl.Latest(ctx, 5)
	if err != nil {
		t.Fatalf("%s: Latest of an empty timeline: %v", l.Name(), err)
	}
	before, err1 := tl.Before(ctx, viaText(t, l, empty.Next), 5)
	after, err2 := tl.After(ctx, viaText(t, l, zero), 5)
	around, err3 := tl.Around(ctx, viaText(t, l, zero), 5)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("%s: zero cursor on an empty timeline: %v, %v, %v", l.Name(), err1, err2, err3)
	}
	if diff := gocmp.Diff([]any{Page[ID]{}, Page[ID]{}, Window[ID]{}}, []any{before, after, around}); diff != "" {
		t.Errorf("%s: Before, After, Around the zero ID of an empty timeline (-want +got):\n%s", l.Name(), diff)
	}
	for _, id := range ids {
		mustAppend(t, tl, Message[ID]{ID: id, Payload: []byte("x")})
	}
	cursor := viaText(t, l, zero)
	before, err1 = tl.Before(ctx, cursor, 5)
	after, err2 = tl.After(ctx, cursor, 2)
	around, err3 = tl.Around(ctx, cursor, 2)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("%s: zero cursor: %v, %v, %v", l.Name(), err1, err2, err3)
	}
	got := []any{before, idsOf(after.Messages), after.HasMore, idsOf(around.Messages), around.HasOlder, around.HasNewer}
	want := []any{Page[ID]{}, ids[:2], true, ids[:2], false, true}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("%s: Before, After, Around the zero ID (-want +got):\n%s", l.Name(), diff)
	}
}

// A caller tailing a room keeps each page's Next as its cursor: an empty
// page read from a cursor gives that cursor back, so the next poll goes on
// from there (not from the start), for After and Before alike.
func TestEmptyPageKeepsCursor(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_tail", tsid.TSID, Options{Strategy: s})
		id := func(i uint64) uint64 { return uint64(9153062458+i)<<22 | i }
		mustAppend(t, tl, Message[uint64]{ID: id(1), Payload: []byte("a")}, Message[uint64]{ID: id(2), Payload: []byte("b")})
		p, err := tl.Oldest(ctx, 10)
		if err != nil || p.Next != id(2) {
			t.Fatalf("Oldest: Next %d, %v; want %d", p.Next, err, id(2))
		}
		cursor := p.Next
		for poll := range 2 { // caught up: nothing new, twice
			if p, err = tl.After(ctx, cursor, 10); err != nil || len(p.Messages) != 0 || p.Next != cursor {
				t.Fatalf("poll %d, caught up: %d messages, Next %d, %v; want none and Next %d", poll, len(p.Messages), p.Next, err, cursor)
			}
			cursor = p.Next
		}
		mustAppend(t, tl, Message[uint64]{ID: id(3), Payload: []byte("c")})
		if p, err = tl.After(ctx, cursor, 10); err != nil || !gocmp.Equal(idsOf(p.Messages), []uint64{id(3)}) {
			t.Errorf("poll after a new message: %v, %v; want only %d", idsOf(p.Messages), err, id(3))
		}
		if p, err = tl.Before(ctx, id(1), 10); err != nil || len(p.Messages) != 0 || p.Next != id(1) {
			t.Errorf("Before the oldest: %d messages, Next %d, %v; want none and Next %d", len(p.Messages), p.Next, err, id(1))
		}
	})
}

// The tail of docs/recipes.md and the package documentation: reading on
// each poll from an overlap before the newest ID shown finds a message
// whose append landed after a newer one's, which After from the newest
// ID alone misses.
func TestTailWithOverlapFindsLateAppends(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	tl := newTL(t, env.Client, env.Prefix+"_late", tsid.TSID, Options{})
	gen, err := tsid.NewGenerator(tsid.GeneratorOptions{Node: 3})
	if err != nil {
		t.Fatal(err)
	}
	early, _ := gen.Next() // made first, appended last
	late, _ := gen.Next()
	const overlap = 5 * time.Second
	var newest uint64
	shown := map[uint64]bool{}
	poll := func() (got []uint64) {
		from := newest - min(newest, uint64(overlap.Milliseconds())<<tsid.TSID.RestBits())
		page, err := tl.After(ctx, from, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range page.Messages {
			if !shown[m.ID] {
				shown[m.ID] = true
				got = append(got, m.ID)
			}
			newest = max(newest, m.ID)
		}
		return got
	}
	mustAppend(t, tl, Message[uint64]{ID: late, Payload: []byte("b")})
	if got := poll(); !gocmp.Equal(got, []uint64{late}) {
		t.Fatalf("first poll: %v, want [%d]", got, late)
	}
	mustAppend(t, tl, Message[uint64]{ID: early, Payload: []byte("a")})
	if p, _ := tl.After(ctx, newest, 10); len(p.Messages) != 0 {
		t.Fatalf("After the newest ID shown finds %v: the late append is not behind it", idsOf(p.Messages))
	}
	if got := poll(); !gocmp.Equal(got, []uint64{early}) {
		t.Errorf("poll after the late append: %v, want [%d]", got, early)
	}
	if got := poll(); len(got) != 0 {
		t.Errorf("poll with nothing new: %v, want none", got)
	}
}

package timeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// newTL builds a timeline whose room holds the test's prefix, so the
// redistest cleanup deletes its keys.
func newTL[ID any](t *testing.T, client rueidis.Client, room string, c Codec[ID], o Options) *Timeline[ID] {
	t.Helper()
	tl, err := New(client, room, c, o)
	if err != nil {
		t.Fatalf("New(%q): %v", room, err)
	}
	return tl
}

// eachStrategy runs f once per strategy, each on its own room.
func eachStrategy(t *testing.T, f func(t *testing.T, env *redistest.Env, s Strategy)) {
	t.Helper()
	for _, s := range []Strategy{SplitScore, LexID} {
		t.Run(s.String(), func(t *testing.T) { f(t, redistest.New(t), s) })
	}
}

func mustAppend[ID any](t *testing.T, tl *Timeline[ID], msgs ...Message[ID]) {
	t.Helper()
	if err := tl.AppendMany(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
}

func idsOf[ID any](msgs []Message[ID]) []ID {
	var out []ID
	for _, m := range msgs {
		out = append(out, m.ID)
	}
	return out
}

// The chat paging example: ten messages in a room, IDs so close that as
// float64 scores they collapse. Before the oldest is empty with no more;
// before the newest are the nine others.
func TestChatPagingExample(t *testing.T) {
	const first = 640436544564866084 // a float64 score turns it into ...048
	if float64(first) != float64(first+9) {
		t.Fatalf("the IDs should collide as float64 scores")
	}
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_paging", tsid.TSID, Options{Strategy: s})
		var msgs []Message[uint64]
		for i := uint64(0); i < 10; i++ {
			msgs = append(msgs, Message[uint64]{ID: first + i, Payload: []byte(`{"text":"` + strconv.Itoa(int(i)) + `"}`)})
		}
		mustAppend(t, tl, msgs...)

		p, err := tl.Before(ctx, first, 30)
		if err != nil || len(p.Messages) != 0 || p.HasMore {
			t.Errorf("Before(oldest) = %+v, %v; want an empty page, HasMore false", p, err)
		}
		p, err = tl.Before(ctx, first+9, 30)
		if err != nil {
			t.Fatal(err)
		}
		want := []uint64{first + 8, first + 7, first + 6, first + 5, first + 4, first + 3, first + 2, first + 1, first}
		if diff := gocmp.Diff(want, idsOf(p.Messages)); diff != "" || p.HasMore || p.Next != first {
			t.Errorf("Before(newest): HasMore %v, Next %d (-want +got):\n%s", p.HasMore, p.Next, diff)
		}
		if string(p.Messages[0].Payload) != `{"text":"8"}` {
			t.Errorf("payload %q", p.Messages[0].Payload)
		}
	})
}

// A suffix repeats across milliseconds: both messages stay, each in place.
func TestSuffixRepeats(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_rep", tsid.TSID, Options{Strategy: s})
		a, b, c := uint64(9153062458)<<22|5, uint64(9153062459)<<22|5, uint64(9153062459)<<22|4
		mustAppend(t, tl, Message[uint64]{a, []byte("a")}, Message[uint64]{b, []byte("b")}, Message[uint64]{c, []byte("c")})
		p, err := tl.Latest(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff([]uint64{b, c, a}, idsOf(p.Messages)); diff != "" {
			t.Errorf("Latest (-want +got):\n%s", diff)
		}
		for id, want := range map[uint64]string{a: "a", b: "b", c: "c"} {
			if m, err := tl.Get(ctx, id); err != nil || string(m.Payload) != want {
				t.Errorf("Get(%d) = %q, %v; want %q", id, m.Payload, err, want)
			}
		}
	})
}

// 10,000 messages in one millisecond, appended in random order, read back
// in exact ID order in both directions; cursors that were never stored
// page by value.
func TestOneMillisecond(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_ms", tsid.TSID, Options{Strategy: s})
		rng := rand.New(rand.NewPCG(1, 2))
		const ms = uint64(9153062458) << 22
		set := map[uint64]bool{}
		var msgs []Message[uint64]
		for len(msgs) < 10000 {
			id := ms | rng.Uint64N(1<<22)
			if !set[id] {
				set[id] = true
				msgs = append(msgs, Message[uint64]{ID: id, Payload: []byte(strconv.FormatUint(id, 10))})
			}
		}
		mustAppend(t, tl, msgs...)
		asc := idsOf(msgs)
		slices.Sort(asc)
		desc := slices.Clone(asc)
		slices.Reverse(desc)

		var got []uint64
		p, err := tl.Latest(ctx, 0)
		for ; err == nil; p, err = tl.Before(ctx, p.Next, 0) {
			got = append(got, idsOf(p.Messages)...)
			if !p.HasMore {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(desc, got); diff != "" {
			t.Errorf("Latest then Before (-want +got):\n%s", diff)
		}
		if diff := gocmp.Diff(asc, idsOf(pageAll(t, tl, 0, 997))); diff != "" {
			t.Errorf("After (-want +got):\n%s", diff)
		}
		for range 30 {
			c := ms | rng.Uint64N(1<<22)
			if set[c] {
				continue
			}
			i, _ := slices.BinarySearch(asc, c)
			p, err := tl.Before(ctx, c, 50)
			want := slices.Clone(asc[max(0, i-50):i])
			slices.Reverse(want)
			if diff := gocmp.Diff(want, idsOf(p.Messages)); err != nil || diff != "" || p.HasMore != (i > 50) {
				t.Fatalf("Before(never stored %d): %v (-want +got):\n%s", c, err, diff)
			}
		}
	})
}

// Cursors of removed and never stored messages page by value.
func TestAbsentCursors(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_abs", tsid.TSID, Options{Strategy: s})
		base := uint64(9153062458) << 22
		var msgs []Message[uint64]
		for i := uint64(0); i < 10; i++ {
			msgs = append(msgs, Message[uint64]{ID: base + i*2, Payload: []byte("x")}) // even rests
		}
		mustAppend(t, tl, msgs...)
		if n, err := tl.Remove(ctx, base+10); n != 1 || err != nil {
			t.Fatalf("Remove = %d, %v; want 1", n, err)
		}
		for _, c := range []struct {
			name          string
			cursor        uint64
			before, after []uint64
		}{
			{"removed", base + 10, []uint64{base + 8, base + 6}, []uint64{base + 12, base + 14}},
			{"never stored", base + 7, []uint64{base + 6, base + 4}, []uint64{base + 8, base + 12}},
			{"below all", 0, nil, []uint64{base, base + 2}},
			{"above all", tsid.TSID.Max(), []uint64{base + 18, base + 16}, nil},
		} {
			b, err1 := tl.Before(ctx, c.cursor, 2)
			a, err2 := tl.After(ctx, c.cursor, 2)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if d1, d2 := gocmp.Diff(c.before, idsOf(b.Messages)), gocmp.Diff(c.after, idsOf(a.Messages)); d1+d2 != "" {
				t.Errorf("%s: Before (-want +got):\n%s\nAfter (-want +got):\n%s", c.name, d1, d2)
			}
		}
		w, err := tl.Around(ctx, base+10, 4)
		if diff := gocmp.Diff([]uint64{base + 6, base + 8, base + 12, base + 14}, idsOf(w.Messages)); err != nil || diff != "" || !w.HasOlder || !w.HasNewer {
			t.Errorf("Around(removed) = %+v, %v (-want +got):\n%s", w, err, diff)
		}
	})
}

func TestGetRemoveDrop(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_gdd", tsid.ULID, Options{Strategy: s})
		id, _ := tsid.ULID.Parse("01AN4Z07BY79KA1307SR9X4MV3")
		mustAppend(t, tl, Message[[16]byte]{id, []byte("v1")})
		mustAppend(t, tl, Message[[16]byte]{id, []byte("v2")}) // replaces the payload
		if m, err := tl.Get(ctx, id); err != nil || string(m.Payload) != "v2" || m.ID != id {
			t.Errorf("Get = %+v, %v", m, err)
		}
		if n, _ := tl.Len(ctx); n != 1 {
			t.Errorf("Len = %d, want 1", n)
		}
		for i, want := range []int64{1, 0} {
			if n, err := tl.Remove(ctx, id); n != want || err != nil {
				t.Errorf("Remove #%d = %d, %v; want %d", i, n, err, want)
			}
		}
		_, err := tl.Get(ctx, id)
		checkErr(t, "Get after Remove", err, ErrNotFound)
		if want := "Get: id " + tsid.ULID.Format(id) + ": "; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Get after Remove: %v, want the ID in its layout's text in the error (%q)", err, want)
		}
		mustAppend(t, tl, Message[[16]byte]{id, []byte("v3")})
		if err := tl.Drop(ctx); err != nil {
			t.Fatal(err)
		}
		n, err := env.Client.Do(ctx, env.Client.B().Exists().Key(tl.Key()).Build()).AsInt64()
		if err != nil || n != 0 {
			t.Errorf("keys left after Drop: %d, %v", n, err)
		}
		if tl.Room() != env.Prefix+"_gdd" || tl.Strategy() != s || tl.Codec() != Codec[[16]byte](tsid.ULID) {
			t.Errorf("accessors: %q %v %v", tl.Room(), tl.Strategy(), tl.Codec())
		}
	})
}

func TestRetention(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		clock := &testClock{}
		base := uint64(9153062458)
		ids := func(from, to uint64) (out []Message[uint64]) {
			for ms := from; ms < to; ms++ {
				out = append(out, Message[uint64]{ID: (base + ms) << 22, Payload: []byte("x")})
			}
			return out
		}
		tl := newTL(t, env.Client, env.Prefix+"_ret", tsid.TSID, Options{Strategy: s, MaxLen: 10, MaxAge: time.Second, Clock: clock.Now})
		clock.Set(tsid.TSID.Time(base << 22).Add(2 * time.Second)) // keeps time parts >= base+1000
		mustAppend(t, tl, ids(990, 1030)...)
		p, err := tl.Latest(ctx, 100)
		if err != nil || len(p.Messages) != 10 || p.Messages[9].ID != (base+1020)<<22 || p.HasMore {
			t.Fatalf("after MaxLen 10: %d messages, oldest %d, %v", len(p.Messages), p.Next, err)
		}
		clock.Set(tsid.TSID.Time(base << 22).Add(2*time.Second + 25*time.Millisecond)) // time parts >= base+1025
		if n, err := tl.Trim(ctx); n != 5 || err != nil {
			t.Errorf("Trim by age = %d, %v; want 5", n, err)
		}
		clock.Set(time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)) // before the epoch: nothing is that old
		if n, err := tl.Trim(ctx); n != 0 || err != nil {
			t.Errorf("Trim with the clock before the epoch = %d, %v; want 0", n, err)
		}
		clock.Set(time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)) // past TSID's last time part
		if n, err := tl.Trim(ctx); n != 5 || err != nil {
			t.Errorf("Trim of everything = %d, %v; want 5", n, err)
		}
		plain := newTL(t, env.Client, env.Prefix+"_plain", tsid.TSID, Options{Strategy: s})
		mustAppend(t, plain, ids(0, 3)...)
		if n, err := plain.Trim(ctx); n != 0 || err != nil {
			t.Errorf("Trim without retention = %d, %v", n, err)
		}
	})
}

// badCodec breaks the Codec contract: a suffix one digit short.
type badCodec struct{ *tsid.Layout }

func (c badCodec) AppendSplit(dst []byte, id uint64) (float64, []byte, error) {
	s, out, err := c.Layout.AppendSplit(dst, id)
	return s, out[:len(out)-1], err
}

// upperCodec breaks the Codec contract: a suffix of the right width, not
// lowercase hex.
type upperCodec struct{ *tsid.Layout }

func (c upperCodec) AppendSplit(dst []byte, id uint64) (float64, []byte, error) {
	s, out, err := c.Layout.AppendSplit(dst, id)
	for i := len(dst); i < len(out); i++ {
		out[i] = 'Z'
	}
	return s, out, err
}

// boundsCodec claims a MaxTime and a SuffixLen that New refuses.
type boundsCodec struct {
	*tsid.Layout
	maxTime uint64
	sufLen  int
}

func (c boundsCodec) MaxTime() uint64 { return c.maxTime }
func (c boundsCodec) SuffixLen() int  { return c.sufLen }

func TestRefusals(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	room := env.Prefix + "_bad"
	for _, r := range []string{"", "a{b", "a}b", strings.Repeat("r", MaxRoomLen+1)} {
		_, err := New(env.Client, r, tsid.TSID, Options{})
		checkErr(t, fmt.Sprintf("room %q", r), err, ErrRoom)
	}
	var nilLayout *tsid.Layout
	for i, o := range []Options{
		{Strategy: 2}, {MaxPage: MaxPageLimit + 1}, {MaxPage: -1}, {DefaultPage: 11, MaxPage: 10},
		{DefaultPage: -1}, {MaxPayload: MaxPayloadLimit + 1}, {MaxLen: -1}, {MaxAge: -time.Second},
	} {
		_, err := New(env.Client, room, tsid.TSID, o)
		checkErr(t, fmt.Sprintf("options %d %+v", i, o), err, ErrOptions)
	}
	_, err := New[uint64](nil, room, tsid.TSID, Options{})
	checkErr(t, "nil client", err, ErrOptions)
	_, err = New(env.Client, room, nilLayout, Options{})
	checkErr(t, "nil layout", err, ErrOptions)
	_, err = New[uint64](env.Client, room, nil, Options{})
	checkErr(t, "nil codec", err, ErrOptions)
	_, err = New(env.Client, room, &tsid.Layout{}, Options{})
	checkErr(t, "zero tsid.Layout", err, ErrOptions)
	_, err = New(env.Client, room, &tsid.Layout128{}, Options{})
	checkErr(t, "zero tsid.Layout128", err, ErrOptions)
	_, err = New(env.Client, room, (*tsid.Layout128)(nil), Options{})
	checkErr(t, "nil tsid.Layout128", err, ErrOptions)
	for _, c := range []boundsCodec{{tsid.TSID, 1 << 53, 6}, {tsid.TSID, 1<<42 - 1, 0}, {tsid.TSID, 1<<42 - 1, 65}} {
		_, err = New(env.Client, room, Codec[uint64](c), Options{})
		checkErr(t, fmt.Sprintf("codec with MaxTime %d, SuffixLen %d", c.maxTime, c.sufLen), err, ErrOptions)
	}

	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		tl := newTL(t, env.Client, env.Prefix+"_sf", tsid.Snowflake, Options{Strategy: s, MaxPayload: 8})
		good := Message[uint64]{ID: 1 << 40, Payload: []byte("ok")}
		checkRefused(t, tl, func() error { return tl.Append(ctx, good.ID, nil) }, ErrPayload)
		checkRefused(t, tl, func() error { return tl.Append(ctx, good.ID, []byte{}) }, ErrPayload)
		checkRefused(t, tl, func() error { return tl.Append(ctx, good.ID, []byte("123456789")) }, ErrPayload)
		checkRefused(t, tl, func() error { return tl.AppendMany(ctx, []Message[uint64]{good, {ID: 2, Payload: nil}}) }, ErrPayload)
		checkRefused(t, tl, func() error { return tl.Append(ctx, 1<<63, []byte("x")) }, ErrID, tsid.ErrRange) // Snowflake is 63 bits
		checkRefused(t, tl, func() error { return tl.AppendMany(ctx, []Message[uint64]{good, {ID: 1 << 63, Payload: []byte("x")}}) }, ErrID, tsid.ErrRange)
		mustAppend(t, tl, good)
		for _, n := range []int{-1, DefaultMaxPageSize + 1} {
			checkRefused(t, tl, func() error { return errOf(tl.Latest(ctx, n)) }, ErrPageSize)
			checkRefused(t, tl, func() error { return errOf(tl.Oldest(ctx, n)) }, ErrPageSize)
			checkRefused(t, tl, func() error { return errOf(tl.Before(ctx, good.ID, n)) }, ErrPageSize)
			checkRefused(t, tl, func() error { return errOf(tl.After(ctx, good.ID, n)) }, ErrPageSize)
			checkRefused(t, tl, func() error { return errOf(tl.Around(ctx, good.ID, n)) }, ErrPageSize)
		}
		checkRefused(t, tl, func() error { return errOf(tl.Before(ctx, 1<<63, 1)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.After(ctx, 1<<63, 1)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.Around(ctx, 1<<63, 1)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.Get(ctx, 1<<63)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.Remove(ctx, 1<<63)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.Remove(ctx, good.ID, 1<<63)) }, ErrID, tsid.ErrRange)
		checkRefused(t, tl, func() error { return errOf(tl.Remove(ctx)) }, ErrArgument)
		checkRefused(t, tl, func() error { return errOf(tl.Remove(ctx, make([]uint64, MaxRemove+1)...)) }, ErrArgument)
		many := make([]Message[uint64], MaxAppendMany+1)
		for i := range many {
			many[i] = Message[uint64]{ID: 1<<40 + uint64(i), Payload: []byte("x")}
		}
		checkRefused(t, tl, func() error { return tl.AppendMany(ctx, many) }, ErrArgument)
		if p, err := tl.Latest(ctx, 5); err != nil || len(p.Messages) != 1 {
			t.Errorf("after the refusals: %+v, %v; want the one good message", p, err)
		}

		v7 := newTL(t, env.Client, env.Prefix+"_v7", tsid.UUIDv7, Options{Strategy: s})
		v4, _ := tsid.ULID.Parse("01AN4Z07BY79KA1307SR9X4MV3") // version nibble not 7
		checkRefused(t, v7, func() error { return errOf(v7.Before(ctx, v4, 1)) }, ErrID, tsid.ErrVersion)
		checkRefused(t, v7, func() error { return v7.Append(ctx, v4, []byte("x")) }, ErrID, tsid.ErrVersion)

		bc := newTL(t, env.Client, env.Prefix+"_bc", Codec[uint64](badCodec{tsid.TSID}), Options{Strategy: s})
		checkRefused(t, bc, func() error { return bc.Append(ctx, 1, []byte("x")) }, ErrOptions)
		uc := newTL(t, env.Client, env.Prefix+"_uc", Codec[uint64](upperCodec{tsid.TSID}), Options{Strategy: s})
		checkRefused(t, uc, func() error { return uc.Append(ctx, 1, []byte("x")) }, ErrOptions)
		if n, err := uc.Len(ctx); err != nil || n != 0 {
			t.Errorf("a suffix not in lowercase hex was stored: Len = %d, %v", n, err)
		}
	})
}

// checkRefused checks that f fails with an error that wraps every one of
// want (see checkErr) and that the timeline did not change.
func checkRefused[ID any](t *testing.T, tl *Timeline[ID], f func() error, want ...error) {
	t.Helper()
	before, _ := tl.Latest(context.Background(), 100)
	checkErr(t, "refused call", f(), want...)
	after, _ := tl.Latest(context.Background(), 100)
	if diff := gocmp.Diff(before, after); diff != "" {
		t.Errorf("a refused call changed the timeline (-before +after):\n%s", diff)
	}
}

func errOf[T any](_ T, err error) error { return err }

// sentinels are the package's sentinel errors.
var sentinels = []error{ErrOptions, ErrRoom, ErrID, ErrPageSize, ErrPayload, ErrArgument, ErrNotFound, ErrRedis, ErrReply}

// checkErr fails unless err wraps every one of want and exactly one of the
// package's sentinels (ErrArgument aside: every sentinel for bad input
// wraps it), or none for an error of the caller's context, and says
// "timeline: " exactly once. An error of bad input wraps ErrArgument; an
// error of the caller's context does not wrap ErrRedis.
func checkErr(t *testing.T, what string, err error, want ...error) {
	t.Helper()
	if err != nil && strings.Count(err.Error(), "timeline: ") != 1 {
		t.Errorf("%s: error %q does not say %q exactly once", what, err, "timeline: ")
	}
	for _, w := range want {
		if !errors.Is(err, w) {
			t.Errorf("%s: err = %v, want %v", what, err, w)
		}
	}
	n, input := 0, false
	for _, s := range sentinels {
		if errors.Is(err, s) && s != ErrArgument {
			n++
			input = input || errors.Is(s, ErrArgument)
		}
	}
	if caller := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded); caller {
		if n != 0 {
			t.Errorf("%s: error %q of the caller's context wraps %d of the package's sentinels, want none", what, err, n)
		}
	} else if n != 1 && !(n == 0 && errors.Is(err, ErrArgument)) {
		t.Errorf("%s: error %q wraps %d of the package's sentinels (ErrArgument aside), want 1", what, err, n)
	}
	if input && !errors.Is(err, ErrArgument) {
		t.Errorf("%s: error %q of bad input does not wrap ErrArgument", what, err)
	}
}

// A cancelled context reaches the caller as context.Canceled, not as
// ErrRedis (a client that hung up is no Redis outage), from every kind of
// call: commands, scripts and transactions.
func TestCancelled(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		tl := newTL(t, env.Client, env.Prefix+"_cancel", tsid.TSID, Options{Strategy: s})
		mustAppend(t, tl, Message[uint64]{ID: 1 << 22, Payload: []byte("x")})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for name, f := range map[string]func() error{
			"Append": func() error { return tl.Append(ctx, 2<<22, []byte("y")) },
			"Latest": func() error { return errOf(tl.Latest(ctx, 5)) },
			"Oldest": func() error { return errOf(tl.Oldest(ctx, 5)) },
			"Remove": func() error { return errOf(tl.Remove(ctx, 1<<22)) },
			"Drop":   func() error { return tl.Drop(ctx) },
			"Before": func() error { return errOf(tl.Before(ctx, 3<<22, 5)) },
			"Around": func() error { return errOf(tl.Around(ctx, 1<<22, 5)) },
			"Get":    func() error { return errOf(tl.Get(ctx, 1<<22)) },
			"Len":    func() error { return errOf(tl.Len(ctx)) },
		} {
			checkErr(t, name, f(), context.Canceled)
		}
		if n, err := tl.Len(context.Background()); n != 1 || err != nil {
			t.Errorf("Len after the cancelled calls = %d, %v; want 1", n, err)
		}
	})
}

// A key of another type under the room's name is Redis's error, WRONGTYPE,
// from every read: ErrRedis with Redis's text, a transaction's included,
// not a reply of the wrong shape.
func TestWrongTypeIsErrRedis(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_wrongtype", tsid.TSID, Options{Strategy: s})
		if err := env.Client.Do(ctx, env.Client.B().Set().Key(tl.Key()).Value("x").Build()).Error(); err != nil {
			t.Fatal(err)
		}
		for name, f := range map[string]func() error{
			"Latest": func() error { return errOf(tl.Latest(ctx, 5)) },
			"Oldest": func() error { return errOf(tl.Oldest(ctx, 5)) },
			"Before": func() error { return errOf(tl.Before(ctx, 3<<22, 5)) },
			"After":  func() error { return errOf(tl.After(ctx, 1<<22, 5)) },
			"Around": func() error { return errOf(tl.Around(ctx, 1<<22, 5)) },
			"Get":    func() error { return errOf(tl.Get(ctx, 1<<22)) },
			"Len":    func() error { return errOf(tl.Len(ctx)) },
		} {
			if err := f(); !errors.Is(err, ErrRedis) || errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "WRONGTYPE") {
				t.Errorf("%s of a string key: %v; want ErrRedis with WRONGTYPE", name, err)
			}
		}
	})
}

func TestDefaultPage(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	tl := newTL(t, env.Client, env.Prefix+"_def", tsid.TSID, Options{})
	var msgs []Message[uint64]
	for i := uint64(1); i <= 60; i++ {
		msgs = append(msgs, Message[uint64]{ID: i << 22, Payload: []byte("x")})
	}
	mustAppend(t, tl, msgs...)
	p, err := tl.Latest(ctx, 0)
	if err != nil || len(p.Messages) != DefaultPageSize || !p.HasMore {
		t.Errorf("Latest(0): %d messages, HasMore %v, %v; want 50, true", len(p.Messages), p.HasMore, err)
	}
	if p, err := tl.Latest(ctx, DefaultMaxPageSize); err != nil || len(p.Messages) != 60 || p.HasMore {
		t.Errorf("Latest(max): %d messages, HasMore %v, %v", len(p.Messages), p.HasMore, err)
	}
}

// Members that the timeline did not write are reported, not misread.
func TestForeignMembers(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_for", tsid.TSID, Options{Strategy: s})
		for _, m := range []string{"short", "0000000000000000x"[:17], "zzzzzzzzzzzzzzzzz:x", "ffffffffffffffffff:x"} {
			cmds := rueidis.Commands{
				env.Client.B().Del().Key(tl.Key()).Build(),
				env.Client.B().Zadd().Key(tl.Key()).ScoreMember().ScoreMember(0, m).Build(),
			}
			for _, r := range env.Client.DoMulti(ctx, cmds...) {
				if r.Error() != nil {
					t.Fatal(r.Error())
				}
			}
			_, err := tl.Latest(ctx, 5)
			checkErr(t, fmt.Sprintf("member %q", m), err, ErrReply)
		}
	})
}

// Goroutines append the same IDs with different payloads at once: every
// ID keeps exactly one message, and the order stays exact.
func TestConcurrentEdits(t *testing.T) {
	eachStrategy(t, func(t *testing.T, env *redistest.Env, s Strategy) {
		ctx := context.Background()
		tl := newTL(t, env.Client, env.Prefix+"_conc", tsid.TSID, Options{Strategy: s})
		const ids, writers = 300, 6
		errs := make(chan error, writers)
		for w := range writers {
			go func() {
				var msgs []Message[uint64]
				for i := range ids {
					id := uint64(9153062458+i%7)<<22 | uint64(i)
					msgs = append(msgs, Message[uint64]{ID: id, Payload: []byte("w" + strconv.Itoa(w))})
				}
				var err error
				for _, m := range msgs { // one script each, interleaved with the others
					err = errors.Join(err, tl.Append(ctx, m.ID, m.Payload))
				}
				errs <- err
			}()
		}
		done := make(chan struct{})
		readErr := make(chan error, 1)
		go func() { readErr <- readWhileWriting(ctx, tl, done) }()
		for range writers {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		close(done)
		if err := <-readErr; err != nil {
			t.Error(err)
		}
		got := idsOf(pageAll(t, tl, 0, 50))
		increasing := slices.IsSortedFunc(got, func(a, b uint64) int { return cmp.Compare(a, b+1) }) // each above the one before
		if len(got) != ids || !increasing {
			t.Errorf("%d messages after concurrent edits of %d IDs, strictly increasing: %v", len(got), ids, increasing)
		}
	})
}

// readWhileWriting pages back through tl until done, checking that every
// page is in strictly descending ID order.
func readWhileWriting(ctx context.Context, tl *Timeline[uint64], done <-chan struct{}) error {
	for {
		select {
		case <-done:
			return nil
		default:
		}
		p, err := tl.Latest(ctx, 7)
		for ; err == nil; p, err = tl.Before(ctx, p.Next, 7) {
			for i := 1; i < len(p.Messages); i++ {
				if p.Messages[i].ID >= p.Messages[i-1].ID {
					return fmt.Errorf("page out of order: %v", idsOf(p.Messages))
				}
			}
			if !p.HasMore {
				break
			}
		}
		if err != nil {
			return err
		}
	}
}

package timeline

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid"
)

// testClock is a settable clock, safe for concurrent use.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// idSpace makes the IDs of a workload: few time parts and few suffixes,
// so that messages share milliseconds and suffixes repeat across them.
type idSpace[ID any] struct {
	codec Codec[ID]
	cmp   func(a, b ID) int
	// make returns the ID of time part t (an offset from the workload's
	// base) and rest choice r (0..restChoices-1, the last ones random).
	make func(rng *rand.Rand, t uint64, r int) ID
	// extremes are cursors outside the stored range: the smallest and
	// largest IDs of the layout.
	extremes []ID
	base     uint64 // time part of offset 0
}

const (
	timeChoices = 6
	restChoices = 8
)

// tsidSpace is TSID around 2026: rests 0, 1, 2, 4096, max-1, max and two
// random ones.
func tsidSpace() idSpace[uint64] {
	base, _ := tsid.TSID.Score(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	rests := []uint64{0, 1, 2, 4096, 1<<22 - 2, 1<<22 - 1}
	return idSpace[uint64]{
		codec: tsid.TSID, cmp: cmp.Compare[uint64], base: uint64(base),
		extremes: []uint64{0, tsid.TSID.Max()},
		make: func(rng *rand.Rand, t uint64, r int) uint64 {
			rest := rng.Uint64N(1 << 22)
			if r < len(rests) {
				rest = rests[r]
			}
			return (uint64(base)+t)<<22 | rest
		},
	}
}

// space128 is ULID or UUIDv7 around 2026; fix sets UUIDv7's version and
// variant bits.
func space128(l *tsid.Layout128, fix func(*[16]byte)) idSpace[[16]byte] {
	base := uint64(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixMilli())
	var lo, hi [16]byte
	for i := range hi {
		hi[i] = 0xff
	}
	fix(&lo)
	fix(&hi)
	return idSpace[[16]byte]{
		codec: l, base: base, extremes: [][16]byte{lo, hi},
		cmp: func(a, b [16]byte) int { return bytes.Compare(a[:], b[:]) },
		make: func(rng *rand.Rand, t uint64, r int) [16]byte {
			var id [16]byte
			ms := base + t
			for i := 5; i >= 0; i-- {
				id[i], ms = byte(ms), ms>>8
			}
			switch {
			case r < 2:
				for i := 6; i < 16; i++ {
					id[i] = byte(r * 0xff)
				}
			case r < 5:
				id[15] = byte(r)
			default:
				for i := 6; i < 16; i++ {
					id[i] = byte(rng.Uint32())
				}
			}
			fix(&id)
			return id
		},
	}
}

func noFix(*[16]byte) {}

func fixV7(id *[16]byte) { id[6] = 0x70 | id[6]&0x0f; id[8] = 0x80 | id[8]&0x3f }

// tlWorkload drives random appends, removes, trims and reads through
// timelines of both strategies and a model, failing on the first answer
// that differs.
type tlWorkload[ID any] struct {
	t      *testing.T
	rng    *rand.Rand
	space  idSpace[ID]
	model  *tlModel[ID]
	tls    []*Timeline[ID]
	clock  *testClock
	maxAge time.Duration
	step   int
}

// newWorkload builds one timeline per strategy on client, rooms named
// from prefix and name, with options o (its Clock replaced by the
// workload's).
func newWorkload[ID any](t *testing.T, client rueidis.Client, prefix, name string, space idSpace[ID], o Options) *tlWorkload[ID] {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("%s: seed %d", name, seed)
	w := &tlWorkload[ID]{t: t, rng: rand.New(rand.NewPCG(seed, 4)), space: space, clock: &testClock{}, maxAge: o.MaxAge}
	w.model = &tlModel[ID]{cmp: space.cmp, maxLen: int(o.MaxLen), part: func(id ID) uint64 {
		s, _, err := space.codec.AppendSplit(nil, id)
		if err != nil {
			t.Fatalf("split %v: %v", id, err)
		}
		return uint64(s)
	}}
	w.tickClock()
	o.Clock = w.clock.Now
	// The third timeline reads every time unit of two or more messages the
	// way a crowded one is read, with the binary-searching scripts.
	for i, s := range []Strategy{SplitScore, LexID, SplitScore} {
		o.Strategy = s
		tl, err := New(client, prefix+"_"+name+"_"+s.String()+strconv.Itoa(i), space.codec, o)
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			tl.crowd = 1
		}
		w.tls = append(w.tls, tl)
	}
	return w
}

// tickClock sets the clock inside the workload's time parts, so that an
// age limit of a few units trims some of them.
func (w *tlWorkload[ID]) tickClock() {
	id := w.space.make(w.rng, 1+w.rng.Uint64N(timeChoices), 0)
	w.clock.Set(w.space.codec.Time(id).Add(time.Duration(w.rng.IntN(1000)) * time.Microsecond))
}

// cut returns the model's age cutoff for the clock now.
func (w *tlWorkload[ID]) cut() (bool, uint64) {
	if w.maxAge == 0 {
		return false, 0
	}
	s, err := w.space.codec.Score(w.clock.Now().Add(-w.maxAge))
	if err != nil {
		w.t.Fatal(err)
	}
	return true, uint64(s)
}

func (w *tlWorkload[ID]) id() ID {
	return w.space.make(w.rng, w.rng.Uint64N(timeChoices), w.rng.IntN(restChoices))
}

// readCursor is a cursor or, now and then, the zero ID, which reads accept
// even where the codec refuses it (UUIDv7).
func (w *tlWorkload[ID]) readCursor() ID {
	if w.rng.IntN(16) == 0 {
		var zero ID
		return zero
	}
	return w.cursor()
}

// cursor is a stored, removed or never stored ID, or an extreme.
func (w *tlWorkload[ID]) cursor() ID {
	if w.rng.IntN(8) == 0 {
		return w.space.extremes[w.rng.IntN(len(w.space.extremes))]
	}
	if n := len(w.model.msgs); n > 0 && w.rng.IntN(2) == 0 {
		return w.model.msgs[w.rng.IntN(n)].ID
	}
	return w.id()
}

func (w *tlWorkload[ID]) payload() []byte {
	p := fmt.Appendf(nil, "m%d", w.step)
	if w.rng.IntN(4) == 0 {
		p = append(p, 0, 0xff, '\n', '{', '}')
	}
	return p
}

func (w *tlWorkload[ID]) run(steps int) {
	for w.step = 0; w.step < steps; w.step++ {
		switch n := w.rng.IntN(20); {
		case n < 6:
			w.append(1 + w.rng.IntN(1+9*(n/5))) // mostly one, sometimes up to 10
		case n < 8:
			w.remove()
		case n < 9:
			w.trim()
		case n < 10:
			w.tickClock()
		default:
			w.read()
		}
	}
	w.checkAll()
}

func (w *tlWorkload[ID]) append(k int) {
	ctx := context.Background()
	msgs := make([]Message[ID], k)
	for i := range msgs {
		msgs[i] = Message[ID]{ID: w.id(), Payload: w.payload()}
		w.model.put(msgs[i].ID, msgs[i].Payload)
	}
	w.model.trim(w.cut())
	for _, tl := range w.tls {
		var err error
		if k == 1 {
			err = tl.Append(ctx, msgs[0].ID, msgs[0].Payload)
		} else {
			err = tl.AppendMany(ctx, msgs)
		}
		if err != nil {
			w.t.Fatalf("step %d %v: append %d: %v", w.step, tl.Room(), k, err)
		}
	}
}

// remove removes one to four IDs, stored or not, now and then one twice.
func (w *tlWorkload[ID]) remove() {
	ids := make([]ID, 1+w.rng.IntN(4))
	for i := range ids {
		ids[i] = w.cursor()
	}
	if len(ids) > 1 && w.rng.IntN(4) == 0 {
		ids[1] = ids[0]
	}
	want := w.model.remove(ids...)
	for _, tl := range w.tls {
		got, err := tl.Remove(context.Background(), ids...)
		if err != nil || got != want {
			w.t.Fatalf("step %d %v: Remove(%v) = %v, %v; want %v", w.step, tl.Room(), ids, got, err, want)
		}
	}
}

func (w *tlWorkload[ID]) trim() {
	want := w.model.trim(w.cut())
	if w.maxAge == 0 && w.model.maxLen == 0 {
		want = 0
	}
	for _, tl := range w.tls {
		got, err := tl.Trim(context.Background())
		if err != nil || got != want {
			w.t.Fatalf("step %d %v: Trim = %d, %v; want %d", w.step, tl.Room(), got, err, want)
		}
	}
}

// read compares one random read on every timeline with the model.
func (w *tlWorkload[ID]) read() {
	ctx := context.Background()
	c, n := w.readCursor(), 1+w.rng.IntN(8)
	if w.rng.IntN(10) == 0 {
		n = 0 // the default page size
	}
	op := w.rng.IntN(7)
	for _, tl := range w.tls {
		var want, got any
		var err error
		switch size := cmp.Or(n, tl.opts.DefaultPage); op {
		case 0:
			want = w.model.latest(size)
			got, err = tl.Latest(ctx, n)
		case 1:
			want = w.model.before(c, size)
			got, err = tl.Before(ctx, c, n)
		case 2:
			want = w.model.after(c, size)
			got, err = tl.After(ctx, c, n)
		case 3:
			want = w.model.around(c, size)
			got, err = tl.Around(ctx, c, n)
		case 4:
			want = w.model.oldest(size)
			got, err = tl.Oldest(ctx, n)
		case 5:
			m, ok := w.model.get(c)
			got, err = tl.Get(ctx, c)
			want = m
			if !ok && (errors.Is(err, ErrNotFound) || isZero(c) && errors.Is(err, ErrID)) {
				got, err = Message[ID]{}, nil
			}
		default:
			want = int64(len(w.model.msgs))
			got, err = tl.Len(ctx)
		}
		if err != nil {
			w.t.Fatalf("step %d %v: read %d(%v, %d): %v", w.step, tl.Room(), op, c, n, err)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			w.t.Fatalf("step %d %v: read %d(%v, %d) (-want +got):\n%s", w.step, tl.Room(), op, c, n, diff)
		}
	}
}

// checkAll pages through every timeline with After and compares the
// whole content with the model.
func (w *tlWorkload[ID]) checkAll() {
	w.t.Helper()
	for _, tl := range w.tls {
		got := pageAll(w.t, tl, w.space.extremes[0], 7)
		// An empty timeline pages as nil, a model emptied as []: the same.
		if diff := gocmp.Diff(w.model.msgs, got, cmpopts.EquateEmpty()); diff != "" {
			w.t.Fatalf("%v: content (-want +got):\n%s", tl.Room(), diff)
		}
	}
}

// pageAll reads the whole timeline oldest first with After from a cursor
// below every ID (that cursor's own message, if stored, is added first).
func pageAll[ID any](t *testing.T, tl *Timeline[ID], lowest ID, n int) []Message[ID] {
	t.Helper()
	ctx := context.Background()
	var all []Message[ID]
	if m, err := tl.Get(ctx, lowest); err == nil {
		all = append(all, m)
	}
	for c := lowest; ; {
		p, err := tl.After(ctx, c, n)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Messages...)
		if !p.HasMore {
			return all
		}
		c = p.Next
	}
}

func TestDifferential(t *testing.T) {
	env := redistest.New(t)
	retain := Options{MaxLen: 25, MaxAge: 2 * time.Millisecond}
	for _, c := range []struct {
		name string
		o    Options
	}{{"plain", Options{}}, {"retain", retain}} {
		t.Run("TSID/"+c.name, func(t *testing.T) {
			newWorkload(t, env.Client, env.Prefix, "tsid"+c.name, tsidSpace(), c.o).run(1500)
		})
		t.Run("ULID/"+c.name, func(t *testing.T) {
			newWorkload(t, env.Client, env.Prefix, "ulid"+c.name, space128(tsid.ULID, noFix), c.o).run(600)
		})
		t.Run("UUIDv7/"+c.name, func(t *testing.T) {
			newWorkload(t, env.Client, env.Prefix, "uuid"+c.name, space128(tsid.UUIDv7, fixV7), c.o).run(600)
		})
	}
}

// The differential workload through a 3-master Redis Cluster: every
// operation, on rooms whose hash tags land on different masters.
func TestCluster(t *testing.T) {
	cl := redistest.NewCluster(t, 3)
	retain := Options{MaxLen: 25, MaxAge: 2 * time.Millisecond}
	for i := 0; i < 3; i++ {
		newWorkload(t, cl.Client, cl.Prefix, fmt.Sprintf("tsid%d", i), tsidSpace(), Options{}).run(300)
		newWorkload(t, cl.Client, cl.Prefix, fmt.Sprintf("retain%d", i), tsidSpace(), retain).run(300)
	}
	newWorkload(t, cl.Client, cl.Prefix, "ulid", space128(tsid.ULID, noFix), retain).run(300)
}

package redistest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/decimalmap"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
	"github.com/tiebreak/tiebreak/ratelimit"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

// The load on a cluster whose shape changes: hot objects of every package,
// each under its own hash tag, written and read by goroutines that record
// every call's outcome and every write Redis acknowledged, so that a check
// afterwards finds each acknowledged write in place.

// callTimeout bounds one call of the load: long enough for a slot's move
// or a failover, so that a call fails only when the library gives up.
const callTimeout = 20 * time.Second

// failurePause is how long a goroutine of the load waits after a failed
// call before its next one.
const failurePause = 5 * time.Millisecond

// object is one hot object of the load.
type object struct {
	name  string   // what it is, e.g. "board KeySuffix"
	tag   string   // its hash tag: its keys live in the slot of "{" + tag + "}"
	more  []string // its other hash tags, if it has several (a sharded board)
	write func(ctx context.Context, w, i int) error
	read  func(ctx context.Context, i int) error          // nil: the object has no reads
	check func(ctx context.Context) (lost int, err error) // how many acknowledged writes are not there
	acked func() int                                      // how many writes were acknowledged
}

// call is the outcome of one call of the load.
type call struct {
	obj        string
	write      bool
	start, end time.Time
	err        error
}

// tally records every call of a load.
type tally struct {
	mu    sync.Mutex
	calls []call
}

func (t *tally) add(c call) {
	t.mu.Lock()
	t.calls = append(t.calls, c)
	t.mu.Unlock()
}

// failed returns the calls that failed among those f selects.
func (t *tally) failed(f func(call) bool) []call {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []call
	for _, c := range t.calls {
		if c.err != nil && f(c) {
			out = append(out, c)
		}
	}
	return out
}

// count returns how many calls f selects.
func (t *tally) count(f func(call) bool) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.calls {
		if f(c) {
			n++
		}
	}
	return n
}

// runLoad runs writers writers and one reader per object until stop is
// closed, and returns once they have all stopped.
func runLoad(objs []*object, writers int, stop <-chan struct{}) *tally {
	t := &tally{}
	var wg sync.WaitGroup
	loop := func(o *object, write bool, w int) {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			c := call{obj: o.name, write: write, start: time.Now()}
			if write {
				c.err = o.write(ctx, w, i)
			} else {
				c.err = o.read(ctx, i)
			}
			c.end = time.Now()
			cancel()
			t.add(c)
			if c.err != nil {
				time.Sleep(failurePause) // as a caller would, rather than spin
			}
		}
	}
	for _, o := range objs {
		for w := range writers {
			wg.Go(func() { loop(o, true, w) })
		}
		if o.read != nil {
			wg.Go(func() { loop(o, false, 0) })
		}
	}
	wg.Wait()
	return t
}

// hotObjects returns one object of every kind the load runs, named under
// prefix: a board of each strategy with member data and dense ranks, a
// timeline of each strategy, a decimal map and a limiter key.
func hotObjects(t *testing.T, client rueidis.Client, prefix string) []*object {
	t.Helper()
	objs := []*object{
		boardObject(t, client, prefix+"bp", board.PackedScore),
		boardObject(t, client, prefix+"bk", board.KeySuffix),
		timelineObject(t, client, prefix+"tl", timeline.LexID),
		timelineObject(t, client, prefix+"ts", timeline.SplitScore),
		decimalmapObject(t, client, prefix+"dm"),
		limiterObject(t, client, prefix+"rl"),
		shardedObject(t, client, prefix+"sb"),
	}
	return objs
}

// lostWrites runs every object's check and returns how many acknowledged
// writes each lost, by name.
func lostWrites(t *testing.T, objs []*object) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lost := map[string]int{}
	for _, o := range objs {
		n, err := o.check(ctx)
		if err != nil {
			t.Errorf("%s: checking the acknowledged writes: %v", o.name, err)
		}
		lost[o.name] = n
	}
	return lost
}

// boardObject is a board of strategy s with dense ranks; each write
// submits a new id with member data (every eighth, four of them in one
// SubmitMany), each read lists the best ten with their data, ranks an
// entry densely or counts the board.
func boardObject(t *testing.T, client rueidis.Client, name string, s board.Strategy) *object {
	t.Helper()
	layout, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 10},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.New(context.Background(), client, name, layout, board.Options{Strategy: s, DenseRanks: true})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[string]board.Submission{}
	sub := func(w, i int, part string) board.Submission {
		id := fmt.Sprintf("w%d-%d%s", w, i, part)
		return board.Submission{ID: id, Values: []float64{float64(i % 1000), float64(i % 2), float64(w)}, Data: []byte("data of " + id)}
	}
	write := func(ctx context.Context, w, i int) error {
		subs := []board.Submission{sub(w, i, "")}
		if i%8 == 7 {
			subs = []board.Submission{sub(w, i, "a"), sub(w, i, "b"), sub(w, i, "c"), sub(w, i, "d")}
		}
		var errs []error
		for j, r := range b.SubmitMany(ctx, subs) {
			if r.Err != nil {
				errs = append(errs, r.Err)
				continue
			}
			mu.Lock()
			acked[subs[j].ID] = subs[j]
			mu.Unlock()
		}
		return errors.Join(errs...)
	}
	read := func(ctx context.Context, i int) error {
		switch i % 3 {
		case 0:
			_, err := b.Top(ctx, 10, board.WithData())
			return err
		case 1:
			_, err := b.Rank(ctx, "w0-0", board.Dense)
			if errors.Is(err, board.ErrNotFound) {
				err = nil
			}
			return err
		}
		_, err := b.Len(ctx)
		return err
	}
	check := func(ctx context.Context) (lost int, err error) {
		mu.Lock()
		defer mu.Unlock()
		for id, s := range acked {
			e, err := b.Get(ctx, id, board.WithData())
			if errors.Is(err, board.ErrNotFound) {
				lost++
				continue
			}
			if err != nil {
				return lost, fmt.Errorf("acknowledged %s: %w", id, err)
			}
			if !slices.Equal(e.Values, s.Values) || !bytes.Equal(e.Data, s.Data) {
				return lost, fmt.Errorf("acknowledged %s = %v %q, stored %v %q", id, s.Values, s.Data, e.Values, e.Data)
			}
		}
		return lost, nil
	}
	return &object{name: "board " + s.String(), tag: name, write: write, read: read, check: check, acked: counter(&mu, acked)}
}

// shardedObject is a board sharded over three shards; each write submits
// a new id with member data, ranked on the whole board (every eighth, four
// of them in one SubmitMany), each read lists the best ten with their
// data, ranks an entry, lists the entries around it, or counts the board.
func shardedObject(t *testing.T, client rueidis.Client, name string) *object {
	t.Helper()
	layout, err := pack.NewLayout(pack.Field{Name: "points", Width: 10}, pack.Field{Name: "time", Width: 8, Dir: pack.LowerIsBetter})
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.New(context.Background(), client, name, layout, board.Options{Shards: 3})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[string]board.Submission{}
	write := func(ctx context.Context, w, i int) error {
		id := fmt.Sprintf("w%d-%d", w, i)
		s := board.Submission{ID: id, Values: []float64{float64(i % 1000), float64(w)}, Data: []byte("data of " + id)}
		subs := []board.Submission{s}
		if i%8 == 7 {
			for _, part := range "abcd" {
				s.ID = id + string(part)
				subs = append(subs, s)
			}
			subs = subs[1:]
		}
		var errs []error
		for j, r := range b.SubmitMany(ctx, subs) {
			if r.Err == nil && len(subs) == 1 {
				_, r.Err = b.Submit(ctx, subs[j]) // the same again, ranked: two round trips
			}
			if r.Err != nil {
				errs = append(errs, r.Err)
				continue
			}
			mu.Lock()
			acked[subs[j].ID] = subs[j]
			mu.Unlock()
		}
		return errors.Join(errs...)
	}
	read := func(ctx context.Context, i int) error {
		var err error
		switch i % 4 {
		case 0:
			_, err = b.Top(ctx, 10, board.WithData())
		case 1:
			_, err = b.Rank(ctx, "w0-0", board.Competition)
		case 2:
			_, err = b.Around(ctx, "w0-0", 5)
		default:
			_, err = b.Len(ctx)
		}
		if errors.Is(err, board.ErrNotFound) {
			err = nil
		}
		return err
	}
	check := func(ctx context.Context) (lost int, err error) {
		mu.Lock()
		defer mu.Unlock()
		for id, s := range acked {
			e, err := b.Get(ctx, id, board.WithData())
			if errors.Is(err, board.ErrNotFound) {
				lost++
				continue
			}
			if err != nil {
				return lost, fmt.Errorf("acknowledged %s: %w", id, err)
			}
			if !slices.Equal(e.Values, s.Values) || !bytes.Equal(e.Data, s.Data) {
				return lost, fmt.Errorf("acknowledged %s = %v %q, stored %v %q", id, s.Values, s.Data, e.Values, e.Data)
			}
		}
		// A write whose reply was lost may have run: at least the
		// acknowledged ones are counted.
		if n, err := b.Len(ctx); err != nil || n < int64(len(acked)) {
			return lost, fmt.Errorf("Len = %d, %v; %d writes acknowledged", n, err, len(acked))
		}
		return lost, nil
	}
	shards := shardNames(t, client, b.Name())
	return &object{name: "sharded board", tag: shards[0], more: shards[1:], write: write, read: read, check: check, acked: counter(&mu, acked)}
}

// timelineObject is a timeline of strategy s: each writer appends
// messages with IDs of its own generator, each read pages the latest
// messages, then those after the oldest.
func timelineObject(t *testing.T, client rueidis.Client, room string, s timeline.Strategy) *object {
	t.Helper()
	tl, err := timeline.New(client, room, tsid.TSID, timeline.Options{Strategy: s})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[uint64]string{}
	gens := sync.Map{}
	write := func(ctx context.Context, w, i int) error {
		g, ok := gens.Load(w)
		if !ok {
			gen, err := tsid.NewGenerator(tsid.GeneratorOptions{Node: uint64(w)})
			if err != nil {
				return err
			}
			g, _ = gens.LoadOrStore(w, gen)
		}
		id, err := g.(*tsid.Generator).Next()
		if err != nil {
			return err
		}
		payload := fmt.Sprintf("message %d of writer %d", i, w)
		if err := tl.Append(ctx, id, []byte(payload)); err != nil {
			return err
		}
		mu.Lock()
		acked[id] = payload
		mu.Unlock()
		return nil
	}
	read := func(ctx context.Context, i int) error {
		_, err := tl.Latest(ctx, 20)
		if err == nil && i%2 == 1 {
			_, err = tl.After(ctx, 0, 20)
		}
		return err
	}
	check := func(ctx context.Context) (lost int, err error) {
		stored := map[uint64]string{}
		for cursor, more := uint64(0), true; more; {
			p, err := tl.After(ctx, cursor, 1000)
			if err != nil {
				return 0, err
			}
			for _, m := range p.Messages {
				stored[m.ID] = string(m.Payload)
			}
			cursor, more = p.Next, p.HasMore
		}
		mu.Lock()
		defer mu.Unlock()
		for id, payload := range acked {
			got, ok := stored[id]
			if !ok {
				lost++
			} else if got != payload {
				return lost, fmt.Errorf("acknowledged %d %q, stored %q", id, payload, got)
			}
		}
		return lost, nil
	}
	return &object{name: "timeline " + s.String(), tag: room, write: write, read: read, check: check, acked: counter(&mu, acked)}
}

// decimalmapObject is a decimal map: each writer adds values to 50 keys
// of its own in turn, each read ranges over the first keys, scans a page
// or gets a key.
func decimalmapObject(t *testing.T, client rueidis.Client, name string) *object {
	t.Helper()
	m, err := decimalmap.New(client, name, decimalmap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[string][]string{} // canonical key -> values in order
	n := 0
	key := func(w, i int) string { return strconv.Itoa(w*1000+i%50) + ".25" }
	write := func(ctx context.Context, w, i int) error {
		v := fmt.Sprintf("value %d of writer %d", i, w)
		if _, err := m.Add(ctx, key(w, i), v); err != nil {
			return err
		}
		k, err := pack.CanonicalDecimal(key(w, i))
		if err != nil {
			return err
		}
		mu.Lock()
		acked[k] = append(acked[k], v)
		n++
		mu.Unlock()
		return nil
	}
	read := func(ctx context.Context, i int) error {
		var err error
		switch i % 3 {
		case 0:
			_, err = m.Range(ctx, decimalmap.Query{Limit: 5})
		case 1:
			_, err = m.Scan(ctx, "", 10)
		default:
			_, err = m.Get(ctx, key(0, i))
		}
		return err
	}
	check := func(ctx context.Context) (lost int, err error) {
		stored := map[string][]string{}
		for cursor, more := decimalmap.Cursor(""), true; more; {
			p, err := m.Scan(ctx, cursor, 100)
			if err != nil {
				return 0, err
			}
			for _, e := range p.Entries {
				stored[e.Key] = e.Values
			}
			cursor, more = p.Next, p.HasMore
		}
		mu.Lock()
		defer mu.Unlock()
		for k, vs := range acked {
			kept := slices.DeleteFunc(slices.Clone(stored[k]), func(v string) bool { return !slices.Contains(vs, v) })
			lost += len(vs) - len(kept)
			if len(kept) == len(vs) && !slices.Equal(kept, vs) {
				return lost, fmt.Errorf("key %s: the acknowledged values stored in another order", k)
			}
		}
		return lost, nil
	}
	return &object{name: "decimalmap", tag: name, write: write, read: read, check: check, acked: func() int { mu.Lock(); defer mu.Unlock(); return n }}
}

// limiterObject is one hot limiter key, limited so that every request is
// admitted: each write is an Allow; the check asks once more and finds
// every admitted request still in the window.
func limiterObject(t *testing.T, client rueidis.Client, key string) *object {
	t.Helper()
	l, err := ratelimit.New(client, ratelimit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	limit := ratelimit.PerHour(1_000_000)
	var mu sync.Mutex
	admitted := 0
	write := func(ctx context.Context, _, _ int) error {
		r, err := l.Allow(ctx, key, limit)
		if err != nil {
			return err
		}
		mu.Lock()
		admitted += r.Allowed
		mu.Unlock()
		return nil
	}
	check := func(ctx context.Context) (lost int, err error) {
		r, err := l.Allow(ctx, key, limit)
		if err != nil {
			return 0, err
		}
		mu.Lock()
		defer mu.Unlock()
		logged := limit.N - 1 - r.Remaining // before this Allow
		return max(0, admitted-logged), nil
	}
	return &object{name: "ratelimit", tag: key, write: write, check: check, acked: func() int { mu.Lock(); defer mu.Unlock(); return admitted }}
}

// counter returns how many entries m holds, under mu.
func counter[K comparable, V any](mu *sync.Mutex, m map[K]V) func() int {
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(m)
	}
}

// slotsOf returns the slot of every object's hash tag.
func slotsOf(t *testing.T, c *redistest.Cluster, objs []*object) []int {
	t.Helper()
	var slots []int
	for _, o := range objs {
		for _, tag := range append([]string{o.tag}, o.more...) {
			s, err := c.SlotOf(context.Background(), "{"+tag+"}")
			if err != nil {
				t.Fatal(err)
			}
			slots = append(slots, s)
		}
	}
	return slots
}

// shardNames reads the names of the shards of the sharded board name from
// its stored descriptor.
func shardNames(t *testing.T, client rueidis.Client, name string) []string {
	t.Helper()
	s, err := client.Do(t.Context(), client.B().Hget().Key("tb:{"+name+"}:meta").Field("desc").Build()).ToString()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ShardNames []string `json:"shardNames"`
	}
	if err := json.Unmarshal([]byte(s), &d); err != nil || len(d.ShardNames) == 0 {
		t.Fatalf("descriptor of %s: %q: %v", name, s, err)
	}
	return d.ShardNames
}

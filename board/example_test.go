package board_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/pack"
)

// exampleBoard gives an example a fresh board on the tests' Redis; the
// caller deletes it.
func exampleBoard(name string, l *pack.Layout, o board.Options) *board.Board {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	b, err := board.New(context.Background(), env.Client, env.Prefix+":"+name, l, o)
	if err != nil {
		panic(err)
	}
	return b
}

// pointsPaidTime: points high first, then paid first, then earliest.
func pointsPaidTime() *pack.Layout {
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		panic(err)
	}
	return l
}

func printList(l board.List) {
	for _, e := range l.Entries {
		fmt.Println(e.Rank, e.ID, ints(e.Values))
	}
}

// ints prints values that are whole numbers without exponents.
func ints(vals []float64) []int64 {
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v)
	}
	return out
}

// Points, then paid first, then earliest: ties on points are broken by the
// paid flag, then by the earlier time.
func ExampleNew() {
	ctx := context.Background()
	b := exampleBoard("ppt", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	players := map[string][]float64{
		"A": {100, 1, 1571819021}, "B": {200, 0, 1571819021}, "C": {200, 1, 1571819021},
		"D": {400, 0, 1571819021}, "E": {200, 1, 1571810001},
	}
	for id, v := range players {
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: v}); err != nil {
			panic(err)
		}
	}
	top, _ := b.Top(ctx, 10)
	printList(top)
	// Output:
	// 1 D [400 0 1571819021]
	// 2 E [200 1 1571810001]
	// 3 C [200 1 1571819021]
	// 4 B [200 0 1571819021]
	// 5 A [100 1 1571819021]
}

// A board in a program of your own: build a client for the server
// REDIS_URL names (redis://localhost:6379 when it is unset), then the
// board. The board stores its layout and options with it: a handle built
// with others is refused (board.ErrMismatch).
func Example_ownClient() {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://localhost:6379"
	}
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		log.Fatal(err)
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	layout, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 20},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	b, err := board.New(ctx, client, "arena", layout, board.Options{})
	if err != nil {
		log.Fatal(err)
	}
	now := float64(time.Now().Unix())
	if _, err := b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{120, 1, now}, Policy: board.Best}); err != nil {
		log.Fatal(err)
	}
	top, err := b.Top(ctx, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range top.Entries {
		fmt.Println(e.Rank, e.ID, e.Values)
	}
}

// SubmitMany loads many entries in one round trip, each in its own atomic
// script; a bad submission gets its own error and does not stop the others.
// Each result's rank is the one its own write saw.
func ExampleBoard_SubmitMany() {
	ctx := context.Background()
	b := exampleBoard("many", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	results := b.SubmitMany(ctx, []board.Submission{
		{ID: "a", Values: []float64{10, 0, 0}},
		{ID: "b", Values: []float64{30, 1, 0}},
		{ID: "c", Values: []float64{-5, 0, 0}}, // refused: points are unsigned
		{ID: "d", Values: []float64{20, 0, 0}},
	})
	for _, r := range results {
		fmt.Println(r.Entry.ID, r.Entry.Rank, r.Err != nil)
	}
	n, _ := b.Len(ctx)
	fmt.Println(n, "entries")
	// Output:
	// a 1 false
	// b 1 false
	//  0 true
	// d 2 false
	// 3 entries
}

// Member data (a name, an avatar) travels with the entry and comes back
// with WithData, from the same snapshot as the rank.
func ExampleBoard_Get() {
	ctx := context.Background()
	b := exampleBoard("get", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{50, 0, 0}, Data: []byte(`{"name":"Ann"}`)})
	b.Submit(ctx, board.Submission{ID: "bob", Values: []float64{70, 0, 0}})
	e, _ := b.Get(ctx, "ann", board.WithData())
	fmt.Println(e.Rank, e.ID, ints(e.Values), string(e.Data))
	_, err := b.Get(ctx, "cyd")
	fmt.Println(errors.Is(err, board.ErrNotFound))
	// Output:
	// 2 ann [50 0 0] {"name":"Ann"}
	// true
}

// Page reads by offset: page 2 of 2 entries each starts at offset 2.
func ExampleBoard_Page() {
	ctx := context.Background()
	b := exampleBoard("page", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(100 - i), 0, 0}})
	}
	l, _ := b.Page(ctx, 2, 2, board.WithTotal())
	printList(l)
	fmt.Println(l.Total, "in all")
	// Output:
	// 3 c [98 0 0]
	// 4 d [97 0 0]
	// 5 in all
}

// Between selects by the first field: everyone with 20 to 40 points.
func ExampleBoard_Between() {
	ctx := context.Background()
	b := exampleBoard("between", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	for id, pts := range map[string]float64{"a": 10, "b": 20, "c": 30, "d": 40, "e": 50} {
		b.Submit(ctx, board.Submission{ID: id, Values: []float64{pts, 0, 0}})
	}
	l, _ := b.Between(ctx, 20, 40, 0, 10)
	printList(l)
	// Output:
	// 2 d [40 0 0]
	// 3 c [30 0 0]
	// 4 b [20 0 0]
}

// Best compares whole tuples; Fields gives each field a policy of its own.
func ExampleBoard_Submit() {
	ctx := context.Background()
	b := exampleBoard("submit", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{100, 0, 500}, Policy: board.Best})
	r, _ := b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{90, 1, 100}, Policy: board.Best})
	fmt.Println(r.Entry.Values, r.Changed)
	r, _ = b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{50, 0, 900}, Fields: []board.Policy{board.Add, board.Keep, board.Replace}})
	fmt.Println(r.Entry.Values, r.Changed, r.Entry.Rank)
	_, err := b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{1048500, 0, 0}, Fields: []board.Policy{board.Add, board.Keep, board.Keep}})
	fmt.Println(err)
	// Output:
	// [100 0 500] false
	// [150 0 900] true 1
	// board: submit: field "points" would become 1048650, outside [0, 1048575]: invalid value: value out of range
}

func ExampleBoard_Rank() {
	ctx := context.Background()
	b := exampleBoard("rank", pointsPaidTime(), board.Options{DenseRanks: true})
	defer b.Drop(ctx)
	for id, pts := range map[string]float64{"a": 30, "b": 20, "c": 20, "d": 10} {
		b.Submit(ctx, board.Submission{ID: id, Values: []float64{pts, 0, 0}})
	}
	for _, kind := range []board.RankKind{board.Ordinal, board.Competition, board.Dense} {
		var ranks []int64
		for _, id := range []string{"a", "b", "c", "d"} {
			r, _ := b.Rank(ctx, id, kind)
			ranks = append(ranks, r)
		}
		fmt.Println(ranks)
	}
	// Output:
	// [1 2 3 4]
	// [1 2 2 4]
	// [1 2 2 3]
}

// Around fills the window from the other side at the edges.
func ExampleBoard_Around() {
	ctx := context.Background()
	b := exampleBoard("around", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	for i, id := range []string{"a", "b", "c", "d", "e", "f"} {
		b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(100 - i), 0, 0}})
	}
	l, _ := b.Around(ctx, "d", 3)
	printList(l)
	l, _ = b.Around(ctx, "a", 3)
	printList(l)
	// Output:
	// 3 c [98 0 0]
	// 4 d [97 0 0]
	// 5 e [96 0 0]
	// 1 a [100 0 0]
	// 2 b [99 0 0]
	// 3 c [98 0 0]
}

// Scan pages by value, so entries changing meanwhile neither skip nor repeat
// the others.
func ExampleBoard_Scan() {
	ctx := context.Background()
	b := exampleBoard("scan", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		b.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(100 - i), 0, 0}})
	}
	var cursor string
	for {
		p, err := b.Scan(ctx, cursor, 2)
		if err != nil {
			panic(err)
		}
		fmt.Println(len(p.Entries), p.Entries[0].ID, p.HasMore)
		if !p.HasMore {
			break
		}
		cursor = p.Next
		b.Remove(ctx, "a") // the board changes between pages
	}
	// Output:
	// 2 a true
	// 2 c true
	// 1 e false
}

// Update runs a Go function inside a compare-and-set loop.
func ExampleBoard_Update() {
	ctx := context.Background()
	b := exampleBoard("update", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	double := func(old *board.Entry) ([]float64, error) {
		if old == nil {
			return []float64{1, 0, 0}, nil
		}
		return []float64{old.Values[0] * 2, old.Values[1], old.Values[2]}, nil
	}
	for i := 0; i < 4; i++ {
		b.Update(ctx, "p", double)
	}
	e, _ := b.Get(ctx, "p")
	fmt.Println(e.Values)
	// Output:
	// [8 0 0]
}

// A weekly board per ISO week, kept for 30 days after the week ends.
func ExamplePeriodic() {
	ctx := context.Background()
	env, _ := redistest.Shared()
	p, err := board.NewPeriodic(env.Client, env.Prefix+":weekly", pointsPaidTime(), board.Weekly(time.UTC), 30*24*time.Hour, board.Options{})
	if err != nil {
		panic(err)
	}
	b := p.At(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	defer b.Drop(ctx)
	fmt.Println(b.Name()[len(env.Prefix):])
	// Output:
	// :weekly:2026-W47
}

// A second handle built with other settings is refused, and one opened by
// name alone reads the board as it is stored.
func ExampleOpen() {
	ctx := context.Background()
	b := exampleBoard("open", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	client := env.Client
	if _, err := b.Submit(ctx, board.Submission{ID: "ann", Values: []float64{300, 1, 1700000000}}); err != nil {
		panic(err)
	}
	wider, _ := pack.NewLayout(pack.Field{Name: "points", Width: 24}, pack.Field{Name: "paid", Width: 1}, pack.Field{Name: "time", Width: 28})
	_, err = board.New(ctx, client, b.Name(), wider, board.Options{})
	fmt.Println(errors.Is(err, board.ErrMismatch))

	o, err := board.Open(ctx, client, b.Name(), board.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Layout(), o.Options().Strategy)
	top, _ := o.Top(ctx, 1)
	printList(top)
	// Output:
	// true
	// bits[points:20 paid:1 time:32/lower] PackedScore
	// 1 ann [300 1 1700000000]
}

// Migrate widens the points field and adds a level tie-break while the
// board stays readable and writable; the old handle is refused afterwards.
func ExampleBoard_Migrate() {
	ctx := context.Background()
	b := exampleBoard("migrate", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	for i, id := range []string{"ann", "bob", "cyd"} {
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{100, float64(i % 2), 1700000000}}); err != nil {
			panic(err)
		}
	}
	wider, _ := pack.NewLayout(
		pack.Field{Name: "points", Width: 24},
		pack.Field{Name: "paid", Width: 1},
		pack.Field{Name: "time", Width: 24, Dir: pack.LowerIsBetter},
		pack.Field{Name: "level", Width: 4},
	)
	// 1700000000 does not fit 24 bits: the migration says which entries.
	_, err := b.Migrate(ctx, wider, board.Options{}, board.MigrateOptions{Defaults: map[string]float64{"level": 1}})
	if errors.Is(err, pack.ErrOverflow) {
		fmt.Println("entries do not fit: the error names them")
	}
	// Store times relative to the season's start instead, then migrate again.
	for i, id := range []string{"ann", "bob", "cyd"} {
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: []float64{100, float64(i % 2), float64(i)}}); err != nil {
			panic(err)
		}
	}
	nb, err := b.Migrate(ctx, wider, board.Options{}, board.MigrateOptions{Defaults: map[string]float64{"level": 1}})
	if err != nil {
		panic(err)
	}
	top, _ := nb.Top(ctx, 3)
	printList(top)
	_, err = b.Top(ctx, 3)
	fmt.Println(errors.Is(err, board.ErrMismatch))
	// Output:
	// entries do not fit: the error names them
	// 1 bob [100 1 1 1]
	// 2 ann [100 0 0 1]
	// 3 cyd [100 0 2 1]
	// true
}

// A player's rank among friends, and every rank kind at once: one round
// trip each.
func ExampleBoard_Among() {
	ctx := context.Background()
	b := exampleBoard("friends", pointsPaidTime(), board.Options{DenseRanks: true})
	defer b.Drop(ctx)
	for id, v := range map[string][]float64{
		"ann": {300, 1, 100}, "bob": {200, 0, 100}, "cyd": {200, 0, 100}, "dee": {100, 1, 100}, "eve": {50, 0, 100},
	} {
		if _, err := b.Submit(ctx, board.Submission{ID: id, Values: v}); err != nil {
			panic(err)
		}
	}
	friends, err := b.Among(ctx, []string{"eve", "cyd", "zed", "ann"}, board.WithRanks(board.Competition, board.Dense))
	if err != nil {
		panic(err)
	}
	for i, e := range friends.Entries {
		fmt.Printf("%d. %s: rank %d, competition %d, dense %d\n", i+1, e.ID, e.Rank, e.Competition, e.Dense)
	}
	fmt.Println(len(friends.Entries), "of 4 on the board")
	// Output:
	// 1. ann: rank 1, competition 1, dense 1
	// 2. cyd: rank 3, competition 2, dense 2
	// 3. eve: rank 5, competition 5, dense 4
	// 3 of 4 on the board
}

// One match result on a game's global board (best score kept) and weekly
// board (points added), in one atomic script: both boards share the hash
// tag of their Group, and their member data. Remove takes a player off
// both, with the data, in one script too.
func ExampleNewGroup() {
	ctx := context.Background()
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	layout, _ := pack.NewLayout(pack.Field{Name: "points", Width: 20})
	opts := board.Options{Group: env.Prefix + ":game", SharedData: true}
	global, err := board.New(ctx, env.Client, "global", layout, opts)
	if err != nil {
		panic(err)
	}
	weekly, err := board.New(ctx, env.Client, "weekly", layout, opts)
	if err != nil {
		panic(err)
	}
	defer global.Drop(ctx)
	defer weekly.Drop(ctx)
	g, err := board.NewGroup(global, weekly)
	if err != nil {
		panic(err)
	}
	for _, points := range []float64{30, 50, 40} {
		res, err := g.Submit(ctx, []board.Submission{
			{ID: "ann", Values: []float64{points}, Policy: board.Best, Data: []byte("Ann")},
			{ID: "ann", Values: []float64{points}, Policy: board.Add},
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(res[0].Entry.Values, res[1].Entry.Values)
	}
	e, _ := weekly.Get(ctx, "ann", board.WithData())
	fmt.Println(string(e.Data))
	n, err := g.Remove(ctx, "ann")
	if err != nil {
		panic(err)
	}
	_, err = weekly.Get(ctx, "ann", board.WithData())
	fmt.Println(n, errors.Is(err, board.ErrNotFound))
	// Output:
	// [30] [30]
	// [50] [80]
	// [50] [120]
	// Ann
	// 2 true
}

// One board over four shards, each with a hash tag of its own (on a
// cluster, spread over the nodes), answering as one board: ranks are exact,
// ties by id.
func ExampleNew_sharded() {
	env, err := redistest.Shared()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	sb, err := board.New(ctx, env.Client, env.Prefix+":alltime", pointsPaidTime(), board.Options{Shards: 4})
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Drop(ctx)
	for i, id := range []string{"ann", "bob", "cat", "dan", "eve", "fay"} {
		if _, err := sb.Submit(ctx, board.Submission{ID: id, Values: []float64{float64(100 * (i % 3)), float64(i % 2), 1795435200}}); err != nil {
			log.Fatal(err)
		}
	}
	top, err := sb.Top(ctx, 3, board.WithTotal())
	if err != nil {
		log.Fatal(err)
	}
	printList(top)
	e, err := sb.Get(ctx, "dan", board.WithRanks(board.Competition))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(e.ID, "rank", e.Rank, "competition", e.Competition, "of", top.Total)
	// Output:
	// 1 fay [200 1 1795435200]
	// 2 cat [200 0 1795435200]
	// 3 bob [100 1 1795435200]
	// dan rank 5 competition 5 of 6
}

// Watch delivers a read's list each time it changes: here the two around a
// player, as other players pass it.
func ExampleWatch() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b := exampleBoard("watch", pointsPaidTime(), board.Options{})
	defer b.Drop(ctx)
	b.Submit(ctx, board.Submission{ID: "me", Values: []float64{50, 0, 0}})
	b.Submit(ctx, board.Submission{ID: "rival", Values: []float64{40, 0, 0}})
	around := func(ctx context.Context) (board.List, error) { return b.Around(ctx, "me", 2) }
	passes := []float64{60, 70}
	err := board.Watch(ctx, 10*time.Millisecond, around, func(l board.List) error {
		printList(l)
		if len(passes) == 0 {
			return errors.New("enough")
		}
		b.Submit(ctx, board.Submission{ID: "rival", Values: []float64{passes[0], 0, 0}})
		passes = passes[1:]
		return nil
	})
	fmt.Println(err)
	// Output:
	// 1 me [50 0 0]
	// 2 rival [40 0 0]
	// 1 rival [60 0 0]
	// 2 me [50 0 0]
	// 1 rival [70 0 0]
	// 2 me [50 0 0]
	// enough
}

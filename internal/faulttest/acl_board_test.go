package faulttest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
)

// A board's every operation (New, the writes, the reads, Migrate, Open,
// Drop) runs as a user holding exactly the ACL the README lists for
// board, with the key patterns of its boards: the ACL refuses nothing,
// and every key on the server is in one board's namespace
// (tb:{name}:...), for boards, ids and member data made of glob
// characters, newlines, NUL and Lua-looking text. Braces in a name, and
// names, ids and data of 1 MB, are refused.
func TestBoardLeastPrivilege(t *testing.T) {
	srv, admin := aclServer(t)
	names := append([]string{"arena"}, hostile...)
	var patterns []string
	for _, n := range names {
		patterns = append(patterns, "tb:{"+globEscape(n)+"}:*")
	}
	patterns = append(patterns, "tb:{daily:*}:*", "tb:{season:*}:*") // the windows of periodic boards, and their archives
	patterns = append(patterns, "tb:{plain}:*", "tb:{game}:*")       // a board of native writes; a group
	patterns = append(patterns, "tb:{ranked}:*", "tb:{ranked~*}:*")  // a sharded board and its shards
	c := aclUser(t, srv, admin, "board", aclBoard+" "+aclWait, patterns)
	cs := &calls{t: t, pkg: "board"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, n := range []string{"{x}", "a}b", "", huge} {
		cs.check("New "+quoted(n), errOf(board.New(ctx, c, n, boardLayout(t), board.Options{})), board.ErrArgument)
	}
	var boards []*board.Board
	for i, n := range names {
		boards = append(boards, boardOps(ctx, t, cs, c, n, board.Strategy(i%2)))
	}
	boards = append(boards, periodicOps(ctx, t, cs, c))
	boards = append(boards, nativeAndGroupOps(ctx, t, cs, c)...)
	boards = append(boards, seasonOps(ctx, t, cs, c)...)
	sharded := shardedOps(ctx, t, cs, c)
	keys := checkKeyspace(t, admin, func(k string) bool {
		for _, n := range names {
			if strings.HasPrefix(k, "tb:{"+n+"}:") {
				return true
			}
		}
		return strings.HasPrefix(k, "tb:{daily:") || strings.HasPrefix(k, "tb:{season:") ||
			strings.HasPrefix(k, "tb:{plain}:") || strings.HasPrefix(k, "tb:{game}:") ||
			strings.HasPrefix(k, "tb:{ranked}:") || strings.HasPrefix(k, "tb:{ranked~")
	})
	if sharded != nil {
		cs.check("Drop sharded", sharded.Drop(ctx), nil)
	}
	for _, b := range boards {
		if b == nil { // a call that made it failed, reported above
			continue
		}
		cs.check("Drop "+quoted(b.Name()), b.Drop(ctx), nil)
	}
	if n := checkKeyspace(t, admin, func(string) bool { return false }); n != 0 {
		t.Errorf("%d keys left after every board was dropped", n)
	}
	checkACLLog(t, admin)
	t.Logf("%d calls on %d boards, %d keys, all in their boards' namespaces", cs.n, len(names), keys)
}

// boardOps runs every operation of a board on the board name, stored
// with strategy s, as the client c, and returns a handle to it.
func boardOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client, name string, s board.Strategy) *board.Board {
	b, err := board.New(ctx, c, name, boardLayout(t), board.Options{Strategy: s, DenseRanks: true})
	cs.check("New "+quoted(name), err, nil)
	if err != nil {
		return nil
	}
	ids := append([]string{"p1", "{x}", "}{"}, hostile...)
	for i, id := range ids { // the time field holds i: the last two do not fit 3 bits
		sub := board.Submission{ID: id, Values: []float64{float64(i % 3), 1, float64(i)}, Data: []byte(hostile[i%len(hostile)])}
		cs.check("Submit "+quoted(id), errOf(b.Submit(ctx, sub)), nil)
	}
	for _, r := range b.SubmitMany(ctx, []board.Submission{{ID: "*", Values: []float64{9, 0, 1}, Policy: board.Best}, {ID: "m\n", Values: []float64{1, 1, 1}}}) {
		cs.check("SubmitMany", r.Err, nil)
	}
	cs.check("Submit of 1 MB id", errOf(b.Submit(ctx, board.Submission{ID: huge, Values: []float64{1, 1, 1}})), board.ErrArgument)
	cs.check("Submit of 1 MB data", errOf(b.Submit(ctx, board.Submission{ID: "p1", Values: []float64{1, 1, 1}, Data: []byte(huge)})), board.ErrArgument)
	cs.check("SetData of 1 MB", b.SetData(ctx, "p1", []byte(huge)), board.ErrArgument)
	cs.check("SetData", b.SetData(ctx, "*", []byte("redis.call('FLUSHALL')")), nil)
	cs.check("Update", errOf(b.Update(ctx, "p1", func(old *board.Entry) ([]float64, error) { return []float64{old.Values[0] + 1, 0, 0}, nil })), nil)
	boardReads(ctx, cs, b)
	wait, err := board.New(ctx, c, name, boardLayout(t), board.Options{Strategy: s, DenseRanks: true, WaitReplicas: 1, WaitTimeout: time.Millisecond})
	cs.check("New, waiting for replicas", err, nil)
	cs.short("Submit waiting for a replica", errOf(wait.Submit(ctx, board.Submission{ID: "w", Values: []float64{1, 1, 1}})))
	cs.check("Remove", errOf(b.Remove(ctx, "}{", "a*b?[c]", "absent")), nil)
	to, mo := board.Options{Strategy: 1 - s, DenseRanks: true}, board.MigrateOptions{Batch: 2}
	_, err = b.Migrate(ctx, timedLayout(t, 3), to, mo)
	cs.check("Migrate to a layout two entries do not fit", err, board.ErrArgument)
	cs.check("Remove the misfits", errOf(b.Remove(ctx, ids[8], ids[9])), nil)
	nb, err := b.Migrate(ctx, timedLayout(t, 3), to, mo)
	cs.check("Migrate", err, nil)
	ob, err := board.Open(ctx, c, name, board.Options{})
	cs.check("Open", err, nil)
	if ob != nil {
		boardReads(ctx, cs, ob)
		cs.check("Submit after Migrate", errOf(nb.Submit(ctx, board.Submission{ID: "after", Values: []float64{2, 0, 2}, Data: []byte("\x00")})), nil)
	}
	return b
}

// boardReads runs every read of a board.
func boardReads(ctx context.Context, cs *calls, b *board.Board) {
	cs.check("Get", errOf(b.Get(ctx, "p1", board.WithData())), nil)
	for _, k := range []board.RankKind{board.Ordinal, board.Competition, board.Dense} {
		cs.check("Rank "+k.String(), errOf(b.Rank(ctx, "line\nbreak\r\n", k)), nil)
	}
	cs.check("Top", errOf(b.Top(ctx, 5, board.WithData())), nil)
	cs.check("Page", errOf(b.Page(ctx, 1, 5)), nil)
	cs.check("Around", errOf(b.Around(ctx, "nul\x00byte", 3, board.WithData())), nil)
	cs.check("Between", errOf(b.Between(ctx, 0, 5, 0, 5)), nil)
	cs.check("Scan", errOf(b.Scan(ctx, "", 5, board.WithData())), nil)
	cs.check("Len", errOf(b.Len(ctx)), nil)
	cs.check("Among", errOf(b.Among(ctx, []string{"p1", "*", "nobody"}, board.WithData(), board.WithRanks(board.Competition, board.Dense))), nil)
	cs.check("Top WithRanks", errOf(b.Top(ctx, 5, board.WithRanks(board.Competition, board.Dense))), nil)
}

// nativeAndGroupOps writes a board that takes Redis's own commands (no
// dense index, no data) and an atomic group of two boards sharing data.
func nativeAndGroupOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) []*board.Board {
	plain, err := board.New(ctx, c, "plain", boardLayout(t), board.Options{})
	cs.check("New plain", err, nil)
	cs.check("native Submit", errOf(plain.Submit(ctx, board.Submission{ID: "*", Values: []float64{1, 1, 1}, Policy: board.Best})), nil)
	var gb []*board.Board
	for _, n := range []string{"global", "weekly"} {
		b, err := board.New(ctx, c, n, boardLayout(t), board.Options{Group: "game", SharedData: true})
		cs.check("New in a group", err, nil)
		gb = append(gb, b)
	}
	g, err := board.NewGroup(gb...)
	cs.check("NewGroup", err, nil)
	e := board.Submission{ID: "line\nbreak", Values: []float64{1, 1, 1}, Policy: board.Best, Data: []byte("*")}
	cs.check("group Submit", errOf(g.Submit(ctx, []board.Submission{e, e})), nil)
	cs.check("group Remove", errOf(g.Remove(ctx, "line\nbreak")), nil)
	return append(gb, plain)
}

// shardedOps writes and reads a sharded board, reshards it and opens it
// again: the copy, its drains, its lease and the retirement of the old
// shards all run under the ACL.
func shardedOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) *board.Board {
	sb, err := board.New(ctx, c, "ranked", boardLayout(t), board.Options{Shards: 2})
	cs.check("NewSharded", err, nil)
	if err != nil {
		return nil
	}
	for i, id := range append([]string{"p1", "p2", "p3"}, hostile...) {
		sub := board.Submission{ID: id, Values: []float64{float64(i % 3), 1, 1}, Data: []byte(hostile[i%len(hostile)])}
		cs.check("sharded Submit "+quoted(id), errOf(sb.Submit(ctx, sub)), nil)
	}
	cs.check("sharded Top", errOf(sb.Top(ctx, 5, board.WithData())), nil)
	cs.check("sharded Rank", errOf(sb.Rank(ctx, "p1", board.Competition)), nil)
	cs.check("sharded Remove", errOf(sb.Remove(ctx, "p2")), nil)
	cs.check("Reshard", errOf(sb.Reshard(ctx, 3, board.MigrateOptions{Batch: 2})), nil)
	ob, err := board.Open(ctx, c, "ranked", board.Options{})
	cs.check("OpenSharded", err, nil)
	if ob != nil {
		cs.check("sharded Around after Reshard", errOf(ob.Around(ctx, "p1", 3)), nil)
	}
	return sb
}

// seasonOps archives an ended window of a periodic board of short windows
// and lists its windows.
func seasonOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) []*board.Board {
	p, err := board.NewPeriodic(c, "season", boardLayout(t), board.Every(200*time.Millisecond), time.Minute, board.Options{})
	cs.check("NewPeriodic", err, nil)
	w := p.At(time.Now())
	cs.check("window Submit", errOf(w.Submit(ctx, board.Submission{ID: "*", Values: []float64{1, 1, 1}})), nil)
	time.Sleep(450 * time.Millisecond)
	cs.check("Windows", errOf(p.Windows(ctx)), nil)
	ws, _ := p.Windows(ctx)
	if len(ws) == 0 {
		t.Fatal("no window listed")
	}
	a, err := p.Archive(ctx, ws[len(ws)-1], board.ArchiveOptions{Top: 10})
	cs.check("Archive", err, nil)
	return []*board.Board{w, a}
}

// periodicOps writes and reads the current window of a daily board, whose
// writes set its keys to expire.
func periodicOps(ctx context.Context, t *testing.T, cs *calls, c rueidis.Client) *board.Board {
	p, err := board.NewPeriodic(c, "daily", boardLayout(t), board.Daily(nil), time.Hour, board.Options{DenseRanks: true})
	cs.check("NewPeriodic", err, nil)
	b := p.At(time.Now())
	for i, id := range []string{"*", "p1", "line\nbreak\r\n", "nul\x00byte"} {
		sub := board.Submission{ID: id, Values: []float64{float64(i), 1, 1}, Data: []byte("\n")}
		cs.check("periodic Submit", errOf(b.Submit(ctx, sub)), nil)
	}
	cs.check("periodic SetData", b.SetData(ctx, "*", []byte("{}")), nil)
	boardReads(ctx, cs, b)
	return b
}

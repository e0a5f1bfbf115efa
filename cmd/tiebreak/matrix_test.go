package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

// kindCase is one kind of board the package builds, and how to build it.
type kindCase struct {
	name   string
	opts   board.Options // Group is set to the case's group when group is true
	group  bool
	form   string // "", "window" or "archive"
	shards int
}

// commandKinds are the kinds of board the command must show, each under
// one spelling: its name, or group/name.
var commandKinds = []kindCase{
	{name: "plain"},
	{name: "grouped", group: true},
	{name: "grouped+shared", group: true, opts: board.Options{SharedData: true}},
	{name: "window", form: "window"},
	{name: "grouped window", group: true, form: "window"},
	{name: "grouped+shared window", group: true, form: "window", opts: board.Options{SharedData: true}},
	{name: "archive", form: "archive"},
	{name: "grouped archive", group: true, form: "archive"},
	{name: "grouped+shared archive", group: true, form: "archive", opts: board.Options{SharedData: true}},
	{name: "sharded", shards: 3},
}

// buildKind makes a board of kind k named from prefix, seeded with
// entries that tie, and returns it with the name the command spells it
// by.
func buildKind(t *testing.T, ctx context.Context, client rueidis.Client, prefix string, k kindCase, s board.Strategy) (*board.Board, string) {
	t.Helper()
	l := arenaLayout(t)
	o := k.opts
	o.Strategy, o.Shards = s, k.shards
	o.DenseRanks = s == board.KeySuffix && k.shards == 0
	name := prefix + "_b"
	if k.group {
		o.Group, name = prefix+"_g", "b"
	}
	var b *board.Board
	var p *board.Periodic
	period := board.Every(time.Second)
	at := time.Now()
	switch k.form {
	case "":
		var err error
		if b, err = board.New(ctx, client, name, l, o); err != nil {
			t.Fatal(err)
		}
	default:
		var err error
		if p, err = board.NewPeriodic(client, name, l, period, time.Hour, o); err != nil {
			t.Fatal(err)
		}
		if k.form == "archive" {
			at = at.Add(-5 * time.Second)
		}
		b = p.At(at)
	}
	for i := range 12 {
		sub := board.Submission{ID: fmt.Sprintf("p%02d", i), Values: []float64{float64(100 * (i % 4)), float64(i % 2), float64(noon.Unix())}}
		if i%3 == 0 {
			sub.Data = []byte("d" + sub.ID)
		}
		if _, err := b.Submit(ctx, sub); err != nil {
			t.Fatal(err)
		}
	}
	if k.form == "archive" {
		w, err := period.Window(at)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = p.Archive(ctx, w, board.ArchiveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if g := b.Options().Group; g != "" {
		return b, g + "/" + b.Name()
	}
	return b, b.Name()
}

// Every kind of board shows in list, board describe and board top under
// one spelling, the one Open reads (group/name for a board of a group),
// and board top prints what the package's Top returns.
func TestCommandKinds(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tiebreak")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, k := range commandKinds {
		for _, s := range []board.Strategy{board.PackedScore, board.KeySuffix} {
			t.Run(k.name+"/"+s.String(), func(t *testing.T) {
				env := redistest.New(t)
				c := newCLI(t, bin, env)
				ctx := t.Context()
				b, spelling := buildKind(t, ctx, env.Client, env.Prefix, k, s)
				opened, err := board.Open(ctx, env.Client, spelling, board.Options{})
				if err != nil {
					t.Fatalf("Open(%s): %v", spelling, err)
				}
				if opened.Name() != b.Name() {
					t.Errorf("Open(%s) names %s, want %s", spelling, opened.Name(), b.Name())
				}

				var objs []object
				c.json(&objs, "list", "--prefix", env.Prefix, "--kind", "board")
				shown, inShards := 0, int64(0)
				for _, o := range objs {
					full := o.Name
					if o.Group != "" {
						full = o.Group + "/" + o.Name
					}
					switch {
					case full == spelling:
						shown++
						// A sharded board's row counts its entries, which
						// its shards hold, each a board listed on its own
						// row, as its detail says.
						if k.shards > 0 && !strings.Contains(o.Detail, "sharded over 3 boards (its size is the sum of theirs)") {
							t.Errorf("list shows %s with the detail %q, want it sharded", spelling, o.Detail)
						}
						if o.Size != 12 {
							t.Errorf("list shows %s with %d entries, want 12", spelling, o.Size)
						}
					case strings.HasPrefix(full, b.Name()+"~"):
						inShards += o.Size
					case o.Name == b.Name() || strings.HasSuffix(full, "/"+b.Name()):
						t.Errorf("list shows the board as %q, want %q", full, spelling)
					}
				}
				if shown != 1 {
					t.Errorf("list shows %s %d times, want once:\n%+v", spelling, shown, objs)
				}
				if k.shards > 0 && inShards != 12 {
					t.Errorf("list shows %d entries in the shards of %s, want 12", inShards, spelling)
				}
				if out := c.ok("list", "--prefix", env.Prefix, "--kind", "board"); !strings.Contains(out, " "+spelling+" ") {
					t.Errorf("list does not name %s:\n%s", spelling, out)
				}

				var d description
				c.json(&d, "board", "describe", spelling)
				if full := strings.TrimPrefix(d.Group+"/"+d.Name, "/"); full != spelling || d.Entries != 12 {
					t.Errorf("board describe %s shows %s with %d entries, want %s with 12", spelling, full, d.Entries, spelling)
				}

				dense := b.Options().DenseRanks
				opts := []board.ReadOption{board.WithRanks(board.Competition), board.WithData(), board.WithTotal()}
				if dense {
					opts = []board.ReadOption{board.WithRanks(board.Competition, board.Dense), board.WithData(), board.WithTotal()}
				}
				l, err := b.Top(ctx, 100, opts...)
				if err != nil {
					t.Fatal(err)
				}
				var top entriesOut
				c.json(&top, "board", "top", spelling, "-n", "100", "--data")
				want := entriesOut{Board: spelling, Total: l.Total, Entries: wantEntries(b, l.Entries, dense)}
				if diff := cmp.Diff(want, top, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("board top %s --json (-library +command):\n%s", spelling, diff)
				}
				var rank rankOut
				c.json(&rank, "board", "rank", spelling, "p01")
				if en, err := b.Get(ctx, "p01", board.WithRanks(board.Competition, board.ModifiedCompetition)); err != nil || rank.Board != spelling || rank.Ordinal != en.Rank || rank.Competition != en.Competition || rank.Modified != en.ModifiedCompetition {
					t.Errorf("board rank %s p01 = %+v; want the board %s and the ranks of %+v, %v", spelling, rank, spelling, en, err)
				}
				if out := c.ok("board", "top", spelling, "-n", "3"); !strings.Contains(out, "3 of 12 entries") {
					t.Errorf("board top %s -n 3:\n%s", spelling, out)
				}
			})
		}
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The service's answers, on a real Redis: one result on three boards, the
// names once, friends, last week's archive made once by four instances,
// and a ban from every board.
func TestGameService(t *testing.T) {
	env := redistest.New(t)
	ctx := context.Background()
	group := env.Prefix + "game"
	var out bytes.Buffer
	if err := run(ctx, &out, env.Client, group, time.Now()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	// The ban removed p5 from every board of the group, last week's
	// window and its archive included, and its name.
	lastWeek, err := board.Weekly(time.UTC).Window(time.Now().AddDate(0, 0, -7))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alltime", "region:eu", "weekly:" + lastWeek.Label, "weekly:" + lastWeek.Label + ":final"} {
		b, err := board.Open(ctx, env.Client, group+"/"+name, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Get(ctx, "p5"); !errors.Is(err, board.ErrNotFound) {
			t.Errorf("%s: Get of the banned player: %v, want ErrNotFound", name, err)
		}
	}
	if n, err := env.Client.Do(ctx, env.Client.B().Hexists().Key("tb:{"+group+"}:data").Field("p5").Build()).AsInt64(); err != nil || n != 0 {
		t.Errorf("the banned player's name is left: %d, %v", n, err)
	}
	// Run again: the same answers (the boards are emptied first; the
	// archive, made once, is kept).
	out.Reset()
	if err := run(ctx, &out, env.Client, group, time.Now()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("second run's output (-want +got):\n%s", diff)
	}
}

const want = `all-time top 10:
  1. #1 Eve   900
  2. #2 Bob   500
  3. #3 Dee   400
  4. #4 Ann   300
  5. #5 Cyd   250
  6. #6 Fay    80
this week's top 3 (points added up):
  1. #1 Eve   900
  2. #2 Ann   400
  3. #3 Bob   290
the 5 around Cyd:
  1. #2 Bob   500
  2. #3 Dee   400
  3. #4 Ann   300
  4. #5 Cyd   250
  5. #6 Fay    80
Ann among her friends Dee, Fay and Zed (rank among them, rank overall):
  1. #3 Dee   400
  2. #4 Ann   300
  3. #6 Fay    80
last week's final standings (asked by 4 instances at once):
  1. #1 Bob   500
  2. #2 Dee   400
  3. #3 Ann   300
all-time top 3 after Eve is banned from every board:
  1. #1 Bob   500
  2. #2 Dee   400
  3. #3 Ann   300
this week's best after the ban:
  1. #1 Ann   400
`

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/pack"
)

// main writes to the server REDIS_URL names (redis://localhost:6379 when
// it is unset), under the group "game", and says which.
func main() {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		url = "redis://localhost:6379"
	}
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		log.Fatalf("REDIS_URL: %v", err)
	}
	client, err := rueidis.NewClient(opt)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	fmt.Fprintln(os.Stderr, "writing the boards of group \"game\" on", opt.InitAddress)
	if err := run(context.Background(), os.Stdout, client, "game", time.Now()); err != nil {
		log.Fatal(err)
	}
}

// Service is one instance of the game's backend: any number of them share
// the boards.
type Service struct {
	allTime *board.Board
	weekly  *board.Periodic
	region  *board.Board
}

// layout ranks by points, then by the earliest result.
func layout() *pack.Layout {
	l, err := pack.NewLayout(
		pack.Field{Name: "points", Width: 21},
		pack.Field{Name: "time", Width: 32, Dir: pack.LowerIsBetter},
	)
	if err != nil {
		panic(err) // the fields above fit 53 bits
	}
	return l
}

// NewService returns an instance of the service on client. The boards
// share the hash tag of group, so one script writes them all, and keep
// the players' names once, in the group's shared data.
func NewService(ctx context.Context, client rueidis.Client, group string) (*Service, error) {
	opts := board.Options{Group: group, SharedData: true}
	allTime, err := board.New(ctx, client, "alltime", layout(), opts)
	if err != nil {
		return nil, err
	}
	region, err := board.New(ctx, client, "region:eu", layout(), opts)
	if err != nil {
		return nil, err
	}
	weekly, err := board.NewPeriodic(client, "weekly", layout(), board.Weekly(time.UTC), 30*24*time.Hour, opts)
	if err != nil {
		return nil, err
	}
	return &Service{allTime: allTime, weekly: weekly, region: region}, nil
}

// Result records one match result of player id, named name, at instant
// at: the best points on the all-time and regional boards, the sum on the
// week's, in one atomic call.
func (s *Service) Result(ctx context.Context, id, name string, points int, at time.Time) error {
	week := s.weekly.At(at)
	g, err := board.NewGroup(s.allTime, week, s.region) // no round trip
	if err != nil {
		return err
	}
	var data []byte // nil leaves the stored name
	if name != "" {
		data = []byte(name)
	}
	t := float64(at.Unix())
	_, err = g.Submit(ctx, []board.Submission{
		{ID: id, Values: []float64{float64(points), t}, Policy: board.Best, Data: data},
		{ID: id, Values: []float64{float64(points), t}, Fields: []board.Policy{board.Add, board.Keep}},
		{ID: id, Values: []float64{float64(points), t}, Policy: board.Best},
	})
	return err
}

// Ban removes a cheater from every board of the group, and his name, in
// one atomic call: the all-time and regional boards, and every weekly
// window still kept (Periodic.Windows) with its final standings if they
// were archived, so that no past week keeps him either.
func (s *Service) Ban(ctx context.Context, id string) error {
	boards := []*board.Board{s.allTime, s.region}
	windows, err := s.weekly.Windows(ctx)
	if err != nil {
		return err
	}
	for _, w := range windows {
		boards = append(boards, s.weekly.At(w.Start))
		switch final, err := s.weekly.Archived(ctx, w); {
		case err == nil:
			boards = append(boards, final)
		case !errors.Is(err, board.ErrNotFound):
			return err
		}
	}
	g, err := board.NewGroup(boards...) // at most 64 boards: 2, and 5 weeks of 30 days' retention with their archives
	if err != nil {
		return err
	}
	_, err = g.Remove(ctx, id)
	return err
}

// ArchiveLastWeek keeps the final standings of the week before now, once
// however many instances ask, and returns its best n.
func (s *Service) ArchiveLastWeek(ctx context.Context, now time.Time, n int) (board.List, error) {
	w, err := board.Weekly(time.UTC).Window(now.AddDate(0, 0, -7))
	if err != nil {
		return board.List{}, err
	}
	a, err := s.weekly.Archive(ctx, w, board.ArchiveOptions{Top: 100})
	if err != nil {
		return board.List{}, err
	}
	return a.Top(ctx, n, board.WithData())
}

// demo is a season of results, written as this week's and last week's.
var demo = []struct {
	id, name string
	points   int
	lastWeek bool
}{
	{"p1", "Ann", 300, false}, {"p2", "Bob", 250, false}, {"p3", "Cyd", 250, false},
	{"p4", "Dee", 120, false}, {"p5", "Eve", 900, false}, {"p1", "Ann", 100, false},
	{"p6", "Fay", 80, false}, {"p2", "Bob", 40, false},
	{"p2", "Bob", 500, true}, {"p4", "Dee", 400, true}, {"p1", "Ann", 300, true},
	{"p5", "Eve", 20, true},
}

func run(ctx context.Context, w io.Writer, client rueidis.Client, group string, now time.Time) error {
	s, err := NewService(ctx, client, group)
	if err != nil {
		return err
	}
	thisWeek, err := board.Weekly(time.UTC).Window(now)
	if err != nil {
		return err
	}
	lastWeek, err := board.Weekly(time.UTC).Window(now.AddDate(0, 0, -7))
	if err != nil {
		return err
	}
	// A fresh season for the demonstration: every board emptied, its
	// settings kept.
	for _, b := range []*board.Board{s.allTime, s.region, s.weekly.At(thisWeek.Start), s.weekly.At(lastWeek.Start)} {
		if err := b.Clear(ctx); err != nil {
			return err
		}
	}
	for i, r := range demo {
		at := thisWeek.Start.Add(time.Duration(i) * time.Minute)
		if r.lastWeek {
			at = lastWeek.Start.Add(time.Duration(i) * time.Minute)
		}
		if err := s.Result(ctx, r.id, r.name, r.points, at); err != nil {
			return err
		}
	}
	top, err := s.allTime.Top(ctx, 10, board.WithData())
	if err != nil {
		return err
	}
	show(w, "all-time top 10", top)
	week, err := s.weekly.At(thisWeek.Start).Top(ctx, 3, board.WithData())
	if err != nil {
		return err
	}
	show(w, "this week's top 3 (points added up)", week)
	around, err := s.allTime.Around(ctx, "p3", 5, board.WithData())
	if err != nil {
		return err
	}
	show(w, "the 5 around Cyd", around)
	friends, err := s.allTime.Among(ctx, []string{"p1", "p4", "p6", "p9"}, board.WithData())
	if err != nil {
		return err
	}
	show(w, "Ann among her friends Dee, Fay and Zed (rank among them, rank overall)", friends)

	// Every instance asks for last week's archive at once: it is made once.
	finals := make([]board.List, 4)
	errs := make([]error, len(finals))
	var wg sync.WaitGroup
	for i := range finals {
		wg.Go(func() {
			other, err := NewService(ctx, client, group)
			if err == nil {
				finals[i], err = other.ArchiveLastWeek(ctx, now, 3)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, f := range finals[1:] {
		if fmt.Sprint(f) != fmt.Sprint(finals[0]) {
			return fmt.Errorf("two instances read two archives: %v and %v", finals[0], f)
		}
	}
	show(w, fmt.Sprintf("last week's final standings (asked by %d instances at once)", len(finals)), finals[0])

	if err := s.Ban(ctx, "p5"); err != nil {
		return err
	}
	top, err = s.allTime.Top(ctx, 3, board.WithData())
	if err != nil {
		return err
	}
	show(w, "all-time top 3 after Eve is banned from every board", top)
	week, err = s.weekly.At(thisWeek.Start).Top(ctx, 1, board.WithData())
	if err != nil {
		return err
	}
	show(w, "this week's best after the ban", week)
	return nil
}

// show writes a titled list: rank, name (the member data), points.
func show(w io.Writer, title string, l board.List) {
	fmt.Fprintf(w, "%s:\n", title)
	for i, e := range l.Entries {
		fmt.Fprintf(w, "  %d. #%d %-4s %4.0f\n", i+1, e.Rank, e.Data, e.Values[0])
	}
}

package board

import (
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// An archive made without a retention, of a window whose entries carry no
// data, on a board without dense ranks: the copy's fenced writes carry
// the plainest submissions there are.
func TestArchivePlainWindow(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	p, err := NewPeriodic(env.Client, env.Prefix+"plain", testLayout(t), Every(200*time.Millisecond), time.Minute, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := p.period.Window(time.Now())
	if _, err := p.At(w.Start).Submit(ctx, Submission{ID: "p1", Values: []float64{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(w.End) + 10*time.Millisecond)
	a, err := p.Archive(ctx, w, ArchiveOptions{Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := a.Len(ctx); err != nil || n != 1 {
		t.Errorf("archive Len = %d, %v; want 1", n, err)
	}
	if err := a.Drop(ctx); err != nil {
		t.Fatal(err)
	}
}

package board

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// A long operation that Redis refuses at its memory limit (noeviction)
// says which: an archive whose copy meets the limit names the archive and
// the id it was copying, and a resharding that meets it names the
// resharding; each wraps ErrRedis.
func TestLongOperationsAtTheMemoryLimitSayWhich(t *testing.T) {
	_, client := redistest.Private(t)
	ctx := t.Context()
	l := testLayout(t)
	p, err := NewPeriodic(client, "season", l, Weekly(time.UTC), 30*24*time.Hour, Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := time.Now().Add(-7 * 24 * time.Hour)
	sb, err := New(ctx, client, "split", l, Options{Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		id := "p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if _, err := p.At(last).Submit(ctx, Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
			t.Fatal(err)
		}
		if _, err := sb.Submit(ctx, Submission{ID: id, Values: []float64{float64(i), 0, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	full := func(o, step string) {
		if (o == "Archive" && step == "claim") || (o == "Reshard" && step == "export") {
			if err := client.Do(ctx, client.B().ConfigSet().ParameterValue().ParameterValue("maxmemory", "1").Build()).Error(); err != nil {
				t.Error(err)
			}
		}
	}
	faultPoint = full
	defer func() { faultPoint = nil }()
	w, err := Weekly(time.UTC).Window(last)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Archive(ctx, w, ArchiveOptions{})
	if !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "archive season:"+w.Label+":final: copying id") || !strings.Contains(err.Error(), "OOM") {
		t.Errorf("Archive at the memory limit: %v, want an OOM naming the archive", err)
	}
	if err := client.Do(ctx, client.B().ConfigSet().ParameterValue().ParameterValue("maxmemory", "0").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	_, err = sb.Reshard(ctx, 3, MigrateOptions{})
	if !errors.Is(err, ErrRedis) || !strings.Contains(err.Error(), "reshard") || !strings.Contains(err.Error(), "OOM") {
		t.Errorf("Reshard at the memory limit: %v, want an OOM naming the resharding", err)
	}
}

// A resharding whose board is flushed away under it (FLUSHALL, a server
// restarted without persistence) says the board is no longer stored,
// wrapping ErrNotFound, from whichever step meets it first: never that
// another process took it over.
func TestReshardOfAFlushedBoardSaysSo(t *testing.T) {
	_, client := redistest.Private(t)
	ctx := t.Context()
	// Every step but drain, which only a resharding under writes reaches.
	for _, at := range []string{"begin", "export", "copy", "freeze", "check", "switch", "retire"} {
		sb, err := New(ctx, client, "split"+at, testLayout(t), Options{Shards: 2})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if _, err := sb.Submit(ctx, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
		var flushed atomic.Bool // once: the shards' steps run at once
		faultPoint = func(o, step string) {
			if o == "Reshard" && step == at && flushed.CompareAndSwap(false, true) {
				if err := client.Do(ctx, client.B().Flushall().Build()).Error(); err != nil {
					t.Error(err)
				}
			}
		}
		_, err = sb.Reshard(ctx, 3, MigrateOptions{})
		faultPoint = nil
		if !flushed.Load() {
			t.Errorf("Reshard never reached its step %s", at)
		}
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no longer stored") {
			t.Errorf("Reshard flushed away at its step %s: %v, want ErrNotFound, no longer stored", at, err)
		}
	}
}

// A migration or an archive whose board is flushed away under it
// (FLUSHALL, a server restarted without persistence) says the board is no
// longer stored, wrapping ErrNotFound, from whichever step meets it: never
// success over nothing.
func TestMigrateAndArchiveOfAFlushedBoardSaySo(t *testing.T) {
	_, client := redistest.Private(t)
	ctx := t.Context()
	l := testLayout(t)
	flushAt := func(op, at string) *atomic.Bool {
		var flushed atomic.Bool
		faultPoint = func(o, step string) {
			if o == op && step == at && flushed.CompareAndSwap(false, true) {
				if err := client.Do(ctx, client.B().Flushall().Build()).Error(); err != nil {
					t.Error(err)
				}
			}
		}
		return &flushed
	}
	defer func() { faultPoint = nil }()
	fill := func(b *Board) {
		for i := range 50 {
			if _, err := b.Submit(ctx, Submission{ID: fmt.Sprint("p", i), Values: []float64{float64(i), 0, 1}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// switch and done are the last steps: flushed after them, the
	// operation has succeeded, and the data is lost after it.
	for _, at := range []string{"begin", "copy", "check"} {
		b, err := New(ctx, client, "move"+at, l, Options{})
		if err != nil {
			t.Fatal(err)
		}
		fill(b)
		flushed := flushAt("Migrate", at)
		_, err = b.Migrate(ctx, l, Options{DenseRanks: true}, MigrateOptions{Batch: 20})
		if !flushed.Load() {
			t.Errorf("Migrate never reached its step %s", at)
		}
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no longer stored") {
			t.Errorf("Migrate flushed away at its step %s: %v, want ErrNotFound, no longer stored", at, err)
		}
	}
	for _, at := range []string{"claim", "copy"} {
		p, err := NewPeriodic(client, "season"+at, l, Weekly(time.UTC), 30*24*time.Hour, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := time.Now().Add(-7 * 24 * time.Hour)
		fill(p.At(last))
		if at == "copy" { // a step between two pages of archiveBatch
			subs := make([]Submission, archiveBatch)
			for i := range subs {
				subs[i] = Submission{ID: fmt.Sprint("q", i), Values: []float64{float64(i), 1, 1}}
			}
			for _, r := range p.At(last).SubmitMany(ctx, subs) {
				if r.Err != nil {
					t.Fatal(r.Err)
				}
			}
		}
		w, _ := p.period.Window(last)
		flushed := flushAt("Archive", at)
		_, err = p.Archive(ctx, w, ArchiveOptions{})
		if !flushed.Load() {
			t.Errorf("Archive never reached its step %s", at)
		}
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no longer stored") {
			t.Errorf("Archive flushed away at its step %s: %v, want ErrNotFound, no longer stored", at, err)
		}
	}
}

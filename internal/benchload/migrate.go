package benchload

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/tiebreak/tiebreak/board"
)

// Writes while a board migrates: Submit (Best) on a board that no
// migration touches, while none runs (the baseline), against Submit on a
// board that a background Migrate re-encodes again and again (dense ranks
// off, on, off...), each write mirrored into the new encoding. The
// migration runs exactly while its variant is measured. Its counter is the
// entries migrated per write. board's BenchmarkSubmitMigrating runs it;
// board's BenchmarkMigrate measures the migration's own rate.
func init() {
	register(Workload{
		Num: 8, Name: "migrate", Title: "8. Writes during a migration",
		RatioOf: "throughput / writes to a board while no migration runs, in the same round",
		Params: []Param{{Name: "migrate-board", Usage: "entries of the migrate workload's boards",
			Full: "1e5", Quick: "1e4", Min: 1000, Max: 1e8}},
		Rows:    func(Config) int { return 2 },
		Goals:   func(Config) int { return 0 },
		Prepare: prepareMigrate,
	})
}

// The migrate variants; MGBaseline is what ratios divide by; MGMigrated
// counts the entries migrated.
const (
	MGMigrating = "migrating"
	MGBaseline  = "idle"
	MGMigrated  = "entries-migrated"
)

// followAttempts bounds how often a write during the migrate workload
// opens the board again after it switched.
const followAttempts = 10

// migrator re-encodes a board in the background while it runs.
type migrator struct {
	mu       sync.Mutex
	cancel   context.CancelFunc
	done     chan struct{}
	b        atomic.Pointer[board.Board] // the board, as last migrated
	size     int64
	dense    bool
	migrated atomic.Int64
}

// run makes the migrator run (true) or stop (false), waiting for it to
// stop; a migration stopped part way resumes when it runs again.
func (m *migrator) run(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if on == (m.cancel != nil) {
		return
	}
	if !on {
		m.cancel()
		<-m.done
		m.cancel = nil
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.done = cancel, make(chan struct{})
	go m.loop(ctx)
}

// loop migrates to the other dense setting, again and again, until ctx
// ends.
func (m *migrator) loop(ctx context.Context) {
	defer close(m.done)
	for ctx.Err() == nil {
		nb, err := m.b.Load().Migrate(ctx, Layout, board.Options{DenseRanks: !m.dense}, board.MigrateOptions{})
		if err != nil {
			return // cancelled: the next run resumes
		}
		m.b.Store(nb)
		m.dense = !m.dense
		m.migrated.Add(m.size)
	}
}

// prepareMigrate loads two boards of the same entries and compares writes
// to each, the one migrating while its variant is measured.
func prepareMigrate(ctx context.Context, env Env, cfg Config) (*Fixture, error) {
	size := int64(cfg.Int("migrate-board"))
	idle, err1 := board.New(ctx, env.Client, env.Prefix+"_w8_idle", Layout, board.Options{})
	moving, err2 := board.New(ctx, env.Client, env.Prefix+"_w8_migrating", Layout, board.Options{})
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	m := &migrator{size: size}
	m.b.Store(moving)
	f := &Fixture{Drop: func(ctx context.Context) error {
		m.run(false)
		return errors.Join(idle.Drop(ctx), m.b.Load().Drop(ctx))
	}}
	for _, b := range []*board.Board{idle, moving} {
		if _, err := loadBoard(ctx, env, "migrate: loading "+b.Name(), b, size, LoadEntry); err != nil {
			return f, err
		}
	}
	var s seq
	write := func(ctx context.Context, h *atomic.Pointer[board.Board]) error {
		n := s.next()
		sub := board.Submission{ID: IDOf(int64(pick(n, int(size)))), Values: WriteEntry(n).Values(), Policy: board.Best}
		_, err := h.Load().Submit(ctx, sub)
		// Switched: follow the board. A small board's migrations end in a
		// few milliseconds, so it may switch again between the Open and
		// the retry.
		for range followAttempts {
			if !errors.Is(err, board.ErrMismatch) {
				break
			}
			nb, oerr := board.Open(ctx, env.Client, h.Load().Name(), board.Options{})
			if oerr != nil {
				return oerr
			}
			h.Store(nb)
			_, err = nb.Submit(ctx, sub)
		}
		return err
	}
	var idleH, movingH atomic.Pointer[board.Board]
	idleH.Store(idle)
	movingH.Store(moving)
	f.Notes = migrateNotes(size)
	f.Comparisons = []Comparison{{Name: "writes", Case: "submit " + SizeLabel(size), Baseline: MGBaseline, Metric: Throughput, Variants: []Variant{
		{Name: MGBaseline, Commands: []string{"evalsha"}, Op: func(ctx context.Context) error {
			m.run(false)
			return write(ctx, &idleH)
		}},
		{Name: MGMigrating, Commands: []string{"evalsha"}, Counters: []Counter{{MGMigrated, &m.migrated}}, Op: func(ctx context.Context) error {
			m.run(true)
			return write(ctx, &movingH)
		}},
	}}}
	return f, nil
}

// migrateNotes explains the section.
func migrateNotes(size int64) []string {
	return []string{
		"Two packed boards of " + SizeLabel(size) + " entries. idle: Submit (Best) while no migration runs. migrating: Submit (Best) on a board that board.Migrate re-encodes again and again in the background (dense ranks off, then on, ...; the default batch), each write mirrored into the new encoding in its own script; a write that meets the switch opens the board again and retries. The migration runs only while its variant is measured.",
		MGMigrated + ": entries of the migrations completed during the measurement, per write (times the writes per second: the migration's rate).",
	}
}

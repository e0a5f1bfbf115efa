package board

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/internal/windowspan"
	"github.com/tiebreak/tiebreak/observe"
)

// maxWindows is the most windows Windows looks at: with Every(time.Minute)
// and a day's retention, 1,440.
const maxWindows = 10_000

// Windows returns the windows whose boards still exist, newest first: of
// the windows that end no longer than Retention ago (at most 10,000 of
// them), those with a stored descriptor or entries, in one pipelined round
// trip. Redis errors wrap ErrRedis.
func (p *Periodic) Windows(ctx context.Context) ([]Window, error) {
	if err := p.usable(ctx); err != nil {
		return nil, err
	}
	if p.opts.Observer != nil {
		return observed.Call(ctx, p.opts.Observer, p.op("Periodic.Windows"), errKinds, p.windows,
			func(ws []Window, o observe.Outcome) observe.Outcome { return observed.Count(len(ws), o) })
	}
	return p.windows(ctx)
}

// op describes the Periodic's operation name.
func (p *Periodic) op(name string) observe.Op {
	return observe.Op{Package: "board", Name: name, Object: p.name, Strategy: p.opts.Strategy.String()}
}

// windows is Windows.
func (p *Periodic) windows(ctx context.Context) ([]Window, error) {
	now := time.Now()
	var ws []Window
	for w, _ := p.period.Window(now); len(ws) < maxWindows && w.End.Add(p.retention).After(now); w, _ = p.period.Window(w.Start.Add(-time.Nanosecond)) {
		ws = append(ws, w)
	}
	res := p.conn.DoMulti(ctx, func(pp *rdb.Pipe) {
		for _, w := range ws {
			k := names(prefixOf(p.opts.Group, p.name+":"+w.Label), 0)
			pp.Exists(k.meta, k.z)
		}
	})
	out := ws[:0]
	for i, r := range res {
		n, err := r.AsInt64()
		if err != nil {
			return nil, redisErr("windows", err)
		}
		if n > 0 {
			out = append(out, ws[i])
		}
	}
	return out, nil
}

// ArchiveOptions configure Archive. The zero value keeps the whole board
// forever.
type ArchiveOptions struct {
	// Top keeps only the best Top entries. Default 0: every entry.
	// Negative is refused.
	Top int64
	// Retention keeps the archive this long after the window's end.
	// Default 0: forever. Negative is refused.
	Retention time.Duration
}

// archiveLease is how long a caller making an archive holds its claim
// without progress before another caller may take over.
var archiveLease = 3 * time.Second

// archiveBatch is how many entries each step of an archive copies.
const archiveBatch = 1000

// Archive keeps the final standings of window w, which must have ended, in
// a board of their own, named "<name>:<label>:final" (Open reads it too),
// with the window's layout and options, its member data, and the expiry of
// o.Retention. It is made exactly once however many callers ask at the
// same time: one claims it and copies the window's entries (in steps of
// archiveBatch, best first, by keyset cursor), the others wait for it (until
// ctx ends); when the one making it stops for longer than a lease (3 s),
// the next caller resumes the copy where it stopped. Once made, it is
// returned at once, even after the window's own board has expired.
//
// An archive holds the window's entries as the copy read them: writes to
// the window after its end (allowed until its retention runs out) made
// while or after it is copied may be missing from it. An archive is a
// board like any other once made: nothing refuses a write to it, so that
// a correction (a cheater's removal, Group.Remove) reaches the final
// standings too. The member data of a window with Options.SharedData is
// its group's, which the archive shares rather than copies: a later
// SetData or Group.Remove shows in the archive too (a name changed is
// the name the final standings show).
//
// It refuses (ErrArgument) a window not of the Periodic's period, one that
// has not ended, bad options, and a Retention that ran out before now
// (the archive would expire at once), before writing anything; a window
// with no board (none written, or expired) and no archive made is
// ErrNotFound, as is an archive whose window and progress are flushed
// away while it is made (FLUSHALL, a server restarted without
// persistence). An archive made, or being made, with other options
// (another Top or Retention) or of another span of time (a Periodic of
// another zone or alignment, whose period gives the label to other times),
// and a window whose board is stored with another span, are ErrMismatch,
// nothing written: every caller gets the same archive, or an error.
// Round trips: two checks (the archive's state; the window's board and
// its span, in one pipeline), then the claim and one per step of the copy.
// Redis errors wrap ErrRedis.
func (p *Periodic) Archive(ctx context.Context, w Window, o ArchiveOptions) (*Board, error) {
	if err := p.usable(ctx); err != nil {
		return nil, err
	}
	if p.opts.Observer != nil {
		return observed.Call(ctx, p.opts.Observer, p.op("Periodic.Archive"), errKinds, func(ctx context.Context) (*Board, error) { return p.archive(ctx, w, o) }, nil)
	}
	return p.archive(ctx, w, o)
}

// archive is Archive.
func (p *Periodic) archive(ctx context.Context, w Window, o ArchiveOptions) (*Board, error) {
	a, err := p.archiveBoard(w, o)
	if err != nil {
		return nil, err
	}
	if err := p.checkArchivable(ctx, w, a); err != nil {
		return nil, err
	}
	token := newToken()
	return rideOut(ctx, func() (*Board, error) { return p.makeArchive(ctx, w, o, a, token) })
}

// makeArchive claims the archive of w for token and makes it, or waits for
// the caller that makes it.
func (p *Periodic) makeArchive(ctx context.Context, w Window, o ArchiveOptions, a *archive, token string) (*Board, error) {
	for attempt := 0; ; attempt++ {
		st, err := a.claim(ctx, token)
		if err != nil {
			return nil, err
		}
		switch st.state {
		case "done":
			return a.done(ctx)
		case "claimed":
			atStep("Archive", "claim")
			if err := p.copyArchive(ctx, w, a, token, st, o.Top); err != nil {
				return nil, err
			}
			atStep("Archive", "done")
			return a.done(ctx)
		}
		if err := pause(ctx, min(attempt, 5)); err != nil {
			return nil, fmt.Errorf("board: archive of %s: waiting for another caller to make it: %w", w.Label, err)
		}
	}
}

// checkArchivable refuses to archive window w when its board no longer
// exists, unless its archive is made or under way (ErrNotFound), and when
// its board is stored with another span: another period (zone or
// alignment) wrote under its label (ErrMismatch). Two round trips: the
// archive's state, then the board's keys and its span in one pipeline.
func (p *Periodic) checkArchivable(ctx context.Context, w Window, a *archive) error {
	st, err := a.state(ctx)
	if err != nil {
		return err
	}
	k := names(prefixOf(p.opts.Group, p.name+":"+w.Label), 0)
	res := p.conn.DoMulti(ctx, func(pp *rdb.Pipe) {
		pp.Exists(k.meta, k.z)
		pp.HGet(k.meta, fieldSpan)
	})
	n, err := res[0].AsInt64()
	if err != nil {
		return redisErr("archive", err)
	}
	if n == 0 && st == "" {
		return fmt.Errorf("board: archive: no board %s (none was written to window %s, or it expired) and no archive: %w", fullName(p.opts.Group, p.name+":"+w.Label), w.Label, ErrNotFound)
	}
	stored, err := res[1].ToString()
	switch {
	case rdb.IsNil(err):
		return nil // no board (its archive is made), or a window stored without a span
	case err != nil:
		return redisErr("archive", err)
	case stored != w.span():
		return fmt.Errorf("board: archive: window %s is stored as %s, this Periodic's is %s: two periods (another zone or alignment) give its label to other times: %w",
			fullName(p.opts.Group, p.name+":"+w.Label), windowspan.Text(stored), windowspan.Text(w.span()), ErrMismatch)
	}
	return nil
}

// Archived returns the archive of window w, made by Archive; ErrNotFound
// when none has been made (or it expired), a window that has not ended
// included. It refuses a window not of the Periodic's period
// (ErrArgument).
func (p *Periodic) Archived(ctx context.Context, w Window) (*Board, error) {
	if err := p.usable(ctx); err != nil {
		return nil, err
	}
	if p.opts.Observer != nil {
		return observed.Call(ctx, p.opts.Observer, p.op("Periodic.Archived"), errKinds, func(ctx context.Context) (*Board, error) { return p.archived(ctx, w) }, nil)
	}
	return p.archived(ctx, w)
}

// archived is Archived.
func (p *Periodic) archived(ctx context.Context, w Window) (*Board, error) {
	if got, err := p.period.Window(w.Start); err == nil && got == w && w.End.After(time.Now()) {
		return nil, fmt.Errorf("board: no archive of window %s: it ends at %v: %w", w.Label, w.End, ErrNotFound)
	}
	a, err := p.archiveBoard(w, ArchiveOptions{})
	if err != nil {
		return nil, err
	}
	st, err := a.state(ctx)
	if err != nil {
		return nil, err
	}
	if st != "done" {
		return nil, fmt.Errorf("board: no archive of window %s: %w", w.Label, ErrNotFound)
	}
	return a.done(ctx)
}

// archive is a window's archive board and the key of its making's state.
type archive struct {
	b    *Board
	key  string // the state HASH, tb:{<archive name>}:archive
	opts string // the options asked (archiveOpts), which the state keeps
}

// archiveBoard checks w and o and returns the handle of w's archive.
func (p *Periodic) archiveBoard(w Window, o ArchiveOptions) (*archive, error) {
	if got, err := p.period.Window(w.Start); err != nil || got != w {
		return nil, fmt.Errorf("board: archive: %q is not a window of this period: %w", w.Label, ErrArgument)
	}
	if w.End.After(time.Now()) {
		return nil, fmt.Errorf("board: archive: window %s ends at %v, not yet: %w", w.Label, w.End, ErrArgument)
	}
	if o.Top < 0 || o.Retention < 0 {
		return nil, fmt.Errorf("board: ArchiveOptions{Top: %d, Retention: %v}: want 0 or more: %w", o.Top, o.Retention, ErrArgument)
	}
	opts := p.opts
	opts.Rules = Rules{} // final standings: the copy is no attempt
	if o.Retention > 0 {
		opts.expireAt = w.End.Add(o.Retention)
		if !opts.expireAt.After(time.Now()) {
			return nil, fmt.Errorf("board: archive of window %s: a retention of %v ended at %v, before now: %w", w.Label, o.Retention, opts.expireAt, ErrArgument)
		}
	}
	b, err := configure(p.conn, p.name+":"+w.Label+":final", p.layout, opts)
	if err != nil {
		return nil, err
	}
	return &archive{b: b, key: b.prefix + "archive", opts: archiveOpts(o, w)}, nil
}

// archiveOpts is how an archive's state names the options it is made
// with, and the window it is made of: its Top, its Retention (a
// duration: the instant it ends follows from the window) and the
// window's span, so that a caller whose period gives the label to other
// times (another zone or alignment) neither resumes nor takes another's
// archive.
func archiveOpts(o ArchiveOptions, w Window) string {
	top := "every entry"
	if o.Top > 0 {
		top = "Top " + strconv.FormatInt(o.Top, 10)
	}
	kept := ", kept forever"
	if o.Retention > 0 {
		kept = ", kept " + o.Retention.String() + " past the window's end"
	}
	return top + kept + ", of " + windowspan.Text(w.span())
}

// claimState is the answer of a claim.
type claimState struct {
	state, cursor string
	count         int64
}

// claim asks to make the archive: "done", "busy" (another caller makes it)
// or "claimed", with the cursor and count to resume from.
func (a *archive) claim(ctx context.Context, token string) (claimState, error) {
	args := []string{"claim", token, strconv.FormatInt(archiveLease.Milliseconds(), 10), a.opts}
	strs, err := a.b.arrayReply("archive", a.b.conn.Run(ctx, archiveScript, []string{a.key, a.b.prefix + "meta"}, args))
	if err != nil || len(strs) == 0 {
		return claimState{}, errors.Join(err, fmt.Errorf("board: archive claim reply %q: %w", strs, ErrReply))
	}
	if strs[0] == "mismatch" && len(strs) == 2 {
		return claimState{}, fmt.Errorf("board: archive %s: made with %s, asked with %s: %w", a.b.name, strs[1], a.opts, ErrMismatch)
	}
	st := claimState{state: strs[0]}
	if st.state == "claimed" && len(strs) == 3 {
		st.cursor = strs[1]
		if st.count, err = strconv.ParseInt(strs[2], 10, 64); err == nil {
			a.b.fence = token // the writes of the copy, fenced by the claim
			err = a.b.refresh(ctx)
		}
	}
	return st, err
}

// state returns the archive's state: "", "copying" or "done".
func (a *archive) state(ctx context.Context) (string, error) {
	s, err := a.b.conn.HGet(ctx, a.key, "state").ToString()
	if err != nil && !rdb.IsNil(err) {
		return "", redisErr("archive state", err)
	}
	return s, nil
}

// done returns the handle of a made archive.
func (a *archive) done(ctx context.Context) (*Board, error) {
	a.b.fence = ""
	m, err := a.b.readMeta(ctx, false)
	if err != nil {
		return nil, err
	}
	if m.exists && !m.expireAt.IsZero() {
		a.b.opts.expireAt = m.expireAt
	}
	return a.b, a.b.adopt(m)
}

// copyArchive copies the window's entries into the archive from where
// st says, a step at a time, renewing the claim at every step.
func (p *Periodic) copyArchive(ctx context.Context, w Window, a *archive, token string, st claimState, top int64) error {
	src := p.At(w.Start)
	src.opts.expireAt = time.Time{} // reading only; the window may be past its end
	cursor, count := (st.cursor), st.count
	for {
		n := archiveBatch
		if top > 0 {
			n = int(min(int64(n), top-count))
		}
		page := scanPage{}
		var err error
		if n > 0 {
			if page, err = src.scanPage(ctx, cursor, n, []ReadOption{WithData()}); err != nil {
				return err
			}
		}
		if err := a.write(ctx, page.Entries); err != nil {
			return err
		}
		count += int64(len(page.Entries))
		last := !page.HasMore || (top > 0 && count >= top)
		if err := a.step(ctx, token, page.Next, len(page.Entries), last); err != nil || last {
			return err
		}
		atStep("Archive", "copy")
		cursor = page.Next
	}
}

// write stores entries in the archive board, member data included. A
// write that fewer replicas than Options.WaitReplicas acknowledged (after
// a failover left a master without its replica) stands: the window still
// holds the entries, and a failover that loses the write loses the step
// recorded after it too, so the copy is made again from there.
func (a *archive) write(ctx context.Context, es []Entry) error {
	if len(es) == 0 {
		return nil
	}
	subs := make([]Submission, len(es))
	for i, e := range es {
		subs[i] = Submission{ID: e.ID, Values: e.Values, Data: e.Data}
	}
	for i, r := range a.b.SubmitMany(ctx, subs) {
		if r.Err != nil && !errors.Is(r.Err, ErrNotReplicated) {
			return fmt.Errorf("board: archive %s: copying id %s: %w", a.b.label(), clip.Quote(subs[i].ID), r.Err)
		}
	}
	return nil
}

// step records a step of the copy; it fails when the claim was lost (the
// lease ran out and another caller took over).
func (a *archive) step(ctx context.Context, token string, next string, n int, last bool) error {
	done, expire := "0", "0"
	if last {
		done = "1"
		if !a.b.opts.expireAt.IsZero() {
			expire = strconv.FormatInt(a.b.opts.expireAt.UnixMilli(), 10)
		}
	}
	args := []string{"step", token, strconv.FormatInt(archiveLease.Milliseconds(), 10), string(next), strconv.Itoa(n), done, expire}
	ok, err := a.b.conn.Run(ctx, archiveScript, []string{a.key, a.b.prefix + "meta"}, args).AsInt64()
	if err != nil {
		return redisErr("archive step", err)
	}
	switch ok {
	case 1:
		return nil
	case -1:
		return fmt.Errorf("board: archive %s: %w", a.b.name, notStored("its progress"))
	}
	return fmt.Errorf("board: archive %s: another caller took over its making: %w", a.b.name, ErrConflict)
}

// newToken returns a random token naming one caller of Archive.
func newToken() string {
	b := make([]byte, 8)
	rand.Read(b) // never fails
	return hex.EncodeToString(b)
}

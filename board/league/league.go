package league

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/board"
	"github.com/tiebreak/tiebreak/board/internal/hook"
	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/pack"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// Zone is how many members of a cohort a season's roll moves up (the
// best) or down (the worst): Count members, or else the Fraction of the
// cohort's members, rounded down, a product within 1e-9 below a whole
// number counting as that number (Fraction 0.29 of 100 members is 29,
// though 0.29 is not exact in a float64). The zero Zone moves nobody.
type Zone struct {
	// Count is a number of members, 0 or more. Default 0.
	Count int
	// Fraction is a fraction of the cohort, in [0, 1], used when Count
	// is 0. Default 0.
	Fraction float64
}

// of returns how many of a cohort of m members z takes: the product of
// Fraction and m rounded down, where a product within 1e-9 below a whole
// number is that number (0.29 is stored as 0.28999999999999998, whose
// product with 100 is 28.999999999999996: it takes 29).
func (z Zone) of(m int) int {
	if z.Count > 0 {
		return min(z.Count, m)
	}
	return int(math.Floor(z.Fraction*float64(m) + 1e-9))
}

// Options configure a league. The zero value means every default. The
// league's settings (Tiers, CohortSize, Promote, Demote, Partitions),
// its layout and its period are stored with it; New refuses a handle that
// differs (ErrMismatch).
type Options struct {
	// Tiers names the tiers, lowest first: 1 to 32 names of 1 to 32
	// letters, digits, '_' or '-', each once. A member's first season
	// places it in the lowest. Default {"bronze", "silver", "gold"}.
	Tiers []string

	// CohortSize is the most members of one cohort, 2 to 1000. Default 50.
	CohortSize int

	// Promote is how many of each cohort's best members a roll moves up a
	// tier (none from the highest tier). Default: nobody.
	Promote Zone

	// Demote is how many of each cohort's worst members a roll moves down
	// a tier (none from the lowest tier), among those not promoted: a
	// cohort too small for both zones promotes first. Default: nobody.
	Demote Zone

	// Partitions spreads the members over this many hash tags (by a hash
	// of the id), so that on a Redis Cluster the league spreads over that
	// many slots: each partition fills its own cohorts. 1 to 256.
	// Default 1.
	Partitions int

	// Board are the cohort boards' options: Strategy, DenseRanks, and the
	// handle's settings (MaxIDLen, WaitReplicas, WaitTimeout, WaitAOF,
	// Observer, which also observes the league's calls). The league sets
	// their Group; Cap, Group, SharedData, Shards, SkipWriteRank and Rules
	// are refused (ErrOptions). Default: board's defaults.
	Board board.Options
}

var tierName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// Defaults and bounds of Options.
const (
	defaultCohortSize = 50
	maxCohortSize     = 1000 // the most a board read returns at once
	maxTiers          = 32
	maxPartitions     = 256
)

func (o Options) withDefaults() (Options, error) {
	if o.Tiers == nil {
		o.Tiers = []string{"bronze", "silver", "gold"}
	}
	// The league's own: the caller may change its slices.
	o.Tiers, o.Board.Bounds = slices.Clone(o.Tiers), slices.Clone(o.Board.Bounds)
	o.CohortSize = cmp.Or(o.CohortSize, defaultCohortSize)
	o.Partitions = cmp.Or(o.Partitions, 1)
	switch {
	case len(o.Tiers) < 1 || len(o.Tiers) > maxTiers:
		return o, fmt.Errorf("league: Options.Tiers: %d tiers, want 1 to %d: %w", len(o.Tiers), maxTiers, ErrOptions)
	case o.CohortSize < 2 || o.CohortSize > maxCohortSize:
		return o, fmt.Errorf("league: Options.CohortSize = %d out of range [2, %d]: %w", o.CohortSize, maxCohortSize, ErrOptions)
	case o.Partitions < 1 || o.Partitions > maxPartitions:
		return o, fmt.Errorf("league: Options.Partitions = %d out of range [1, %d]: %w", o.Partitions, maxPartitions, ErrOptions)
	}
	for i, t := range o.Tiers {
		if !tierName.MatchString(t) || slices.Index(o.Tiers, t) != i {
			return o, fmt.Errorf("league: Options.Tiers[%d] = %q: want 1 to 32 letters, digits, '_' or '-', each tier once: %w", i, t, ErrOptions)
		}
	}
	for _, z := range []struct {
		name string
		z    Zone
	}{{"Promote", o.Promote}, {"Demote", o.Demote}} {
		if z.z.Count < 0 || !(z.z.Fraction >= 0 && z.z.Fraction <= 1) || z.z.Count > 0 && z.z.Fraction > 0 {
			return o, fmt.Errorf("league: Options.%s = %+v: want a Count of 0 or more, or a Fraction in [0, 1], not both: %w", z.name, z.z, ErrOptions)
		}
	}
	b := o.Board
	if _, bad := (durable.Wait{Replicas: b.WaitReplicas, Timeout: b.WaitTimeout, AOF: b.WaitAOF}).WithDefaults(); bad != "" {
		return o, fmt.Errorf("league: Options.Board: %s: %w", bad, ErrOptions)
	}
	if b.Cap != 0 || b.Group != "" || b.SharedData || b.Shards != 0 || b.Rules != (board.Rules{}) || b.SkipWriteRank {
		return o, fmt.Errorf("league: Options.Board: Cap, Group, SharedData, Shards, SkipWriteRank and Rules are not a cohort's (the league groups its cohorts): %w", ErrOptions)
	}
	return o, nil
}

// League is a handle to one league: its settings, its period (each
// window a season) and its cohort boards' layout. It is safe for
// concurrent use. One not made by New (a zero League, or nil) refuses
// every call (ErrArgument), and so does a Season not made by At.
type League struct {
	conn   rdb.Conn
	name   string
	layout *pack.Layout
	period board.Period
	opts   Options
	placed hook.Placed
	tmpl   *board.Board
	// The cohort boards' settings that a call reads, with their defaults,
	// read from tmpl once (its Options copies the bounds each call).
	maxIDLen  int
	retention time.Duration
}

// descriptor is what a league stores about itself, JSON in the field
// "desc" of tb:{name}:league.
type descriptor struct {
	Version    int      `json:"version"`
	Tiers      []string `json:"tiers"`
	CohortSize int      `json:"cohortSize"`
	Promote    zoneJSON `json:"promote"`
	Demote     zoneJSON `json:"demote"`
	Partitions int      `json:"partitions"`
	Layout     string   `json:"layout"`
	// Period is the league's period, as hook.Period describes it.
	Period string `json:"period"`
	// Board is the descriptor every cohort board stores: the layout and
	// the stored settings of Options.Board (Strategy, DenseRanks...).
	Board json.RawMessage `json:"board"`
}

// zoneJSON is a Zone as the descriptor stores it.
type zoneJSON struct {
	Count    int     `json:"count,omitempty"`
	Fraction float64 `json:"fraction,omitempty"`
}

// New returns a handle to the league name, whose seasons are the windows
// of period and whose cohorts are boards of layout, storing its settings
// when it has none (one round trip). It refuses an invalid name (as a
// board's, no '~' or '/', and short enough that each partition's hash tag,
// name~P, is at most 200 bytes: 198 bytes with up to 10 partitions, 197
// with up to 100: ErrArgument), a nil client or layout and invalid
// Options or Period (ErrOptions), and a league stored with other settings,
// another layout or another period (another kind, location or alignment:
// seasons of two periods would close each other), the cohort boards'
// stored settings included (ErrMismatch, naming the setting). Redis errors wrap ErrRedis.
func New(ctx context.Context, client rueidis.Client, name string, layout *pack.Layout, period board.Period, o Options) (*League, error) {
	if err := errs.NilContext("league: New", ctx); err != nil {
		return nil, err
	}
	if err := hashtag.Check(name, 200-len("~0"), "league: name", errs.Invalid("invalid name")); err != nil {
		return nil, err
	}
	if strings.ContainsAny(name, "~/") {
		return nil, fmt.Errorf("league: name %q holds '~' or '/': %w", name, ErrArgument)
	}
	if client == nil || layout == nil {
		return nil, fmt.Errorf("league: New: nil client or layout: %w", ErrOptions)
	}
	if _, err := period.Window(time.Now()); err != nil {
		return nil, fmt.Errorf("league: New: %w", err)
	}
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	// Each partition's hash tag, name~P, is a board's group: the longest
	// must fit where a group does.
	if err := hashtag.Check(name+"~"+strconv.Itoa(o.Partitions-1), 200, "league: the hash tag of its last partition", ErrArgument); err != nil {
		return nil, err
	}
	l := &League{conn: rdb.New(client), name: name, layout: layout, period: period, opts: o}
	// The cohorts' options (Options.Board) are checked here, building the
	// template handle, before the descriptor is stored: a refusal writes
	// nothing.
	tmpl, err := l.cohortBoard(0, "tmpl", 1, 1)
	if err != nil {
		return nil, err
	}
	l.tmpl = tmpl
	to := tmpl.Options()
	l.maxIDLen, l.retention = to.MaxIDLen, to.RequestRetention
	placement := luascript.MustAssemble(luaFiles, "lua", "league: place", []luascript.Const{
		{Name: "SIZE", Value: strconv.Itoa(o.CohortSize)},
		{Name: "TIERS", Value: "{'" + strings.Join(o.Tiers, "', '") + "'}"},
	}, "place")
	if l.placed, err = hook.NewPlaced(tmpl, placement); err != nil {
		return nil, err
	}
	if err := l.store(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// store writes the league's descriptor when none is stored and compares
// it with the stored one: one round trip.
func (l *League) store(ctx context.Context) error {
	d := descriptor{Version: 1, Tiers: l.opts.Tiers, CohortSize: l.opts.CohortSize, Promote: zoneJSON(l.opts.Promote), Demote: zoneJSON(l.opts.Demote),
		Partitions: l.opts.Partitions, Layout: l.layout.String(), Period: hook.Period(l.period), Board: json.RawMessage(hook.Descriptor(l.tmpl))}
	j, _ := json.Marshal(d) // plain values: cannot fail
	key := "tb:{" + l.name + "}:league"
	c := l.conn
	r := c.DoMulti(ctx, func(p *rdb.Pipe) {
		p.HSetNX(key, "desc", string(j))
		p.HGet(key, "desc")
	})
	stored, err := r[1].ToString()
	if err != nil {
		return errs.FromRedis("league: "+l.name, err)
	}
	if stored == string(j) {
		return nil
	}
	var s descriptor
	if err := json.Unmarshal([]byte(stored), &s); err != nil {
		return fmt.Errorf("league: %s: stored descriptor %q: %w", l.name, stored, ErrMismatch)
	}
	what := differs(s, d)
	if what == "" { // a field this version does not know
		what = fmt.Sprintf("stored %s, given %s", stored, j)
	}
	return fmt.Errorf("league: %s: stored with other settings: %s: %w", l.name, what, ErrMismatch)
}

// differs names the settings of the stored descriptor s that the given
// one d does not have, with both values.
func differs(s, d descriptor) string {
	var out []string
	for _, f := range []struct {
		name          string
		stored, given any
	}{
		{"Tiers", s.Tiers, d.Tiers}, {"CohortSize", s.CohortSize, d.CohortSize}, {"Promote", s.Promote, d.Promote},
		{"Demote", s.Demote, d.Demote}, {"Partitions", s.Partitions, d.Partitions}, {"layout", s.Layout, d.Layout}, {"period", s.Period, d.Period},
		{"cohort boards", string(s.Board), string(d.Board)}, {"version", s.Version, d.Version},
	} {
		if !reflect.DeepEqual(f.stored, f.given) {
			out = append(out, fmt.Sprintf("%s: stored %v, given %v", f.name, f.stored, f.given))
		}
	}
	return strings.Join(out, "; ")
}

// Name returns the league's name.
func (l *League) Name() string {
	if l == nil {
		return ""
	}
	return l.name
}

// Options returns the league's options, with their defaults (Board as
// given: its defaults are board's).
func (l *League) Options() Options {
	if l == nil {
		return Options{}
	}
	o := l.opts
	o.Tiers, o.Board.Bounds = slices.Clone(o.Tiers), slices.Clone(o.Board.Bounds) // the caller's to change
	return o
}

// partition returns the partition of id.
func (l *League) partition(id string) int { return hashtag.Partition(id, l.opts.Partitions) }

// group is the group (hash tag) of partition p.
func (l *League) group(p int) string { return l.name + "~" + strconv.Itoa(p) }

// partKey is the key of partition p named suffix.
func (l *League) partKey(p int, suffix string) string {
	return "tb:{" + l.group(p) + "}:" + suffix
}

// cohortBoard returns a handle to cohort n of tier (from 1) of season
// label in partition p, without a round trip.
func (l *League) cohortBoard(p int, label string, tier, n int) (*board.Board, error) {
	return l.cohortHandle(p, label, tier, n, l.opts.Board)
}

// cohortHandle returns a handle with options o to a cohort (see
// cohortBoard).
func (l *League) cohortHandle(p int, label string, tier, n int, o board.Options) (*board.Board, error) {
	name := label + ":" + l.opts.Tiers[tier-1] + ":" + strconv.Itoa(n)
	b, err := hook.Handle(l.conn, l.group(p), name, l.layout, o)
	if err != nil {
		return nil, err
	}
	return b.(*board.Board), nil
}

// At returns the season holding t: the window of the league's period
// holding it.
func (l *League) At(t time.Time) *Season {
	if l.unmade() != nil {
		return &Season{} // every call refused (ErrArgument)
	}
	w, _ := l.period.Window(t) // checked by New
	return &Season{l: l, w: w}
}

// Season is one season of a league: a window of its period.
type Season struct {
	l *League
	w board.Window
}

// Window returns the season's window.
func (s *Season) Window() board.Window {
	if s == nil {
		return board.Window{}
	}
	return s.w
}

// unmade refuses a League not made by New (ErrArgument).
func (l *League) unmade() error {
	if l == nil || !l.conn.Valid() {
		return fmt.Errorf("league: a League not made by New (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (l *League) usable(ctx context.Context) error {
	if err := l.unmade(); err != nil {
		return err
	}
	return errs.NilContext("league", ctx)
}

// unmade refuses a Season not made by League.At (ErrArgument).
func (s *Season) unmade() error {
	if s == nil || s.l.unmade() != nil {
		return fmt.Errorf("league: a Season not made by League.At (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (s *Season) usable(ctx context.Context) error {
	if err := s.unmade(); err != nil {
		return err
	}
	return errs.NilContext("league: Season", ctx)
}

// keys are the season's keys in partition p, in place.lua's order.
func (s *Season) keys(p int) []string {
	l := s.l
	return []string{l.partKey(p, "league"), l.partKey(p, "tiers"), l.partKey(p, "seasons"),
		l.partKey(p, s.w.Label+":placed"), l.partKey(p, s.w.Label+":cohorts")}
}

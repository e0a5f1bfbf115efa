package board

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/pack"
)

// Entry is one entry of a board.
type Entry struct {
	// ID identifies the entry.
	ID string
	// Values holds one value per layout field, most significant first.
	Values []float64
	// Rank is the entry's ordinal rank, 1 = best, from the same snapshot
	// as the values (0 when not on the board).
	Rank int64
	// Competition, Dense and ModifiedCompetition are the entry's ranks of
	// those kinds, from the same snapshot, when the read asked for them
	// (WithRanks); 0 otherwise.
	Competition, Dense, ModifiedCompetition int64
	// Data is the member data, when the read asked for it and the entry
	// has some; nil otherwise.
	Data []byte
}

// List is a run of entries, best first, with the board's size in the same
// snapshot.
type List struct {
	// Entries holds the entries, best first, each with its ordinal rank.
	Entries []Entry
	// Total is the number of entries on the board, from the same
	// snapshot, when the read asked for it (WithTotal); -1 otherwise.
	Total int64
	// HasMore, in a List from Scan, reports that entries follow it.
	HasMore bool
	// Next, in a List from Scan, is the cursor of the following page:
	// empty when no entries follow.
	Next string
}

// RankKind chooses how equal entries are ranked.
type RankKind uint8

const (
	// Ordinal ranks every entry apart, ties broken by id: 1, 2, 3, 4.
	Ordinal RankKind = iota
	// Competition gives equal entries the same rank and skips: 1, 2, 2, 4.
	Competition
	// Dense gives equal entries the same rank without gaps: 1, 2, 2, 3.
	// It needs Options.DenseRanks.
	Dense
	// ModifiedCompetition gives equal entries the same rank, the last of
	// their places, and skips before them: 1, 3, 3, 4.
	ModifiedCompetition
)

var rankKindNames = [...]string{Ordinal: "Ordinal", Competition: "Competition", Dense: "Dense", ModifiedCompetition: "ModifiedCompetition"}

// String returns the rank kind's name: "Ordinal", "Competition", "Dense"
// or "ModifiedCompetition".
func (k RankKind) String() string { return enumName(rankKindNames[:], "RankKind", k) }

// ReadOption changes what a read returns. A nil ReadOption changes
// nothing, so that a list of options built on conditions may hold one.
type ReadOption func(*readConfig)

// apply applies opts to c, skipping nil ones.
func apply(c *readConfig, opts []ReadOption) {
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
}

type readConfig struct {
	data             bool
	total            bool
	comp, dense, mod bool
	self, selfOK     bool     // AsSelf, and whether the read takes it
	badKind          RankKind // an unknown kind given to WithRanks, or 0
}

// AsSelf makes Get a read on the member's own behalf: on a board with
// Options.Hiding, a hidden member's entry is found, with the ranks it
// would have were it shown (the entries of others unmoved), so that the
// member sees its own score and rank as if nothing were hidden. Any other
// read refuses it (ErrArgument): a hidden member sees the board as
// others do, less itself.
func AsSelf() ReadOption { return func(c *readConfig) { c.self = true } }

// WithData makes a read return each entry's member data, from the same
// snapshot.
func WithData() ReadOption { return func(c *readConfig) { c.data = true } }

// WithTotal makes a read that returns a List fill its Total: the number
// of entries on the board, from the same snapshot and in the same round
// trip. Without it Total is -1, and the read costs Redis nothing for it.
func WithTotal() ReadOption { return func(c *readConfig) { c.total = true } }

// WithRanks makes a read that returns entries fill their Competition,
// Dense and ModifiedCompetition ranks too, as kinds asks (Ordinal, always
// returned, may be named),
// from the same snapshot and in the same round trip. A read refuses an
// unknown kind (ErrArgument) and Dense on a board without
// Options.DenseRanks (ErrArgument).
func WithRanks(kinds ...RankKind) ReadOption {
	return func(c *readConfig) {
		for _, k := range kinds {
			switch k {
			case Ordinal:
			case Competition:
				c.comp = true
			case Dense:
				c.dense = true
			case ModifiedCompetition:
				c.mod = true
			default:
				c.badKind = k
			}
		}
	}
}

// readFlags applies opts; it returns the configuration and the scripts'
// arguments for it: data ("1" or "0") and the extras: any of "c", "d" and
// "m" (the ranks), "s" (AsSelf) and "t" (the total).
func (b *Board) readFlags(opts []ReadOption) (c readConfig, data, ranks string, err error) {
	apply(&c, opts)
	data = "0"
	if c.data {
		data = "1"
	}
	if c.comp {
		ranks = "c"
	}
	if c.dense {
		ranks += "d"
	}
	if c.mod {
		ranks += "m"
	}
	if c.self && c.selfOK {
		ranks += "s"
	}
	if c.total {
		ranks += "t"
	}
	switch {
	case c.self && !c.selfOK:
		err = fmt.Errorf("board: AsSelf: only Get reads on a member's own behalf: %w", ErrArgument)
	case c.badKind != 0:
		err = fmt.Errorf("board: WithRanks: unknown rank kind %v, want Ordinal, Competition, Dense or ModifiedCompetition: %w", c.badKind, ErrArgument)
	case c.dense && !b.opts.DenseRanks:
		err = fmt.Errorf("board: WithRanks(Dense): %w", errDenseDisabled)
	}
	return c, data, ranks, err
}

// Get returns the entry of id with its ordinal rank (and the others
// WithRanks asks for). It refuses an invalid id (ErrArgument) and reports an id
// not on the board as ErrNotFound.
//
// The answer is one moment's. With no ReadOption Get is the bare
// commands, ZRANK ... WITHSCORE (ZSCORE and ZRANK in a MULTI/EXEC on
// Redis 7.0), one round trip; on a key-suffix board of more than one
// field, an HGET of the id lookup first, two (and a script when a write
// changed the id's entry between them; an id not on the board is found
// absent by an HMGET of the lookup, two and no script, or on an empty
// lookup by the script, which tells an empty board from one whose lookup
// is gone: ErrReply, docs/operating.md). With options, one script.
func (b *Board) Get(ctx context.Context, id string, opts ...ReadOption) (Entry, error) {
	if err := b.usable(ctx); err != nil {
		return Entry{}, err
	}
	if b.sh != nil {
		return b.sh.Get(ctx, id, opts...)
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Get", 0), errKinds, func(ctx context.Context) (Entry, error) { return b.rank(ctx, "get", id, Ordinal, opts) }, entryOutcome)
	}
	return b.rank(ctx, "get", id, Ordinal, opts)
}

// Rank returns the rank of id of the given kind, 1 = best: in O(log N),
// except Competition on a KeySuffix board, which binary-searches the T
// entries tied with id on the first field: O(log N * log T). An Ordinal
// rank is read as Get with no option is; the other kinds, one script.
// Besides Get's errors it refuses an unknown kind (ErrArgument) and Dense
// on a board without Options.DenseRanks (ErrArgument).
func (b *Board) Rank(ctx context.Context, id string, kind RankKind) (int64, error) {
	if err := b.usable(ctx); err != nil {
		return 0, err
	}
	if b.sh != nil {
		return b.sh.Rank(ctx, id, kind)
	}
	if b.opts.Observer != nil {
		op := b.op("Rank", 0)
		op.Policy = kind.String()
		return observed.Call(ctx, b.opts.Observer, op, errKinds, func(ctx context.Context) (int64, error) { return b.rankOf(ctx, id, kind) }, rankOutcome)
	}
	return b.rankOf(ctx, id, kind)
}

// rankOf is Rank.
func (b *Board) rankOf(ctx context.Context, id string, kind RankKind) (int64, error) {
	if kind == Ordinal {
		if err := b.checkID(id); err != nil {
			return 0, err
		}
		r, err := b.plainRank(ctx, id)
		if !errors.Is(err, errScript) {
			return r, err
		}
		e, err := b.scriptGet(ctx, id)
		return e.Rank, err
	}
	e, err := b.rank(ctx, "rank", id, kind, nil)
	switch kind {
	case Competition:
		return e.Competition, err
	case Dense:
		return e.Dense, err
	case ModifiedCompetition:
		return e.ModifiedCompetition, err
	}
	return e.Rank, err
}

func (b *Board) rank(ctx context.Context, op, id string, kind RankKind, opts []ReadOption) (Entry, error) {
	if err := b.checkID(id); err != nil {
		return Entry{}, err
	}
	if kind == Ordinal && len(opts) == 0 {
		return b.leanGet(ctx, id) // what the flags below would choose, without their allocations
	}
	opts = append([]ReadOption{takesSelf}, opts...)
	code, err := b.kindCode(kind)
	if err != nil {
		return Entry{}, err
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return Entry{}, err
	}
	if kind == Ordinal {
		code += ranks // Get: the ordinal rank and those WithRanks asks for
	}
	if code == "o" && data == "0" {
		return b.leanGet(ctx, id)
	}
	strs, err := inGen(ctx, b, func(g *generation) ([]string, error) {
		return b.arrayReply(op, b.conn.Run(ctx, g.scripts.rank, g.keys.script, []string{id, code, data}))
	})
	if err != nil {
		return Entry{}, err
	}
	if len(strs) == 0 {
		return Entry{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	if len(strs) != 8 {
		return Entry{}, fmt.Errorf("board: rank reply %q: %w", strs, ErrReply)
	}
	e, err := b.entry(strs[1], strs[0], strs[2])
	if err == nil && c.data && strs[4] == "1" {
		e.Data = []byte(strs[3])
	}
	if err == nil {
		e.Competition, e.Dense, err = parseRanks(strs[5], strs[6])
	}
	if err == nil {
		e.ModifiedCompetition, err = parseRank(strs[7])
	}
	return e, err
}

// parseRank reads one rank of a reply.
func parseRank(s string) (int64, error) {
	r, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("board: rank %q: %w", s, ErrReply)
	}
	return r, nil
}

// parseRanks reads the competition and dense ranks of a reply; a dense
// rank of -1 means the dense index lacks the entry's tuple.
func parseRanks(comp, dense string) (int64, int64, error) {
	c, err1 := strconv.ParseInt(comp, 10, 64)
	d, err2 := strconv.ParseInt(dense, 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("board: ranks %q %q: %w", comp, dense, ErrReply)
	}
	if d < 0 {
		return 0, 0, errNoDense
	}
	return c, d, nil
}

// errNoDense reports a dense index that lacks an entry's tuple.
var errNoDense = fmt.Errorf("board: %w", errDenseMissing)

func (b *Board) kindCode(kind RankKind) (string, error) {
	switch kind {
	case Ordinal:
		return "o", nil
	case Competition:
		return "c", nil
	case Dense:
		if !b.opts.DenseRanks {
			return "", fmt.Errorf("board: rank kind Dense: %w", errDenseDisabled)
		}
		return "d", nil
	case ModifiedCompetition:
		return "m", nil
	}
	return "", fmt.Errorf("board: unknown rank kind %v, want Ordinal, Competition, Dense or ModifiedCompetition: %w", kind, ErrArgument)
}

// maxCount is the largest number of entries one read returns; maxOffset the
// largest offset. Larger values are refused (ErrArgument): page through big
// boards with Scan.
const (
	maxCount  = 1000
	maxOffset = 1<<53 - 1
)

// checkWindow refuses a count outside [1, 1000] and an offset outside
// [0, 2^53-1].
func checkWindow(op string, offset int64, n int) error {
	if n < 1 || n > maxCount {
		return fmt.Errorf("board: %s: n = %d out of range [1, %d]: %w", op, n, maxCount, ErrArgument)
	}
	if offset < 0 || offset > maxOffset {
		return fmt.Errorf("board: %s: offset = %d out of range [0, %d]: %w", op, offset, int64(maxOffset), ErrArgument)
	}
	return nil
}

// Len returns the number of entries.
func (b *Board) Len(ctx context.Context) (int64, error) {
	if err := b.usable(ctx); err != nil {
		return 0, err
	}
	if b.sh != nil {
		return b.sh.Len(ctx)
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Len", 0), errKinds, b.length, observed.Count[int64])
	}
	return b.length(ctx)
}

// length is Len.
func (b *Board) length(ctx context.Context) (int64, error) {
	return inGen(ctx, b, func(g *generation) (int64, error) {
		n, err := b.conn.ZCard(ctx, g.keys.z).AsInt64()
		return n, redisErr("count", err)
	})
}

// Top returns the best n entries (fewer when the board is smaller). It
// refuses n outside [1, 1000] (ErrArgument). A handle with
// Options.CacheTop may serve it from memory, shared with other reads:
// read-only (see Options.CacheTop).
func (b *Board) Top(ctx context.Context, n int, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	if b.sh != nil {
		return totalAsked(opts)(b.sh.Top(ctx, n, opts...))
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Top", n), errKinds, func(ctx context.Context) (List, error) { return b.page(ctx, "Top", 0, n, opts) }, listOutcome)
	}
	return b.page(ctx, "Top", 0, n, opts)
}

// Page returns up to n entries starting at the 0-based offset (offset 0 is
// rank 1). It refuses n outside [1, 1000] and an offset outside [0,
// 2^53-1] (ErrArgument). For paging while the board changes, use Scan. A
// handle with Options.CacheTop may serve it from memory, as Top. On a
// sharded board of S shards, a deep page (S*(offset+n) over 2,000) takes
// two round trips, and reads again when writes between them
// move entries across its bounds; after 3 such reads it gives up with
// ErrConflict.
func (b *Board) Page(ctx context.Context, offset int64, n int, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	if b.sh != nil {
		return totalAsked(opts)(b.sh.Page(ctx, offset, n, opts...))
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Page", n), errKinds, func(ctx context.Context) (List, error) { return b.page(ctx, "Page", offset, n, opts) }, listOutcome)
	}
	return b.page(ctx, "Page", offset, n, opts)
}

// page is Top and Page; op names the call in errors.
func (b *Board) page(ctx context.Context, op string, offset int64, n int, opts []ReadOption) (List, error) {
	if err := checkWindow(op, offset, n); err != nil {
		return List{}, err
	}
	cached := b.opts.CacheTop && offset+int64(n) <= int64(b.opts.KeepTop)
	if cached && len(opts) == 0 {
		return b.cachedPage(ctx, offset, n)
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return List{}, err
	}
	if cached && !c.data && ranks == "" {
		return b.cachedPage(ctx, offset, n)
	}
	if !c.data && ranks == "" {
		return b.plainPage(ctx, offset, n)
	}
	args := []string{strconv.FormatInt(offset, 10), strconv.FormatInt(offset+int64(n)-1, 10), data, ranks}
	return b.list(ctx, op, func(s *scriptSet) *luascript.Script { return s.rang }, args, c)
}

// Around returns n entries around id, id among them and as central as the
// edges allow (with n even, one more after id than before it): near the
// top or bottom the window fills from the other side, so around rank 1
// gives ranks 1..n. It refuses an invalid id (ErrArgument) and n
// outside [1, 1000] (ErrArgument), and reports an id not on the board
// as ErrNotFound.
//
// The answer is always one moment's. With no ReadOption, Around reads
// with the bare commands, ZRANK then ZRANGE, in two round trips (three on
// a key-suffix board of more than one field: an HGET of the id lookup
// first): Redis spends less on them than on a script once many callers
// share a connection. Near the last entry, or when a write moved the id
// between them, one more round trip, one script, answers. With options,
// Around is one script, one round trip. On a sharded board, Around takes
// two round trips (where id is, then every shard around it) and reads
// again when id moves between them, so the list always holds id; after 8
// such reads it gives up with ErrConflict.
func (b *Board) Around(ctx context.Context, id string, n int, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	if b.sh != nil {
		return totalAsked(opts)(b.sh.Around(ctx, id, n, opts...))
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Around", n), errKinds, func(ctx context.Context) (List, error) { return b.around(ctx, id, n, opts) }, listOutcome)
	}
	return b.around(ctx, id, n, opts)
}

// around is Around.
func (b *Board) around(ctx context.Context, id string, n int, opts []ReadOption) (List, error) {
	if err := b.checkID(id); err != nil {
		return List{}, err
	}
	if err := checkWindow("around", 0, n); err != nil {
		return List{}, err
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return List{}, err
	}
	if !c.data && ranks == "" {
		if l, ok, err := b.plainAround(ctx, id, n); ok || err != nil {
			return l, err
		}
	}
	args := []string{id, strconv.Itoa(n), data, ranks}
	l, err := b.list(ctx, "around", func(s *scriptSet) *luascript.Script { return s.around }, args, c)
	if errors.Is(err, errAbsent) {
		return List{}, fmt.Errorf("board: id %q: %w", id, ErrNotFound)
	}
	return l, err
}

// Between returns up to n entries, skipping offset, whose first field lies
// in [lo, hi], best first. It refuses NaN bounds, n outside [1, 1000]
// and an offset outside [0, 2^53-1] (ErrArgument); an empty or inverted
// range gives an empty list.
func (b *Board) Between(ctx context.Context, lo, hi float64, offset int64, n int, opts ...ReadOption) (List, error) {
	if err := b.usable(ctx); err != nil {
		return List{}, err
	}
	if b.sh != nil {
		return totalAsked(opts)(b.sh.Between(ctx, lo, hi, offset, n, opts...))
	}
	if b.opts.Observer != nil {
		return observed.Call(ctx, b.opts.Observer, b.op("Between", n), errKinds, func(ctx context.Context) (List, error) { return b.between(ctx, lo, hi, offset, n, opts) }, listOutcome)
	}
	return b.between(ctx, lo, hi, offset, n, opts)
}

// between is Between.
func (b *Board) between(ctx context.Context, lo, hi float64, offset int64, n int, opts []ReadOption) (List, error) {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return List{}, fmt.Errorf("board: between [%v, %v]: %w", lo, hi, ErrArgument)
	}
	if err := checkWindow("between", offset, n); err != nil {
		return List{}, err
	}
	c, data, ranks, err := b.readFlags(opts)
	if err != nil {
		return List{}, err
	}
	slo, shi, ok := b.storedBounds(lo, hi)
	if !ok && !c.total {
		return List{Total: -1, Entries: []Entry{}}, nil
	}
	if !ok {
		total, err := b.length(ctx)
		return List{Total: total, Entries: []Entry{}}, err
	}
	args := []string{fmtFloat(slo), fmtFloat(shi), strconv.FormatInt(offset, 10), strconv.Itoa(n), data, ranks}
	return b.list(ctx, "between", func(s *scriptSet) *luascript.Script { return s.between }, args, c)
}

// storedBounds turns a range of the first field into a range of stored
// scores; ok is false when no value of the field lies in it.
func (b *Board) storedBounds(lo, hi float64) (slo, shi float64, ok bool) {
	min, max := b.fieldRange(0)
	lo, hi = math.Max(lo, min), math.Min(hi, max)
	f := b.layout.Field(0)
	if b.suffix() {
		if lo > hi {
			return 0, 0, false
		}
		if f.Dir == pack.HigherIsBetter {
			return -hi, -lo, true
		}
		return lo, hi, true
	}
	lo, hi = math.Ceil(lo), math.Floor(hi)
	if lo > hi {
		return 0, 0, false
	}
	ra, _ := f.Raw(int64(lo))
	rb, _ := f.Raw(int64(hi))
	if ra > rb {
		ra, rb = rb, ra
	}
	return -float64(rb*f.Mul + f.Mul - 1), -float64(ra * f.Mul), true
}

// takesSelf marks a read that takes AsSelf (Get).
func takesSelf(c *readConfig) { c.selfOK = true }

// totalAsked returns what passes a sharded board's list on with its
// Total -1 unless opts ask for it (WithTotal): the shards count their
// entries anyway, but a read gives the same fields whatever kind of board
// answers it.
func totalAsked(opts []ReadOption) func(List, error) (List, error) {
	var c readConfig
	apply(&c, opts)
	return func(l List, err error) (List, error) {
		if !c.total {
			l.Total = -1
		}
		return l, err
	}
}

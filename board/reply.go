package board

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/luascript"
	"github.com/tiebreak/tiebreak/internal/windowspan"
	"github.com/tiebreak/tiebreak/pack"
)

// arrayReply reads a script's array reply whose elements are strings or
// integers: a Redis or connection error wraps ErrRedis (or ErrArgument for a
// range error raised by the script), any other shape is ErrReply.
func (b *Board) arrayReply(op string, r rdb.Result) ([]string, error) {
	msg, err := r.ToMessage()
	if err != nil {
		return nil, b.scriptErr(op, err)
	}
	if !msg.IsArray() {
		return nil, fmt.Errorf("board: %s: reply is not an array: %w", op, ErrReply)
	}
	arr, _ := msg.ToArray()
	return replyStrings(arr)
}

// replyStrings reads array elements that are strings or integers.
func replyStrings(arr []rdb.Reply) ([]string, error) {
	out := make([]string, len(arr))
	for i := range arr {
		m := &arr[i]
		if m.IsInt64() {
			n, _ := m.AsInt64()
			out[i] = strconv.FormatInt(n, 10)
			continue
		}
		s, err := m.ToString()
		if err != nil {
			return nil, fmt.Errorf("board: reply element %d: %w: %w", i, ErrReply, err)
		}
		out[i] = s
	}
	return out, nil
}

// errLookupLost is a key-suffix board whose id lookup is gone while its
// sorted set holds entries (lookup.lua's check): it can no longer find an
// id, and refuses to read or write one rather than answer that it is
// absent or store it twice.
var errLookupLost = fmt.Errorf("its id lookup is gone while its sorted set holds entries (evicted, or removed by hand; see docs/operating.md, Eviction): it can no longer find an id: %w", ErrReply)

// errAbsent is a listing reply {} for an id that is not on the board.
var errAbsent = fmt.Errorf("board: id absent: %w", ErrNotFound)

// scriptErr classifies an error from a script call: a range error raised by
// the script ("TBRANGE <field index from 1> <value>") becomes ErrArgument
// naming the field, anything else ErrRedis.
func (b *Board) scriptErr(op string, err error) error {
	if text, ok := rdb.ErrorText(err); ok {
		if known := b.refusal(op, text); known != nil {
			return known
		}
	}
	return redisErr(op, err)
}

// refusal turns the text of an error a script raised on purpose into the
// package's error, or returns nil for any other text.
func (b *Board) refusal(op, text string) error {
	if err := b.refusedByRule(op, text); err != nil {
		return err
	}
	if other, ok := strings.CutPrefix(text, "TBREQUEST "); ok {
		return fmt.Errorf("board: %s: %s: the request id was used for id %s: %w", op, b.label(), clip.Quote(other), ErrArgument)
	}
	var i int
	var v string
	if n, _ := fmt.Sscanf(text, "TBBOUND %d %s", &i, &v); n == 2 && i >= 1 && i <= b.layout.Len() {
		bd := b.bounds[i-1]
		return fmt.Errorf("board: %s: field %q would become %s, outside its bounds [%s, %s]: %w", op, bd.Field, v, fmtNum(bd.Min), fmtNum(bd.Max), ErrOutOfBounds)
	}
	if n, _ := fmt.Sscanf(text, "TBRANGE %d %s", &i, &v); n == 2 && i >= 1 && i <= b.layout.Len() {
		min, max := b.fieldRange(i - 1)
		return fmt.Errorf("board: %s: field %q would become %s, outside [%s, %s]: %w: %w",
			op, b.layout.Field(i-1).Name, v, fmtNum(min), fmtNum(max), errValue, pack.ErrOverflow)
	}
	switch {
	case strings.HasPrefix(text, "TBGEN"):
		// The board is in another generation than the handle's (dropped
		// and made again since): read it again (adopt).
		return fmt.Errorf("board: %s: %s: the board is in another generation: %w", op, b.label(), errStale)
	case strings.HasPrefix(text, "TBMISMATCH") && b.opts.expireAt.IsZero():
		// Stored over since the handle read it (a migration switched, or
		// the board was dropped and made again): read it again (adopt).
		return fmt.Errorf("board: %s: %s: the stored descriptor changed: %w", op, b.label(), errStale)
	case strings.HasPrefix(text, "TBMISMATCH"):
		return fmt.Errorf("board: %s: %s: the window's stored descriptor differs from this handle's (read it with Open): %w",
			op, b.label(), ErrMismatch)
	case strings.HasPrefix(text, "TBSPAN "):
		return b.spanMismatch(op, strings.TrimPrefix(text, "TBSPAN "))
	case strings.HasPrefix(text, "TBDROPPED") && b.opts.shard:
		return fmt.Errorf("board: %s: %s: %w", op, b.label(), errDropped)
	case strings.HasPrefix(text, "TBDROPPED"):
		// A migrating handle: read the board again (generation 0, live),
		// then the write stores the descriptor.
		return fmt.Errorf("board: %s: %s: the board was dropped: %w", op, b.label(), errStale)
	case strings.HasPrefix(text, "TBSTALE"):
		// A copy step (copy.lua, mirrorids.lua) after another process
		// ended the migration: as copyStep's own check reports it, so
		// that a Migrate racing the one that switched succeeds
		// (finishedMeanwhile).
		return fmt.Errorf("board: %s: %s: the migration is no longer under way: %w", op, b.label(), ErrMigrating)
	case strings.HasPrefix(text, "TBFROZEN"):
		return fmt.Errorf("board: %s: %s: %w", op, b.label(), errFrozen)
	case strings.HasPrefix(text, "TBFENCED"):
		return fmt.Errorf("board: %s: %s: %w", op, b.label(), errFenced)
	case strings.HasPrefix(text, "TBGONE"):
		return b.gone(op)
	case strings.HasPrefix(text, "TBNODENSE"):
		return fmt.Errorf("board: %s: %w", op, errDenseMissing)
	case strings.HasPrefix(text, "TBLOOKUP"):
		return fmt.Errorf("board: %s: %s: %w", op, b.label(), errLookupLost)
	}
	return nil
}

// entry builds an Entry from a stored score, member and rank.
func (b *Board) entry(score, member, rank string) (Entry, error) {
	id, vals, err := b.decode(score, member)
	if err != nil {
		return Entry{}, err
	}
	r, err := strconv.ParseInt(rank, 10, 64)
	if err != nil {
		return Entry{}, fmt.Errorf("board: rank %q: %w", rank, ErrReply)
	}
	return Entry{ID: id, Values: vals, Rank: r}, nil
}

// list runs the listing script that pick chooses in b's generation, and
// reads its reply with listing.
func (b *Board) list(ctx context.Context, op string, pick func(*scriptSet) *luascript.Script, args []string, c readConfig) (List, error) {
	return inGen(ctx, b, func(g *generation) (List, error) {
		return b.listing(op, b.conn.Run(ctx, pick(g.scripts), g.keys.script, args), c)
	})
}

// listing reads the reply of range.lua, around.lua, after.lua and
// between.lua: {total, first, comp, dense, member, score[, data, hasdata],
// ...}.
func (b *Board) listing(op string, r rdb.Result, c readConfig) (List, error) {
	strs, err := b.arrayReply(op, r)
	if err != nil {
		return List{}, err
	}
	if len(strs) == 0 {
		return List{}, errAbsent
	}
	step := 2
	if c.data {
		step = 4
	}
	if len(strs) < 5 || (len(strs)-5)%step != 0 {
		return List{}, fmt.Errorf("board: %s reply of %d elements: %w", op, len(strs), ErrReply)
	}
	total, err1 := strconv.ParseInt(strs[0], 10, 64)
	first, err2 := strconv.ParseInt(strs[1], 10, 64)
	comp, dense, err3 := parseRanks(strs[2], strs[3])
	if errors.Is(err3, errNoDense) {
		return List{}, err3
	}
	upto, err4 := parseRank(strs[4])
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return List{}, fmt.Errorf("board: %s reply header %q: %w", op, strs[:5], ErrReply)
	}
	l := List{Total: total, Entries: make([]Entry, 0, (len(strs)-5)/step)}
	vs := b.valuesOf((len(strs) - 5) / step)
	for i := 5; i < len(strs); i += step {
		s, err := strconv.ParseFloat(strs[i+1], 64)
		if err != nil {
			return List{}, fmt.Errorf("board: score %q: %w", strs[i+1], ErrReply)
		}
		id, vals, err := b.decodeInto(vs(len(l.Entries)), s, strs[i])
		if err != nil {
			return List{}, err
		}
		e := Entry{ID: id, Values: vals, Rank: first + int64(len(l.Entries))}
		if c.data && strs[i+3] == "1" {
			e.Data = []byte(strs[i+2])
		}
		l.Entries = append(l.Entries, e)
	}
	fillRanks(l.Entries, comp, dense, c)
	fillModified(l.Entries, upto, c)
	return l, nil
}

// fillModified gives the entries of a run in ordinal order, the last of
// which has the modified competition rank upto, theirs: an entry whose
// values equal the next one's shares its rank, any other has the ordinal
// rank of its run's last entry of its values.
func fillModified(es []Entry, upto int64, c readConfig) {
	if !c.mod {
		return
	}
	for i := len(es) - 1; i >= 0; i-- {
		if i < len(es)-1 && !slices.Equal(es[i+1].Values, es[i].Values) {
			upto = es[i].Rank
		}
		es[i].ModifiedCompetition = upto
	}
}

// fillRanks gives the entries of a run in ordinal order, whose first has
// the competition and dense ranks comp and dense, theirs: an entry whose
// values equal the previous one's shares its ranks, any other has the
// competition rank of its ordinal rank and the next dense rank.
func fillRanks(es []Entry, comp, dense int64, c readConfig) {
	for i := range es {
		if i > 0 && !slices.Equal(es[i-1].Values, es[i].Values) {
			comp, dense = es[i].Rank, dense+1
		}
		if c.comp {
			es[i].Competition = comp
		}
		if c.dense {
			es[i].Dense = dense
		}
	}
}

// spanMismatch is the error of op refused on a window stored with the
// span stored, not the handle's (ErrMismatch).
func (b *Board) spanMismatch(op, stored string) error {
	return fmt.Errorf("board: %s: window %s is stored as %s, this handle's as %s: two periods (another zone or alignment) give its label to other times; build every Periodic of one name with one period, or read the window with Open: %w",
		op, b.label(), windowspan.Text(stored), windowspan.Text(b.opts.span), ErrMismatch)
}

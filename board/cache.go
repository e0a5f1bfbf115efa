package board

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tiebreak/tiebreak/board/internal/rdb"
)

// A board with Options.KeepTop keeps its best entries in a key of their
// own (lua/keeptop.lua), rewritten by the writes that change them, and
// only by those. A handle with Options.CacheTop reads that key with
// rueidis's client-side caching: Redis tracks the key for the client's
// connection and tells the client when it changes (RESP3 client tracking),
// and rueidis drops its copy then, or when the connection closes (a
// restart, a failover); so a cached read never returns a list older than
// the last such message received, and a busy board's writes below its
// best entries never disturb the readers of them.

// cacheTTL is the longest a client keeps a board's best entries without
// a message from Redis: they stay exact by the messages; the limit only
// frees the memory of boards no longer read.
const cacheTTL = time.Hour

// topMemo is the last best-entries string a handle decoded, and its
// entries, which every cached read of that string returns: shared, and
// read-only by contract (Options.CacheTop).
type topMemo struct {
	key, raw string
	get      rdb.Cached // GET of key: built once per key
	entries  []Entry
}

// cachedPage is Top and Page of a handle with CacheTop, within the
// board's KeepTop, asking for nothing more. Its first step is the whole
// of a read of an unchanged key: one lookup in the client's memory, one
// comparison with the string decoded last, no copy; anything else (a
// changed key, an error to retry, a generation to read again) takes the
// second.
func (b *Board) cachedPage(ctx context.Context, offset int64, n int) (List, error) {
	g := b.gen.Load()
	if memo := b.topMemo.Load(); memo != nil && memo.key == g.keys.top {
		raw, err := b.conn.Peek(ctx, memo.get, cacheTTL).ToString()
		if err == nil && memo.raw == raw {
			return sharedPage(memo.entries, offset, n), nil
		}
	}
	if err := b.checkCaching(ctx); err != nil {
		return List{}, err
	}
	return inGen(ctx, b, func(g *generation) (List, error) {
		memo := b.topMemo.Load()
		var get rdb.Cached
		if memo != nil && memo.key == g.keys.top {
			get = memo.get
		} else {
			get = b.conn.Cached(g.keys.top)
		}
		raw, err := b.conn.Get(ctx, get, cacheTTL).ToString()
		if rdb.IsNil(err) {
			return b.buildTop(ctx, g, offset, n)
		}
		if err != nil {
			return List{}, redisErr("top", err)
		}
		if memo == nil || memo.key != g.keys.top || memo.raw != raw {
			es, err := b.decodeTop(raw)
			if err != nil {
				return List{}, err
			}
			memo = &topMemo{key: g.keys.top, raw: raw, get: get, entries: es}
			b.topMemo.Store(memo)
		}
		return sharedPage(memo.entries, offset, n), nil
	})
}

// checkCaching makes sure, once per handle, that the server runs the
// CLIENT CACHING YES that rueidis sends before each read it caches, and
// refuses the cached read when it does not: rueidis does not read that
// command's reply, so a refusal (an ACL without +client|caching: NOPERM)
// would leave the key untracked, and the cached list would never be
// dropped. The check sends CLIENT CACHING YES itself (one round trip, on
// the handle's first cached read): on a connection tracking in OPTIN mode
// it makes the next command tracked, which does no harm; in any other
// mode, or none, Redis refuses it as not applying (ERR), which passes.
func (b *Board) checkCaching(ctx context.Context) error {
	if b.cachingChecked.Load() {
		return nil
	}
	err := b.conn.Do(ctx, func(p *rdb.Pipe) { p.ClientCachingYes() }).Error()
	if text, ok := rdb.ErrorText(err); ok && !strings.HasPrefix(text, "NOPERM") {
		err = nil // not tracking in OPTIN mode: rueidis sends no CLIENT CACHING
	}
	if err != nil {
		return fmt.Errorf("board: %s: Options.CacheTop: CLIENT CACHING, which every cached read needs: %w", b.label(), redisErr("top", err))
	}
	b.cachingChecked.Store(true)
	return nil
}

// sharedPage returns entries [offset, offset+n) of es, sharing their
// memory (Total unknown, -1); its capacity ends with it, so an append
// copies.
func sharedPage(es []Entry, offset int64, n int) List {
	from := min(int(offset), len(es))
	to := min(from+n, len(es))
	return List{Entries: es[from:to:to], Total: -1}
}

// buildTop runs top.lua, which writes the best entries' key a cached read
// found missing, and returns the page from its reply.
func (b *Board) buildTop(ctx context.Context, g *generation, offset int64, n int) (List, error) {
	strs, err := b.arrayReply("top", b.conn.Run(ctx, g.scripts.top, g.keys.script, nil))
	if rdb.HasPrefix(err, "TBNOTOP") {
		return b.plainPage(ctx, offset, n)
	}
	if err != nil {
		return List{}, err
	}
	if len(strs)%2 != 0 {
		return List{}, fmt.Errorf("board: top reply of %d elements: %w", len(strs), ErrReply)
	}
	es := make([]Entry, 0, len(strs)/2)
	for i := 0; i < len(strs); i += 2 {
		e, err := b.entry(strs[i+1], strs[i], strconv.Itoa(i/2+1))
		if err != nil {
			return List{}, err
		}
		es = append(es, e)
	}
	return copyPage(es, offset, n), nil
}

// decodeTop decodes the best entries' key: per entry, best first,
// "<length of member>:<member> <score>\n".
func (b *Board) decodeTop(raw string) ([]Entry, error) {
	var es []Entry
	for rest := raw; rest != ""; {
		l, after, ok := strings.Cut(rest, ":")
		size, err := strconv.Atoi(l)
		if !ok || err != nil || size < 0 || size+1 > len(after) || after[size] != ' ' {
			return nil, fmt.Errorf("board: the best entries' key, at byte %d: %w", len(raw)-len(rest), ErrReply)
		}
		member := after[:size]
		score, next, ok := strings.Cut(after[size+1:], "\n")
		if !ok {
			return nil, fmt.Errorf("board: the best entries' key, at byte %d: %w", len(raw)-len(rest), ErrReply)
		}
		e, err := b.entry(score, member, strconv.Itoa(len(es)+1))
		if err != nil {
			return nil, err
		}
		es, rest = append(es, e), next
	}
	return es, nil
}

// copyPage returns entries [offset, offset+n) of es as a List of its own
// (Total unknown, -1), sharing no memory with es: the caller may change
// it.
func copyPage(es []Entry, offset int64, n int) List {
	from := min(int(offset), len(es))
	to := min(from+n, len(es))
	out := make([]Entry, to-from)
	width := 0
	if to > from {
		width = len(es[from].Values)
	}
	vals := make([]float64, 0, (to-from)*width)
	for i, e := range es[from:to] {
		if e.Values != nil {
			vals = append(vals, e.Values...)
			e.Values = vals[len(vals)-len(e.Values) : len(vals) : len(vals)]
		}
		out[i] = e
	}
	return List{Entries: out, Total: -1}
}

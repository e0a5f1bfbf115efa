package board

import (
	"context"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisretry"
)

// The client's twin of lua/lookup.lua's get: a read of a key-suffix board
// whose members have a prefix finds an id's member with one HGET of its
// bucket, and then reads the sorted set with the bare commands, as a
// packed board's reads do. Redis spends less on the two commands than on
// a script that makes both once many callers share a connection.
//
// The two are not one snapshot, and need not be: a member holds its id,
// and every write changes an id's member and its lookup record together,
// so a member that the sorted set holds is its id's entry at that moment.
// A read that finds the member gone (the id written, removed or hidden
// since) reads again with its script, which finds and reads in one.

// buckets is the number of buckets of a generation's lookup as last read
// (0: not read yet). It only grows while the lookup lives; a bucket
// chosen by a smaller count than Redis holds may have lost the id to a
// split, and the id's record is then looked for again with the count read
// afresh.
type buckets struct{ n atomic.Int64 }

// lookupMember is the member of id in g's lookup: ok false when no
// record of id is there (an id not on the board, or a lookup just
// emptied and made again: the caller reads with a script).
func (b *Board) lookupMember(ctx context.Context, g *generation, id string) (member string, ok bool, err error) {
	n := g.buckets.n.Load()
	fresh := n == 0
	if fresh {
		if n, err = b.bucketCount(ctx, g); err != nil {
			return "", false, err
		}
	}
	h, pat := recordOf(id)
	for {
		field := strconv.FormatInt(bucketFor(h, n), 10)
		s, err := redisretry.DoBuilt(ctx, b.client, func() rueidis.Completed {
			return b.client.B().Hget().Key(g.keys.lk).Field(field).Build()
		}).ToString()
		if err != nil && !rueidis.IsRedisNil(err) {
			return "", false, redisErr("lookup", err)
		}
		if prefix, ok := findRecord(s, pat, b.width); ok {
			return prefix + id, true, nil
		}
		if fresh {
			return "", false, nil
		}
		was := n
		if n, err = b.bucketCount(ctx, g); err != nil || n == was {
			return "", false, err
		}
		fresh = true
	}
}

// bucketCount reads the number of buckets of g's lookup (field 'n',
// absent: 1) and keeps it.
func (b *Board) bucketCount(ctx context.Context, g *generation) (int64, error) {
	s, err := redisretry.DoBuilt(ctx, b.client, func() rueidis.Completed {
		return b.client.B().Hget().Key(g.keys.lk).Field("n").Build()
	}).ToString()
	if rueidis.IsRedisNil(err) {
		s, err = "1", nil
	}
	if err != nil {
		return 0, redisErr("lookup", err)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("board: lookup: bucket count %q: %w", s, ErrReply)
	}
	g.buckets.n.Store(n)
	return n, nil
}

// recordOf is what finds id in the lookup: h, the first 32 bits of its
// SHA1, and the start of its record, "\x00\x03", h as 8 lowercase hex
// digits, then the id with each zero byte written "\x00\x01".
func recordOf(id string) (h int64, pat string) {
	sum := sha1.Sum([]byte(id))
	var b strings.Builder
	b.Grow(10 + len(id))
	b.WriteString("\x00\x03")
	const hexd = "0123456789abcdef"
	for _, c := range sum[:4] {
		b.WriteByte(hexd[c>>4])
		b.WriteByte(hexd[c&15])
	}
	b.WriteString(strings.ReplaceAll(id, "\x00", "\x00\x01"))
	return int64(binary.BigEndian.Uint32(sum[:4])), b.String()
}

// bucketFor is the bucket of hash h in a lookup of n buckets (linear
// hashing, as lookup.lua): h mod 2^(L+1) where 2^L <= n < 2^(L+1), or
// h mod 2^L when that is n or more.
func bucketFor(h, n int64) int64 {
	lo := int64(1) << (bits.Len64(uint64(n)) - 1)
	if b := h % (2 * lo); b < n {
		return b
	}
	return h % lo
}

// findRecord finds the record that starts with p (recordOf) in bucket s:
// p, then the member's prefix of width digits, followed by the next
// record or the bucket's end. It returns the prefix.
func findRecord(s, p string, width int) (string, bool) {
	for from := 0; ; {
		i := strings.Index(s[from:], p)
		if i < 0 {
			return "", false
		}
		end := from + i + len(p) + width
		if end == len(s) || (end < len(s) && strings.HasPrefix(s[end:], "\x00\x03")) {
			return s[end-width : end], true
		}
		from += i + 1
	}
}

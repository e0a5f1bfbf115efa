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

	"github.com/tiebreak/tiebreak/board/internal/rdb"
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
// afresh (lookupMember).
type buckets struct{ n atomic.Int64 }

// lookupMember is the member of id in g's lookup: ok false when the
// lookup holds no record of id, which is then not on the board (hidden
// ones included). With the count of buckets kept, one HGET of id's bucket
// finds a record there in one round trip. Otherwise (no count kept yet,
// or no record in the bucket it gives) one HMGET reads id's bucket and the
// count at one moment: when the count is the one the bucket was chosen by,
// the answer is that moment's; when not (the lookup split, or was emptied
// and grew again), it keeps the count and reads again. So an id not on
// the board costs two round trips and no script.
func (b *Board) lookupMember(ctx context.Context, g *generation, id string) (member string, ok bool, err error) {
	h, pat := recordOf(id)
	n := g.buckets.n.Load()
	if n > 0 {
		field := strconv.FormatInt(bucketFor(h, n), 10)
		s, err := b.conn.HGet(ctx, g.keys.lk, field).ToString()
		if err != nil && !rdb.IsNil(err) {
			return "", false, redisErr("lookup", err)
		}
		if prefix, ok := findRecord(s, pat, b.width); ok {
			return prefix + id, true, nil
		}
	}
	for range lookupReads {
		n = max(n, 1)
		field := strconv.FormatInt(bucketFor(h, n), 10)
		vs, err := b.conn.HMGet(ctx, g.keys.lk, field, "n").ToArray()
		if err != nil {
			return "", false, redisErr("lookup", err)
		}
		if len(vs) != 2 {
			return "", false, fmt.Errorf("board: lookup: HMGET reply of %d elements: %w", len(vs), ErrReply)
		}
		now, err := bucketsIn(vs[1])
		if err != nil {
			return "", false, err
		}
		g.buckets.n.Store(now)
		if now == n {
			if now == 1 && vs[0].IsNil() {
				// An empty lookup: the board is empty, or its lookup lost
				// its ids (lookup.lua's get); the script tells which in
				// one snapshot.
				return "", false, errScript
			}
			s, _ := vs[0].ToString() // nil: an empty bucket
			prefix, ok := findRecord(s, pat, b.width)
			return prefix + id, ok, nil
		}
		n = now
	}
	return "", false, errScript // the lookup kept changing: the script decides
}

// lookupReads bounds the HMGETs of one lookup whose count keeps changing.
const lookupReads = 4

// bucketsIn reads the count of buckets of a lookup from its field 'n'
// (nil: 1, a lookup without splits or none at all).
func bucketsIn(m rdb.Reply) (int64, error) {
	if m.IsNil() {
		return 1, nil
	}
	s, err := m.ToString()
	if err != nil {
		return 0, fmt.Errorf("board: lookup: bucket count: %v: %w", err, ErrReply)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("board: lookup: bucket count %q: %w", s, ErrReply)
	}
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

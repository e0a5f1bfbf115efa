package board

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lookupIDs reads a key-suffix board's id lookup, the buckets of
// lookup.lua (each record "\x00\x03", the id's hash in 8 hex digits, the
// id with zero bytes written "\x00\x01", the prefix), as a map id ->
// member. It fails the test on a malformed bucket, a record whose hash is
// not its id's, an id in a bucket linear hashing does not give it, or an
// id stored twice.
func lookupIDs(t testing.TB, b *Board) map[string]string {
	t.Helper()
	k := b.gen.Load().keys
	h, err := b.rc().Do(t.Context(), b.rc().B().Hgetall().Key(k.lk).Build()).AsStrMap()
	if err != nil {
		t.Fatalf("HGETALL %s: %v", k.lk, err)
	}
	out := map[string]string{}
	n := 1
	if s, ok := h["n"]; ok {
		if n, err = strconv.Atoi(s); err != nil || n < 2 {
			t.Fatalf("lookup %s: n = %q", k.lk, s)
		}
		delete(h, "n")
	}
	for field, s := range h {
		if i, err := strconv.Atoi(field); err != nil || i < 0 || i >= n || s == "" {
			t.Fatalf("lookup %s: bucket %q of %d buckets holds %q", k.lk, field, n, s)
		}
		if !strings.HasPrefix(s, "\x00\x03") {
			t.Fatalf("lookup %s: bucket %s does not start a record: %q", k.lk, field, s)
		}
		for _, rec := range strings.Split(s, "\x00\x03")[1:] {
			if len(rec) < 8+b.width {
				t.Fatalf("lookup %s: bucket %s: record %q shorter than a hash and a prefix", k.lk, field, rec)
			}
			id := strings.ReplaceAll(rec[8:len(rec)-b.width], "\x00\x01", "\x00")
			sum := sha1.Sum([]byte(id))
			if want := hex.EncodeToString(sum[:4]); rec[:8] != want {
				t.Fatalf("lookup %s: bucket %s: id %q with hash %q, want %q", k.lk, field, id, rec[:8], want)
			}
			if want := lookupBucket(binary.BigEndian.Uint32(sum[:4]), n); strconv.Itoa(want) != field {
				t.Fatalf("lookup %s: id %q in bucket %s of %d, want %d", k.lk, id, field, n, want)
			}
			if _, dup := out[id]; dup {
				t.Fatalf("lookup %s: id %q stored twice", k.lk, id)
			}
			out[id] = rec[len(rec)-b.width:] + id
		}
	}
	return out
}

// lookupBucket is the bucket of an id of hash h among n buckets (linear
// hashing, lookup.lua): h mod 2^(L+1), or h mod 2^L when that is n or
// more, where 2^L <= n < 2^(L+1).
func lookupBucket(h uint32, n int) int {
	lo := 1 << (bits.Len(uint(n)) - 1)
	b := int(uint64(h) % uint64(2*lo))
	if b >= n {
		b = int(uint64(h) % uint64(lo))
	}
	return b
}

// checkLookup checks that a key-suffix board's id lookup holds exactly its
// entries: each id on the board (hidden or not) with its current member,
// and nothing else; and that a board without one (packed, or key suffix of
// one field) has no lookup HASH.
func checkLookup(t testing.TB, b *Board) {
	t.Helper()
	if !b.lookup() {
		i := b.gen.Load().keys.i
		if n, err := b.rc().Do(t.Context(), b.rc().B().Exists().Key(i).Build()).AsInt64(); err != nil || n != 0 {
			t.Fatalf("EXISTS %s = %d, %v: want no lookup HASH on a board without one", i, n, err)
		}
		return
	}
	members, err := b.rc().Do(t.Context(), b.rc().B().Zrange().Key(b.gen.Load().keys.z).Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := b.rc().Do(t.Context(), b.rc().B().Zrange().Key(b.gen.Load().keys.h).Min("0").Max("-1").Build()).AsStrSlice()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, m := range append(members, hidden...) { // hidden entries keep their lookup
		want[m[b.width:]] = m
	}
	if diff := cmp.Diff(want, lookupIDs(t, b)); diff != "" {
		t.Fatalf("id lookup against the entries (-want +got):\n%s", diff)
	}
}

// A handle keeps the number of buckets of the id lookup it last read. When
// another handle's writes split the buckets, an id may have moved out of
// the bucket that count gives: the read finds no record there, reads the
// count afresh and looks again, and so still answers with the bare
// commands, no script.
func TestLookupCountGrowsUnderAHandle(t *testing.T) {
	_, client := privateServer(t)
	ctx := t.Context()
	l := testLayout(t)
	reader, err := New(ctx, client, "grows", l, Options{Strategy: KeySuffix})
	if err != nil {
		t.Fatal(err)
	}
	writer, err := New(ctx, client, "grows", l, Options{Strategy: KeySuffix})
	if err != nil {
		t.Fatal(err)
	}
	ids := manyIDs(400)
	mustSubmit(t, writer, Submission{ID: ids[0], Values: []float64{1, 1, 1}})
	if _, err := reader.Get(ctx, ids[0]); err != nil { // the reader keeps 1 bucket
		t.Fatal(err)
	}
	for i, id := range ids[1:] {
		mustSubmit(t, writer, Submission{ID: id, Values: []float64{float64(i % 1000), 0, 1}})
	}
	if n := reader.gen.Load().buckets.n.Load(); n != 1 {
		t.Fatalf("the reader keeps %d buckets, want 1 (read before the splits)", n)
	}
	moved := 0
	for _, id := range ids {
		h, _ := recordOf(id)
		if bucketFor(h, 1) != bucketFor(h, lookupCount(t, writer)) {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no id moved out of bucket 0: the test proves nothing")
	}
	got := commandsOf(t, client, func() error {
		for _, id := range ids {
			e, err := reader.Get(ctx, id)
			if err != nil {
				return err
			}
			if e.ID != id {
				return fmt.Errorf("Get(%q) = %+v", id, e)
			}
		}
		return nil
	})
	if got["evalsha_ro"] != "" || got["evalsha"] != "" {
		t.Errorf("Get of %d ids (%d moved by splits) ran scripts: %v", len(ids), moved, got)
	}
	// Emptied, the lookup goes (its count with it) and grows again,
	// smaller than the count the reader keeps: each id it holds is still
	// found, each other one is absent.
	if err := writer.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[:100] {
		mustSubmit(t, writer, Submission{ID: id, Values: []float64{7, 1, 2}})
	}
	if kept, now := reader.gen.Load().buckets.n.Load(), lookupCount(t, writer); kept <= now {
		t.Fatalf("the reader keeps %d buckets, the lookup has %d: want more kept", kept, now)
	}
	for i, id := range ids {
		e, err := reader.Get(ctx, id)
		switch {
		case i < 100 && (err != nil || e.ID != id || e.Values[0] != 7):
			t.Fatalf("Get(%q) after the lookup grew again = %+v, %v", id, e, err)
		case i >= 100 && !errors.Is(err, ErrNotFound):
			t.Fatalf("Get(%q) of an id cleared = %+v, %v; want ErrNotFound", id, e, err)
		}
	}
}

// lookupCount is the number of buckets of b's id lookup.
func lookupCount(t *testing.T, b *Board) int64 {
	n, err := b.rc().Do(t.Context(), b.rc().B().Hget().Key(b.gen.Load().keys.lk).Field("n").Build()).AsInt64()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

package decimalmap

import (
	"fmt"

	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/hashtag"
	"github.com/tiebreak/tiebreak/pack"
)

// MaxNameLen is the longest map name, in bytes.
const MaxNameLen = 200

// keys are a map's Redis keys, all sharing the hash tag {name} so that every
// script runs on one Redis Cluster slot, and every script declares them
// both in KEYS:
//
//	dm:{name}:k  sorted set, every score 0, member enc(key): the keys
//	dm:{name}:e  sorted set, every score 0, member enc(key) seq value:
//	             the entries, one per value
type keys struct {
	index   string
	entries string
}

func makeKeys(name string) keys {
	p := "dm:{" + name + "}:"
	return keys{index: p + "k", entries: p + "e"}
}

// all returns the keys as a script's KEYS.
func (k keys) all() []string { return []string{k.index, k.entries} }

// seqLen is the length of an entry's sequence number: 16 decimal digits,
// the place of the value in its key's insertion order.
const seqLen = 16

// entriesOf returns the ZRANGE BYLEX bounds of the entries of the key
// encoded enc: from enc itself to enc followed by byte 0xff, above every
// entry of enc (encodings are printable ASCII and none is a prefix of
// another).
func entriesOf(enc string) (from, to string) { return "[" + enc, "(" + enc + "\xff" }

func checkName(name string) error {
	return hashtag.Check(name, MaxNameLen, "decimalmap: name", ErrName)
}

// encode returns the order-preserving encoding of key (pack.EncodeDecimal).
// It refuses a key longer than MaxKeyLen and anything pack refuses, with
// errors wrapping ErrKey and the pack sentinel; what names the argument in
// the message, call first ("add: key", "range: Query.Min").
func (m *Map) encode(what, key string) (string, error) {
	return m.encodeAs(what, key, ErrKey, m.opts.MaxKeyLen)
}

// encodeAs is encode with the sentinel the errors wrap and the longest
// key taken: Options.MaxKeyLen, or MaxKeyLenLimit for a Scan's cursor,
// which names a key the map gave (stored by a handle of any MaxKeyLen).
func (m *Map) encodeAs(what, key string, sentinel error, maxLen int) (string, error) {
	if len(key) > maxLen {
		limit := "Options.MaxKeyLen"
		if maxLen != m.opts.MaxKeyLen {
			limit = "MaxKeyLenLimit"
		}
		return "", fmt.Errorf("decimalmap: %s of %d bytes out of range [1, %d] (%s): %w",
			what, len(key), maxLen, limit, sentinel)
	}
	enc, err := pack.EncodeDecimal(key)
	if err != nil {
		return "", fmt.Errorf("decimalmap: %s: %w: %w", what, sentinel, err)
	}
	return enc, nil
}

// checkCanonical refuses (ErrKey) to store key, encoded enc, when its
// canonical text, by which reads return it and a Scan's cursor names it,
// is longer than MaxKeyLen ("1e20" is 21 bytes): such a key could be
// written but not read back by its canonical text nor scanned past.
func (m *Map) checkCanonical(key, enc string) error {
	canon, err := decode(enc)
	if err != nil {
		return err
	}
	if len(canon) > m.opts.MaxKeyLen {
		return fmt.Errorf("decimalmap: add: key %s: its canonical text is %d bytes, over Options.MaxKeyLen = %d (reads and Scan's cursors give a key so): %w",
			clip.Quote(key), len(canon), m.opts.MaxKeyLen, ErrKey)
	}
	return nil
}

// decode returns the canonical text of an index member, refusing anything
// that is not exactly one encoding.
func decode(member string) (string, error) {
	key, n, err := pack.DecodeDecimal(member)
	if err != nil || n != len(member) {
		return "", fmt.Errorf("decimalmap: index member %s is not a decimal encoding: %w", clip.Quote(member), ErrReply)
	}
	return key, nil
}

// valueOf returns the value of an entry of the key encoded enc.
func valueOf(entry, enc string) (string, error) {
	if len(entry) < len(enc)+seqLen || entry[:len(enc)] != enc {
		return "", fmt.Errorf("decimalmap: entry %s is not of key encoding %s: %w", clip.Quote(entry), clip.Quote(enc), ErrReply)
	}
	return entry[len(enc)+seqLen:], nil
}

// splitEntry returns the encoding of an entry's key and its value; prev,
// the encoding of the entry before it, spares decoding when it is the
// same key's.
func splitEntry(entry, prev string) (enc, value string, err error) {
	if prev != "" && len(entry) >= len(prev)+seqLen && entry[:len(prev)] == prev {
		return prev, entry[len(prev)+seqLen:], nil
	}
	_, n, err := pack.DecodeDecimal(entry)
	if err != nil || len(entry) < n+seqLen {
		return "", "", fmt.Errorf("decimalmap: entry %s does not start with a decimal encoding and a sequence number: %w", clip.Quote(entry), ErrReply)
	}
	return entry[:n], entry[n+seqLen:], nil
}

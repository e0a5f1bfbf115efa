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
// script runs on one Redis Cluster slot:
//
//	dm:{name}:i           sorted set: score 0, member enc(key)
//	dm:{name}:l:enc(key)  list: the key's values in insertion order
type keys struct {
	index string
	list  string // prefix of list names: list + enc(key)
}

func makeKeys(name string) keys {
	p := "dm:{" + name + "}:"
	return keys{index: p + "i", list: p + "l:"}
}

func checkName(name string) error {
	return hashtag.Check(name, MaxNameLen, "decimalmap: name", ErrName)
}

// encode returns the order-preserving encoding of key (pack.EncodeDecimal).
// It refuses a key longer than MaxKeyLen and anything pack refuses, with
// errors wrapping ErrKey and the pack sentinel; what names the argument in
// the message, call first ("add: key", "range: Query.Min").
func (m *Map) encode(what, key string) (string, error) {
	return m.encodeAs(what, key, ErrKey)
}

// encodeAs is encode with the sentinel the errors wrap.
func (m *Map) encodeAs(what, key string, sentinel error) (string, error) {
	if len(key) > m.opts.MaxKeyLen {
		return "", fmt.Errorf("decimalmap: %s of %d bytes out of range [1, %d] (Options.MaxKeyLen): %w",
			what, len(key), m.opts.MaxKeyLen, sentinel)
	}
	enc, err := pack.EncodeDecimal(key)
	if err != nil {
		return "", fmt.Errorf("decimalmap: %s: %w: %w", what, sentinel, err)
	}
	return enc, nil
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

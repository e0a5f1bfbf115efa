package board

import (
	"fmt"
	"strings"
)

// MaxNameLen is the longest board name, in bytes.
const MaxNameLen = 200

// keys are a board's Redis keys, all sharing the hash tag {name} so every
// script runs on one Redis Cluster slot:
//
//	tb:{name}:z  sorted set of entries
//	tb:{name}:m  HASH id -> member (key-suffix strategy)
//	tb:{name}:d  HASH id -> member data
//	tb:{name}:v  sorted set of distinct value tuples (dense ranks)
//	tb:{name}:c  HASH tuple -> entries holding it (dense ranks)
type keys [5]string

func makeKeys(name string) keys {
	p := "tb:{" + name + "}:"
	return keys{p + "z", p + "m", p + "d", p + "v", p + "c"}
}

func checkName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("board: empty name: %w", ErrName)
	case len(name) > MaxNameLen:
		return fmt.Errorf("board: name of %d bytes, over %d: %w", len(name), MaxNameLen, ErrName)
	case strings.ContainsAny(name, "{}"):
		return fmt.Errorf("board: name %q holds a brace: %w", name, ErrName)
	}
	return nil
}

package decimalmap

import "fmt"

// DefaultMaxKeyLen is the default limit on a key's text, in bytes.
const DefaultMaxKeyLen = 4096

// MaxKeyLenLimit is the largest Options.MaxKeyLen accepted: 1 MiB.
const MaxKeyLenLimit = 1 << 20

// Options configure a map. The zero value means every default.
type Options struct {
	// MaxKeyLen is the longest key text accepted, in bytes, so that keys
	// from untrusted input cannot grow Redis key names without bound. The
	// number of digits of a key is otherwise not limited. Default
	// DefaultMaxKeyLen (4096); at most MaxKeyLenLimit; negative is refused.
	MaxKeyLen int
}

func (o Options) withDefaults() (Options, error) {
	if o.MaxKeyLen == 0 {
		o.MaxKeyLen = DefaultMaxKeyLen
	}
	if o.MaxKeyLen < 0 || o.MaxKeyLen > MaxKeyLenLimit {
		return o, fmt.Errorf("decimalmap: Options.MaxKeyLen = %d out of range [1, %d] (0 for %d): %w",
			o.MaxKeyLen, MaxKeyLenLimit, DefaultMaxKeyLen, ErrOptions)
	}
	return o, nil
}

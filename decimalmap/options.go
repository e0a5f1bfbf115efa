package decimalmap

import "fmt"

// DefaultMaxKeyLen is the default limit on a key's text, in bytes:
// MaxKeyLenLimit.
const DefaultMaxKeyLen = MaxKeyLenLimit

// MaxKeyLenLimit is the largest Options.MaxKeyLen accepted: 256 bytes, a
// decimal of about 250 digits. Every value of a key stores its encoding,
// so the key's length counts once per value.
const MaxKeyLenLimit = 256

// Options configure a map. The zero value means every default.
type Options struct {
	// MaxKeyLen is the longest key text accepted, in bytes, so that keys
	// from untrusted input cannot grow Redis key names without bound. The
	// number of digits of a key is otherwise not limited. Default
	// DefaultMaxKeyLen (256); at most MaxKeyLenLimit; negative is refused.
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

package decimalmap

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/clip"
	"github.com/tiebreak/tiebreak/internal/durable"
	"github.com/tiebreak/tiebreak/internal/errs"
	"github.com/tiebreak/tiebreak/internal/observed"
	"github.com/tiebreak/tiebreak/internal/redisretry"
	"github.com/tiebreak/tiebreak/observe"
)

// Map is a sorted multimap in Redis: exact decimal keys, kept in numeric
// order, each mapped to a list of strings in insertion order.
//
// A Map holds no state beyond its configuration and is safe for concurrent
// use. One not made by New (a zero Map, or nil) refuses every call
// (ErrArgument).
type Map struct {
	client rueidis.Client
	name   string
	opts   Options
	keys   keys
}

// New returns the map named name on client. It refuses (ErrName) an empty
// name, one over MaxNameLen bytes or one holding a brace, and (ErrOptions)
// a nil client and invalid options. New does not talk to Redis: a map
// exists once a key is added to it.
func New(client rueidis.Client, name string, opts Options) (*Map, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if client == nil {
		return nil, fmt.Errorf("decimalmap: new: client is nil: %w", ErrOptions)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Map{client: redisretry.Wrap(client), name: name, opts: o, keys: makeKeys(name)}, nil
}

// Name returns the map's name.
func (m *Map) Name() string {
	if m == nil {
		return ""
	}
	return m.name
}

// unmade refuses a Map not made by New (ErrArgument).
func (m *Map) unmade() error {
	if m == nil || m.client == nil {
		return fmt.Errorf("decimalmap: a Map not made by New (a zero value or nil): %w", ErrArgument)
	}
	return nil
}

// usable is unmade for a call given ctx, refusing a nil ctx too
// (ErrArgument): rueidis would panic on it or wait forever.
func (m *Map) usable(ctx context.Context) error {
	if err := m.unmade(); err != nil {
		return err
	}
	return errs.NilContext("decimalmap", ctx)
}

// Add appends values, in order, to the list of key, adding key to the map
// if it is new, in one atomic script; repeated values are kept. It returns
// the number of values key holds afterwards. Keys equal in value are the
// same key: "25500.1", "25500.10" and "2.55001E4" share one list.
//
// It refuses, writing nothing: a malformed key (ErrKey, see the package
// documentation), no values or more than MaxAddValues, a value over
// MaxValueLen bytes, and values that would take key past MaxValues
// (ErrArgument).
func (m *Map) Add(ctx context.Context, key string, values ...string) (int64, error) {
	if err := m.usable(ctx); err != nil {
		return 0, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Add", len(values)), errKinds, func(ctx context.Context) (int64, error) { return m.add(ctx, key, values) }, observed.Count[int64])
	}
	return m.add(ctx, key, values)
}

// add is Add.
func (m *Map) add(ctx context.Context, key string, values []string) (int64, error) {
	enc, err := m.encode("add: key", key)
	if err != nil {
		return 0, err
	}
	if err := m.checkCanonical(key, enc); err != nil {
		return 0, err
	}
	if err := checkValues(key, values); err != nil {
		return 0, err
	}
	args := make([]string, 0, len(values)+2)
	args = append(append(args, enc, maxValuesArg), values...)
	return m.write(ctx, "add", func(c rueidis.Client) (int64, error) {
		n, err := addScript.Exec(ctx, c, m.keys.all(), args).AsInt64()
		if err == nil && n < 0 {
			return 0, fmt.Errorf("decimalmap: add: key %s holds %d values: %d more would take it past MaxValues = %d: %w",
				clip.Quote(key), -1-n, len(values), MaxValues, ErrArgument)
		}
		return n, redisErr("add", err)
	})
}

// write runs one write call, op, on c: the map's client, or one that waits
// for replicas after each command (Options.WaitReplicas).
func (m *Map) write(ctx context.Context, op string, call func(c rueidis.Client) (int64, error)) (int64, error) {
	return durable.Write(ctx, m.client, m.opts.wait(), "decimalmap: "+op, call)
}

// maxValuesArg and maxCallValuesArg are the bounds as script arguments.
var (
	maxValuesArg     = strconv.Itoa(MaxValues)
	maxCallValuesArg = strconv.Itoa(MaxCallValues)
)

// checkValues refuses (ErrArgument) no values, more than MaxAddValues and
// a value over MaxValueLen bytes; key names the call's key.
func checkValues(key string, values []string) error {
	if len(values) == 0 || len(values) > MaxAddValues {
		return fmt.Errorf("decimalmap: add: key %s: len(values) = %d out of range [1, %d]: %w",
			clip.Quote(key), len(values), MaxAddValues, ErrArgument)
	}
	for i, v := range values {
		if len(v) > MaxValueLen {
			return fmt.Errorf("decimalmap: add: key %s: values[%d] of %d bytes, over MaxValueLen = %d: %w",
				clip.Quote(key), i, len(v), MaxValueLen, ErrArgument)
		}
	}
	return nil
}

// Get returns the values of key in insertion order, or an empty list when
// key is not in the map, in one command (ZRANGE BYLEX). It refuses a
// malformed key (ErrKey).
func (m *Map) Get(ctx context.Context, key string) ([]string, error) {
	if err := m.usable(ctx); err != nil {
		return nil, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Get", 0), errKinds, func(ctx context.Context) ([]string, error) { return m.get(ctx, key) }, func(vs []string, o observe.Outcome) observe.Outcome { return observed.Count(len(vs), o) })
	}
	return m.get(ctx, key)
}

// get is Get.
func (m *Map) get(ctx context.Context, key string) ([]string, error) {
	enc, err := m.encode("get: key", key)
	if err != nil {
		return nil, err
	}
	from, to := entriesOf(enc)
	entries, err := m.client.Do(ctx, m.client.B().Zrange().Key(m.keys.entries).Min(from).Max(to).Bylex().Build()).AsStrSlice()
	if err != nil {
		return nil, redisErr("get", err)
	}
	vals := make([]string, len(entries))
	for i, e := range entries {
		if vals[i], err = valueOf(e, enc); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// MaxRemove is the most keys one Remove takes.
const MaxRemove = 1000

// Remove removes keys, each with all its values, in one atomic script, and
// returns how many of them were in the map; spellings of one number count
// once ("1.5", "1.50"). It refuses no keys, more than MaxRemove, and keys
// holding more than MaxCallValues values in all (ErrArgument), and a
// malformed key (ErrKey), removing nothing.
func (m *Map) Remove(ctx context.Context, keys ...string) (int64, error) {
	if err := m.usable(ctx); err != nil {
		return 0, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Remove", len(keys)), errKinds, func(ctx context.Context) (int64, error) { return m.remove(ctx, keys) }, observed.Count[int64])
	}
	return m.remove(ctx, keys)
}

// remove is Remove.
func (m *Map) remove(ctx context.Context, keys []string) (int64, error) {
	if len(keys) == 0 || len(keys) > MaxRemove {
		return 0, fmt.Errorf("decimalmap: remove: len(keys) = %d out of range [1, %d]: %w", len(keys), MaxRemove, ErrArgument)
	}
	encs := make([]string, 0, len(keys))
	for i, key := range keys {
		enc, err := m.encode(fmt.Sprintf("remove: keys[%d]", i), key)
		if err != nil {
			return 0, err
		}
		encs = append(encs, enc)
	}
	return m.write(ctx, "remove", func(c rueidis.Client) (int64, error) {
		n, err := removeScript.Exec(ctx, c, m.keys.all(), append([]string{maxCallValuesArg}, encs...)).AsInt64()
		if err == nil && n < 0 {
			return 0, fmt.Errorf("decimalmap: remove: the %d keys hold %d values, over MaxCallValues = %d: remove fewer at once: %w",
				len(keys), -1-n, MaxCallValues, ErrArgument)
		}
		return n, redisErr("remove", err)
	})
}

// RemoveValue removes the first occurrence of value from the list of key
// (later repeats stay), and key itself when that was its last value, in one
// atomic script. It reports whether value was there. It refuses a malformed
// key (ErrKey) and a value over MaxValueLen bytes (ErrArgument), which no
// key holds.
func (m *Map) RemoveValue(ctx context.Context, key, value string) (bool, error) {
	if err := m.usable(ctx); err != nil {
		return false, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("RemoveValue", 0), errKinds, func(ctx context.Context) (bool, error) { return m.removeValue(ctx, key, value) }, func(found bool, o observe.Outcome) observe.Outcome {
			o.Changed, o.Has = found, o.Has|observe.HasChanged
			return o
		})
	}
	return m.removeValue(ctx, key, value)
}

// removeValue is RemoveValue.
func (m *Map) removeValue(ctx context.Context, key, value string) (bool, error) {
	enc, err := m.encode("remove value: key", key)
	if err != nil {
		return false, err
	}
	if len(value) > MaxValueLen {
		return false, fmt.Errorf("decimalmap: remove value: key %s: value of %d bytes, over MaxValueLen = %d: %w",
			clip.Quote(key), len(value), MaxValueLen, ErrArgument)
	}
	n, err := m.write(ctx, "remove value", func(c rueidis.Client) (int64, error) {
		n, err := removeValueScript.Exec(ctx, c, m.keys.all(), []string{enc, value}).AsInt64()
		return n, redisErr("remove value", err)
	})
	return n == 1, err
}

// Len returns the number of keys in the map.
func (m *Map) Len(ctx context.Context) (int64, error) {
	if err := m.usable(ctx); err != nil {
		return 0, err
	}
	if m.opts.Observer != nil {
		return observed.Call(ctx, m.opts.Observer, m.op("Len", 0), errKinds, func(ctx context.Context) (int64, error) { return m.length(ctx) }, observed.Count[int64])
	}
	return m.length(ctx)
}

// length is Len.
func (m *Map) length(ctx context.Context) (int64, error) {
	n, err := m.client.Do(ctx, m.client.B().Zcard().Key(m.keys.index).Build()).AsInt64()
	return n, redisErr("len", err)
}

// Drop removes the whole map, every key with its values, in one UNLINK of
// its two Redis keys: atomic, and Redis frees the memory in the
// background, so even a large map never blocks it. Dropping a map that
// does not exist does nothing.
func (m *Map) Drop(ctx context.Context) error {
	if err := m.usable(ctx); err != nil {
		return err
	}
	if m.opts.Observer != nil {
		return observed.Do(ctx, m.opts.Observer, m.op("Drop", 0), errKinds, func(ctx context.Context) error { return m.drop(ctx) })
	}
	return m.drop(ctx)
}

// drop is Drop.
func (m *Map) drop(ctx context.Context) error {
	_, err := m.write(ctx, "drop", func(c rueidis.Client) (int64, error) {
		return 0, redisErr("drop", c.Do(ctx, c.B().Unlink().Key(m.keys.all()...).Build()).Error())
	})
	return err
}

func redisErr(op string, err error) error {
	return errs.FromRedis("decimalmap: "+op, err)
}

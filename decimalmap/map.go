package decimalmap

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"
)

// Map is a sorted multimap in Redis: exact decimal keys, kept in numeric
// order, each mapped to a list of strings in insertion order.
//
// A Map holds no state beyond its configuration and is safe for concurrent
// use.
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
		return nil, fmt.Errorf("decimalmap: nil client: %w", ErrOptions)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Map{client: client, name: name, opts: o, keys: makeKeys(name)}, nil
}

// Name returns the map's name.
func (m *Map) Name() string { return m.name }

// Add appends values, in order, to the list of key, adding key to the map
// if it is new, in one atomic script; repeated values are kept. It returns
// the number of values key holds afterwards. Keys equal in value are the
// same key: "25500.1", "25500.10" and "2.55001E4" share one list.
//
// It refuses a malformed key (ErrKey, see the package documentation) and no
// values (ErrArgument), writing nothing.
func (m *Map) Add(ctx context.Context, key string, values ...string) (int64, error) {
	enc, err := m.encode(key)
	if err != nil {
		return 0, err
	}
	if len(values) == 0 {
		return 0, fmt.Errorf("decimalmap: add to %q: no values: %w", clip(key), ErrArgument)
	}
	args := make([]string, 0, len(values)+1)
	args = append(append(args, enc), values...)
	n, err := addScript.Exec(ctx, m.client, []string{m.keys.index, m.keys.list + enc}, args).AsInt64()
	return n, redisErr("add", err)
}

// Get returns the values of key in insertion order, or an empty list when
// key is not in the map. It refuses a malformed key (ErrKey).
func (m *Map) Get(ctx context.Context, key string) ([]string, error) {
	enc, err := m.encode(key)
	if err != nil {
		return nil, err
	}
	vals, err := m.client.Do(ctx, m.client.B().Lrange().Key(m.keys.list+enc).Start(0).Stop(-1).Build()).AsStrSlice()
	return vals, redisErr("get", err)
}

// Delete removes key and all its values in one atomic script and reports
// whether key was in the map. It refuses a malformed key (ErrKey).
func (m *Map) Delete(ctx context.Context, key string) (bool, error) {
	enc, err := m.encode(key)
	if err != nil {
		return false, err
	}
	n, err := deleteScript.Exec(ctx, m.client, []string{m.keys.index, m.keys.list + enc}, []string{enc}).AsInt64()
	return n == 1, redisErr("delete", err)
}

// Remove removes the first occurrence of value from the list of key (later
// repeats stay), and key itself when that was its last value, in one
// atomic script. It reports whether value was there. It refuses a malformed
// key (ErrKey).
func (m *Map) Remove(ctx context.Context, key, value string) (bool, error) {
	enc, err := m.encode(key)
	if err != nil {
		return false, err
	}
	keys := []string{m.keys.index, m.keys.list + enc}
	n, err := removeScript.Exec(ctx, m.client, keys, []string{enc, value}).AsInt64()
	return n == 1, redisErr("remove", err)
}

// Count returns the number of keys in the map.
func (m *Map) Count(ctx context.Context) (int64, error) {
	n, err := m.client.Do(ctx, m.client.B().Zcard().Key(m.keys.index).Build()).AsInt64()
	return n, redisErr("count", err)
}

// clearBatch is the most keys one step of Clear removes.
const clearBatch = 500

// Clear removes every key of the map with its values. Each step is one
// atomic script removing up to 500 keys with their lists, so no reader ever
// sees a key without its list, and Redis is never blocked for long; Clear
// repeats steps until the map is empty. Keys added while it runs may be
// removed too.
func (m *Map) Clear(ctx context.Context) error {
	args := []string{m.keys.list, fmt.Sprint(clearBatch)}
	for {
		left, err := clearScript.Exec(ctx, m.client, []string{m.keys.index}, args).AsInt64()
		if err != nil || left == 0 {
			return redisErr("clear", err)
		}
	}
}

func redisErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("decimalmap: %s: %w: %w", op, ErrRedis, err)
}

package redistest

import (
	"context"
	"fmt"
	"slices"

	"github.com/redis/rueidis"
)

// Dump returns what key holds, for tests that check a call wrote
// nothing: its DUMP, or for a HASH its fields and values and for a SET its
// members, sorted (a read may move a large one's elements within its
// table, an incremental rehash, which changes its DUMP and nothing it
// holds). "" for no key.
func Dump(ctx context.Context, client rueidis.Client, key string) (string, error) {
	typ, err := client.Do(ctx, client.B().Type().Key(key).Build()).ToString()
	if err != nil {
		return "", err
	}
	switch typ {
	case "hash":
		m, err := client.Do(ctx, client.B().Hgetall().Key(key).Build()).AsStrMap()
		if err != nil {
			return "", err
		}
		return "hash " + fmt.Sprint(m), nil // fmt prints a map's keys sorted
	case "set":
		ms, err := client.Do(ctx, client.B().Smembers().Key(key).Build()).AsStrSlice()
		if err != nil {
			return "", err
		}
		slices.Sort(ms)
		return "set " + fmt.Sprint(ms), nil
	}
	d, err := client.Do(ctx, client.B().Dump().Key(key).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return "", nil
	}
	return d, err
}

package redistest

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"
)

// Dump returns what key holds, for tests that check a call wrote
// nothing: its DUMP, or for a HASH its fields and values, sorted (a read
// may move a large HASH's fields within its table, an incremental rehash,
// which changes its DUMP and nothing it holds). "" for no key.
func Dump(ctx context.Context, client rueidis.Client, key string) (string, error) {
	typ, err := client.Do(ctx, client.B().Type().Key(key).Build()).ToString()
	if err != nil {
		return "", err
	}
	if typ == "hash" {
		m, err := client.Do(ctx, client.B().Hgetall().Key(key).Build()).AsStrMap()
		if err != nil {
			return "", err
		}
		return "hash " + fmt.Sprint(m), nil // fmt prints a map's keys sorted
	}
	d, err := client.Do(ctx, client.B().Dump().Key(key).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		return "", nil
	}
	return d, err
}

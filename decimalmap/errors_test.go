package decimalmap

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// checkErrorText fails t when err's text does not name the package exactly
// once ("decimalmap: decimalmap: ..." or no name at all).
func checkErrorText(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if n := strings.Count(err.Error(), "decimalmap: "); n != 1 {
		t.Errorf("error says %q %d times: %v", "decimalmap: ", n, err)
	}
}

// errOf returns the error of a call with two results.
func errOf[T any](_ T, err error) error { return err }

// TestErrorsNameWhatFailed: every refusal names the call, the argument,
// the value given and the range allowed, and the package once.
func TestErrorsNameWhatFailed(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "errs")
	ctx := context.Background()
	long := "1." + strings.Repeat("5", DefaultMaxKeyLen)
	for _, c := range []struct {
		err  error
		want []string
	}{
		{errOf(m.Add(ctx, "1.5")), []string{"add", `"1.5"`, "len(values) = 0", "[1, 100]"}},
		{errOf(m.Add(ctx, long, "v")), []string{"add: key", "258 bytes", "[1, 256]", "Options.MaxKeyLen"}},
		{errOf(m.Add(ctx, "25500,1", "v")), []string{"add: key", `"25500,1"`}},
		{errOf(m.Get(ctx, "x")), []string{"get: key", `"x"`}},
		{errOf(m.Remove(ctx)), []string{"remove", "len(keys) = 0", "[1, 1000]"}},
		{errOf(m.Remove(ctx, make([]string, MaxRemove+1)...)), []string{"len(keys) = 1001", "[1, 1000]"}},
		{errOf(m.Remove(ctx, "1", "2", "two")), []string{"remove: keys[2]", `"two"`}},
		{errOf(m.RemoveValue(ctx, "one", "v")), []string{"remove value: key", `"one"`}},
		{errOf(m.Range(ctx, Query{Limit: -3})), []string{"range", "Query.Limit = -3", "[0, 9223372036854775807]"}},
		{errOf(m.Range(ctx, Query{Min: Inclusive("lo")})), []string{"range: Query.Min", `"lo"`}},
		{errOf(m.Range(ctx, Query{Max: Exclusive("hi")})), []string{"range: Query.Max", `"hi"`}},
		{errOf(m.Range(ctx, Query{Max: Bound{key: "1", kind: 7}})), []string{"Query.Max", "bound kind 7"}},
		{errOf(m.Scan(ctx, "", 0)), []string{"scan", "n = 0", "[1, 9223372036854775807]"}},
		{errOf(m.Scan(ctx, "next", 5)), []string{"scan: cursor", `"next"`}},
		{errOf(New(env.Client, "ok", Options{MaxKeyLen: -1})), []string{"Options.MaxKeyLen = -1", "[1, 256]"}},
		{errOf(New(nil, "ok", Options{})), []string{"client is nil"}},
		{errOf(New(env.Client, strings.Repeat("n", MaxNameLen+1), Options{})), []string{"name", "201 bytes", "200"}},
	} {
		if c.err == nil {
			t.Errorf("want an error containing %q, got nil", c.want)
			continue
		}
		checkErrorText(t, c.err)
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("error %q does not say %q", c.err, w)
			}
		}
	}
}

// TestRedisErrorsNameThePackageOnce: an error of a call to Redis (here a
// cancelled context, which wraps context.Canceled and not ErrRedis) also
// names the package once.
func TestRedisErrorsNameThePackageOnce(t *testing.T) {
	env := redistest.New(t)
	m := newMap(t, env.Client, env.Prefix, "cancel")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs := []error{errOf(m.Add(ctx, "1", "v")), errOf(m.Get(ctx, "1")), errOf(m.Remove(ctx, "1")),
		errOf(m.RemoveValue(ctx, "1", "v")), errOf(m.Len(ctx)), m.Drop(ctx),
		errOf(m.Range(ctx, Query{})), errOf(m.Scan(ctx, "", 3))}
	for i, err := range errs {
		if errors.Is(err, ErrRedis) || !errors.Is(err, context.Canceled) {
			t.Errorf("call %d on a cancelled context: err = %v; want context.Canceled and not ErrRedis (the caller's context is no Redis error)", i, err)
		}
		checkErrorText(t, err)
	}
}

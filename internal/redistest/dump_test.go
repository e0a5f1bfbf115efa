package redistest_test

import (
	"fmt"
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// Dump tells keys apart by what they hold, not by how Redis lays it out:
// a HASH and a SET of the same elements written in other orders (other
// tables) are equal, and one element more is not.
func TestDumpComparesContent(t *testing.T) {
	env := redistest.New(t)
	ctx := t.Context()
	c := env.Client
	for i := range 200 {
		j := 199 - i
		for _, cmd := range [][]string{
			{"HSET", env.Prefix + "h1", fmt.Sprint("f", i), fmt.Sprint(i)},
			{"HSET", env.Prefix + "h2", fmt.Sprint("f", j), fmt.Sprint(j)},
			{"SADD", env.Prefix + "s1", fmt.Sprint("m", i)},
			{"SADD", env.Prefix + "s2", fmt.Sprint("m", j)},
		} {
			if err := c.Do(ctx, c.B().Arbitrary(cmd...).Build()).Error(); err != nil {
				t.Fatal(err)
			}
		}
	}
	dump := func(k string) string {
		d, err := redistest.Dump(ctx, c, env.Prefix+k)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if dump("h1") != dump("h2") || dump("s1") != dump("s2") {
		t.Errorf("the same elements in other orders dump differently")
	}
	if err := c.Do(ctx, c.B().Hset().Key(env.Prefix+"h2").FieldValue().FieldValue("more", "1").Build()).Error(); err != nil {
		t.Fatal(err)
	}
	if dump("h1") == dump("h2") {
		t.Errorf("a field more dumps the same")
	}
	if dump("none") != "" {
		t.Errorf("no key dumps %q", dump("none"))
	}
}

package benchload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParamParse(t *testing.T) {
	sizes := Param{Name: "sizes", Full: "1e6", Min: minBoardSize, Max: 1e9, List: true}
	got, err := sizes.parse("1e6, 1e4,100000,1e4")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{1e4, 1e5, 1e6}, got); diff != "" {
		t.Errorf("sizes (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "1e2", "1500.5", "ten", "1e10", "-1e4", "1e4,"} {
		if _, err := sizes.parse(bad); err == nil {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
	one := Param{Name: "ids", Full: "10", Min: 1, Max: 100}
	if _, err := one.parse("5,6"); err == nil {
		t.Error("a single-valued parameter accepted two values")
	}
}

// TestDefaultsCheck checks that the full and quick settings of every
// workload are valid, and that a bad one is refused with its name.
func TestDefaultsCheck(t *testing.T) {
	for _, quick := range []bool{false, true} {
		if err := Defaults(quick).Check(Workloads()); err != nil {
			t.Errorf("Defaults(%v): %v", quick, err)
		}
	}
	c := Defaults(true)
	if err := c.With("hot", "20000").Check(Workloads()); err == nil {
		t.Error("hot > ids accepted")
	}
	if c.Values["hot"] != "100" {
		t.Errorf("With changed its receiver: hot = %q", c.Values["hot"])
	}
	c.Concurrency = 0
	if err := c.Check(nil); err == nil {
		t.Error("concurrency 0 accepted")
	}
}

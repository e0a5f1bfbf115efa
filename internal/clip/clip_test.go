package clip

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("x", Max+10)
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"a\nb", `"a\nb"`},
		{long[:Max], `"` + long[:Max] + `"`},
		{long, `"` + long[:Max] + `"...`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.10q...) = %.20s..., want %.20s...", c.in, got, c.want)
		}
	}
	if got := Quote([]byte("ab")); got != `"ab"` {
		t.Errorf("Quote([]byte) = %s", got)
	}
}

package main

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The printed pages cover every message once, newest first.
func TestChatPages(t *testing.T) {
	for _, s := range []timeline.Strategy{timeline.SplitScore, timeline.LexID} {
		t.Run(s.String(), func(t *testing.T) {
			env := redistest.New(t)
			var out bytes.Buffer
			c := config{messages: 3000, page: 100, strategy: s}
			if err := run(context.Background(), &out, env.Client, env.Prefix+"_chat", c); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var got []int
			for i, line := range lines[1:] {
				got = append(got, pageNumbers(t, line, i == len(lines)-2)...)
			}
			want := make([]int, c.messages)
			for i := range want {
				want[i] = c.messages - 1 - i
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("messages in page order (-want +got):\n%s\n%s", diff, out.String())
			}
			if len(lines)-1 != 30 {
				t.Errorf("%d pages, want 30", len(lines)-1)
			}
		})
	}
}

// pageNumbers expands the runs of one page line ("#2999..2900,...") and
// checks its count and its more= flag (false only on the last page).
func pageNumbers(t *testing.T, line string, last bool) []int {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 6 || !strings.HasPrefix(f[4], "#") {
		t.Fatalf("page line %q", line)
	}
	var nums []int
	for _, r := range strings.Split(f[4][1:], ",") {
		a, b, _ := strings.Cut(r, "..")
		hi, err1 := strconv.Atoi(a)
		lo, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo > hi {
			t.Fatalf("run %q in %q", r, line)
		}
		for n := hi; n >= lo; n-- {
			nums = append(nums, n)
		}
	}
	if f[2] != strconv.Itoa(len(nums)) || f[5] != fmt.Sprintf("more=%t", !last) {
		t.Errorf("page line %q: %d messages listed", line, len(nums))
	}
	return nums
}

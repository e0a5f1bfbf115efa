package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestPriceIndex(t *testing.T) {
	env := redistest.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), &out, env.Client, env.Prefix); err != nil {
		t.Fatal(err)
	}
	want := `price index (5 prices):
  25500.12345  user1, user2
  25500.12346  user2, user3, user2
  25505.05443  user2, user1
  25505.233    user3
  25506.12345  user3, user5
range [25500.12346, 25505.2]:
  25500.12346  user2, user3, user2
  25505.05443  user2, user1
get 25505.23300: user3
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

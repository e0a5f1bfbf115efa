package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func TestQuickstartRanking(t *testing.T) {
	env := redistest.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), &out, env.Client, env.Prefix); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		ids = append(ids, strings.Fields(line)[1])
	}
	if diff := cmp.Diff([]string{"D", "E", "C", "B", "A"}, ids); diff != "" {
		t.Errorf("ranking (-want +got):\n%s\n%s", diff, out.String())
	}
}

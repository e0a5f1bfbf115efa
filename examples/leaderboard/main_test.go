package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// The program prints points, then paid first, then earliest.
// want is what the program prints, and what the README shows it prints.
const want = "1 ann [300 0]\n2 bob [200 1]\n3 dee [200 1]\n\n" +
	"3 dee [200 1]\n4 cyd [200 0]\n5 eve [100 1]\n\n"

func TestLeaderboard(t *testing.T) {
	env := redistest.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), &out, env.Client, env.Prefix+":arena"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// The README shows this program, to the byte, and what it prints.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	program, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- examples/leaderboard/main.go -->\n```go\n"
	_, block, ok := strings.Cut(string(readme), marker)
	if !ok {
		t.Fatalf("README.md has no %q", marker)
	}
	block, _, _ = strings.Cut(block, "```\n")
	if diff := cmp.Diff(string(program), block); diff != "" {
		t.Errorf("README.md's program differs from examples/leaderboard/main.go (-file +README):\n%s", diff)
	}
	// Its output, as an indented block after "prints:".
	var shown strings.Builder
	for line := range strings.Lines(strings.TrimSuffix(want, "\n")) {
		if line != "\n" {
			line = "    " + line
		}
		shown.WriteString(line)
	}
	if !strings.Contains(string(readme), "`go run ./examples/leaderboard` prints:\n\n"+shown.String()) {
		t.Errorf("README.md does not show what the program prints:\n%s", shown.String())
	}
}

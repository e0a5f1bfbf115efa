package main

import (
	"os"
	"strings"
	"testing"
)

// Every command is in the package documentation's list and in a table of
// docs/command.md: a line of either names its two words, in order.
func TestCommandsDocumented(t *testing.T) {
	for _, d := range []struct {
		file string
		in   func(line string) bool // the lines that list commands
	}{
		{"doc.go", func(l string) bool { return strings.HasPrefix(l, "//\t") }},
		{"../../docs/command.md", func(l string) bool { return strings.HasPrefix(l, "| `") }},
	} {
		text, err := os.ReadFile(d.file)
		if err != nil {
			t.Fatal(err)
		}
		var lines [][]string
		for l := range strings.Lines(string(text)) {
			if d.in(l) {
				lines = append(lines, strings.FieldsFunc(l, func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' }))
			}
		}
		for _, c := range commands {
			if c.name == "help" {
				continue
			}
			words := strings.Fields(c.name)
			found := false
			for _, ws := range lines {
				at := 0
				for _, w := range ws {
					if at < len(words) && w == words[at] {
						at++
					}
				}
				found = found || at == len(words)
			}
			if !found {
				t.Errorf("%s does not list the command %q", d.file, c.name)
			}
		}
	}
}

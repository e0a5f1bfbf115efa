package docpaths

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// linkRE matches a Markdown link's target: [text](target).
var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Every relative link of README.md and docs/*.md leads to a file or
// directory of the repository, and a link to a heading ("page.md#anchor",
// "#anchor") to a heading of that page, by GitHub's rule for anchors.
func TestDocLinksResolve(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range markdownFiles(t, root) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for _, m := range linkRE.FindAllStringSubmatch(withoutCode(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s links to %s: no such file", rel, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			page, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s links to %s: %v", rel, target, err)
				continue
			}
			if !hasAnchor(string(page), anchor) {
				t.Errorf("%s links to %s: no heading there with that anchor", rel, target)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d links: the search missed them", checked)
	}
}

// withoutCode returns text less its fenced code blocks, whose brackets
// are not links.
func withoutCode(text string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// hasAnchor reports whether a heading of the Markdown page has the
// anchor GitHub gives it: lower case, spaces as hyphens, punctuation
// other than hyphens and underscores dropped.
func hasAnchor(page, anchor string) bool {
	for line := range strings.Lines(withoutCode(page)) {
		heading, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		heading = strings.TrimSpace(strings.TrimLeft(heading, "#"))
		var a strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				a.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				a.WriteRune(r)
			}
		}
		if a.String() == anchor {
			return true
		}
	}
	return false
}

package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// printer writes a command's answer: a table for people, or JSON.
type printer struct {
	w    io.Writer
	json bool
}

// table is rows under a header, printed in aligned columns.
type table struct {
	header []string
	rows   [][]string
	notes  []string // lines printed after the table
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) note(format string, a ...any) { t.notes = append(t.notes, fmt.Sprintf(format, a...)) }

// emit prints v as JSON, or t as a table.
func (p *printer) emit(v any, t *table) error {
	if p.json {
		enc := json.NewEncoder(p.w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	if t.header != nil {
		fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	}
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = quoted(c) // a name or an id that would break the row
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(t.notes) > 0 && (t.header != nil || len(t.rows) > 0) {
		fmt.Fprintln(p.w)
	}
	for _, n := range t.notes {
		if _, err := fmt.Fprintln(p.w, escapeControls(n)); err != nil {
			return err
		}
	}
	return nil
}

// num writes v for people: whole numbers without an exponent.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// maxCell is the most characters of a payload or data a table cell shows.
const maxCell = 60

// text shows bytes in a table cell: as they are when they are printable
// UTF-8, else Go-quoted; cut at maxCell runes.
func text(b []byte) string {
	s := string(b)
	if !printable(s) {
		s = strconv.Quote(s)
	}
	if utf8.RuneCountInString(s) > maxCell {
		r := []rune(s)
		s = string(r[:maxCell-3]) + "..."
	}
	return s
}

// quoted is s, or s quoted as Go does where it holds a byte a table cell
// cannot show (a newline, a tab, a control byte, invalid UTF-8), so that
// a name breaks no row; unlike text, it never shortens s.
func quoted(s string) string {
	if printable(s) {
		return s
	}
	return strconv.Quote(s)
}

// escapeControls writes the bytes of s that a terminal line cannot show
// (control bytes, newlines, invalid UTF-8) as Go escapes, and leaves the
// rest, quotes included, as it is: for notes, whose names may hold them.
func escapeControls(s string) string {
	if printable(strings.ReplaceAll(s, "\t", " ")) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || strconv.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !strconv.IsPrint(r) || r == '\t' {
			return false
		}
	}
	return true
}

// blob is bytes in JSON: a string when they are valid UTF-8, else their
// base64 (standard encoding) under another name.
type blob struct {
	Text   *string `json:"text,omitempty"`
	Base64 *string `json:"base64,omitempty"`
}

// blobOf returns b as a blob, or nil for no bytes.
func blobOf(b []byte) *blob {
	if b == nil {
		return nil
	}
	s := string(b)
	if utf8.ValidString(s) {
		return &blob{Text: &s}
	}
	e := base64.StdEncoding.EncodeToString(b)
	return &blob{Base64: &e}
}

// stamp writes an instant in UTC with milliseconds, for tables and JSON.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// ago writes how far t is from now, rounded for people: "in 58.2s",
// "3m0s ago", "now" within 50ms.
func ago(t, now time.Time) string {
	d := t.Sub(now).Round(100 * time.Millisecond)
	if d == 0 {
		return "now"
	}
	if d > 0 {
		return "in " + d.String()
	}
	return (-d).String() + " ago"
}

// shellQuote quotes s for a POSIX shell when it needs it.
// commandLine is a command to run, "tiebreak" and words, its positional
// arguments quoted for the shell before its flags, as the help shows
// them; or, when a positional starts with "-" (which would read as a
// flag), the flags first, then "--" and the positionals.
func commandLine(words string, positional []string, flags ...string) string {
	quoted := make([]string, len(positional))
	dash := false
	for i, p := range positional {
		quoted[i] = shellQuote(p)
		dash = dash || strings.HasPrefix(p, "-")
	}
	parts := []string{"tiebreak", words}
	if dash {
		parts = append(append(append(parts, flags...), "--"), quoted...)
	} else {
		parts = append(append(parts, quoted...), flags...)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.:/@%+=,", r)) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// count writes n and its noun, "1 entry", "5 entries", from the plural,
// whose singular is in singulars.
func count(n int64, plural string) string {
	if n == 1 {
		if one, ok := singulars[plural]; ok {
			return "1 " + one
		}
	}
	return fmt.Sprintf("%d %s", n, plural)
}

var singulars = map[string]string{"entries": "entry", "messages": "message", "keys": "key", "requests": "request", "values": "value", "partitions": "partition"}

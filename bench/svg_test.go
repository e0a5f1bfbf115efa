package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiebreak/tiebreak/internal/benchload"
)

// readSection is a reads section as runReads makes it, with made-up
// latencies.
func readSection(sizes []int64) Section {
	var s Section
	for _, k := range benchload.ReadKinds() {
		for _, st := range []string{"packed", "suffix"} {
			for i, n := range sizes {
				name := k + " " + st
				s.Rows = append(s.Rows, Row{Case: benchload.SizeLabel(n), Variant: name, Series: name, Size: n, P50us: 100 + float64(10*i)})
			}
		}
	}
	return s
}

// svgSeries parses data as XML, failing on any syntax error, and returns
// the id of every series group with its polyline's number of points.
func svgSeries(t *testing.T, data []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	got := map[string]int{}
	current := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch el.Name.Local {
		case "g":
			current = ""
			if attr(el, "class") == "series" {
				current = attr(el, "id")
			}
		case "polyline":
			if current != "" {
				got[current] = len(strings.Fields(attr(el, "points")))
			}
		}
	}
}

// attr returns the attribute name of el, or "".
func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// TestReadChartSeries checks that the chart is well-formed SVG with one
// line per read and strategy, each through every size.
func TestReadChartSeries(t *testing.T) {
	for _, sizes := range [][]int64{{1e4, 1e5, 1e6, 1e7}, {1e4}} {
		data := readChart(readSection(sizes), 16)
		want := map[string]int{}
		for _, k := range benchload.ReadKinds() {
			want["series-"+k+"-packed"] = len(sizes)
			want["series-"+k+"-suffix"] = len(sizes)
		}
		if diff := cmp.Diff(want, svgSeries(t, data)); diff != "" {
			t.Errorf("sizes %v: series (-want +got):\n%s", sizes, diff)
		}
		if bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Inf")) {
			t.Errorf("sizes %v: chart holds NaN or Inf", sizes)
		}
		if root := rootName(t, data); root != "svg" {
			t.Errorf("root element %q, want svg", root)
		}
	}
}

// TestChartEscapes checks that text is escaped: a series name with markup
// characters keeps the document well-formed.
func TestChartEscapes(t *testing.T) {
	c := chart{title: `a <b> & "c"`, series: []chartSeries{{name: "x<&>", points: []chartPoint{{1e3, 5}, {1e4, 7}}}}}
	svgSeries(t, c.svg())
}

// rootName returns the name of data's root element.
func rootName(t *testing.T, data []byte) string {
	t.Helper()
	var root struct{ XMLName xml.Name }
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	return root.XMLName.Local
}

package main

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tiebreak/tiebreak/internal/benchload"
)

// chart is a line chart with a logarithmic x axis and a linear y axis.
type chart struct {
	title, xLabel, yLabel string
	series                []chartSeries
}

// chartSeries is one line of a chart.
type chartSeries struct {
	name   string
	color  string
	dashed bool
	points []chartPoint // ascending x
}

// chartPoint is one point: x > 0.
type chartPoint struct{ x, y float64 }

// The chart's geometry, in SVG user units.
const (
	chartW, chartH = 860.0, 500.0
	plotL, plotR   = 70.0, 640.0
	plotT, plotB   = 50.0, 440.0
)

// readColors gives each read its colour; strategies differ by dashing.
var readColors = map[string]string{
	"top10": "#1f77b4", "rank": "#ff7f0e", "around10": "#2ca02c",
	"page-offset": "#d62728", "page-cursor": "#9467bd",
}

// readChart draws p50 latency against board size, one line per read and
// strategy, from the reads section's rows.
func readChart(sec Section, concurrency int) []byte {
	byName := map[string]*chartSeries{}
	var order []string
	for _, r := range sec.Rows {
		s, ok := byName[r.Series]
		if !ok {
			kind, strategy, _ := strings.Cut(r.Series, " ")
			s = &chartSeries{name: r.Series, color: cmp.Or(readColors[kind], "#555"), dashed: strategy == "suffix"}
			byName[r.Series] = s
			order = append(order, r.Series)
		}
		s.points = append(s.points, chartPoint{x: float64(r.Size), y: r.P50us})
	}
	c := chart{
		title:  fmt.Sprintf("Leaderboard read latency (p50) against board size, %d concurrent goroutines", concurrency),
		xLabel: "board size (members, log scale)", yLabel: "p50 latency (µs)",
	}
	for _, name := range order {
		s := byName[name]
		slices.SortFunc(s.points, func(a, b chartPoint) int { return cmp.Compare(a.x, b.x) })
		c.series = append(c.series, *s)
	}
	return c.svg()
}

// svg renders the chart.
func (c chart) svg() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n",
		chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(c.title))
	fmt.Fprintf(&b, `<rect width="%g" height="%g" fill="white"/>`+"\n", chartW, chartH)
	fmt.Fprintf(&b, `<text x="%g" y="24" font-size="14">%s</text>`+"\n", plotL, esc(c.title))
	xs, ymax := c.extent()
	c.axes(&b, xs, ymax)
	for i, s := range c.series {
		c.line(&b, s, xs, ymax)
		c.legend(&b, i, s)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// extent returns the distinct x values and a round y maximum.
func (c chart) extent() (xs []float64, ymax float64) {
	top := 0.0
	for _, s := range c.series {
		for _, p := range s.points {
			xs = append(xs, p.x)
			top = max(top, p.y)
		}
	}
	slices.Sort(xs)
	step := niceStep(top * 1.05 / 5)
	return slices.Compact(xs), step * math.Ceil(top*1.05/step)
}

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// px maps x (on a log scale between the smallest and largest of xs) to
// user units, inset from the frame; a single x sits in the middle.
func px(x float64, xs []float64) float64 {
	const inset = 30
	lo, hi := math.Log10(xs[0]), math.Log10(xs[len(xs)-1])
	if hi == lo {
		return (plotL + plotR) / 2
	}
	return plotL + inset + (math.Log10(x)-lo)/(hi-lo)*(plotR-plotL-2*inset)
}

// py maps y in [0, ymax] to user units.
func py(y, ymax float64) float64 { return plotB - y/ymax*(plotB-plotT) }

// axes draws the frame, the ticks, the grid and the axis labels.
func (c chart) axes(b *bytes.Buffer, xs []float64, ymax float64) {
	b.WriteString(`<g class="axes" stroke="#999" fill="none">` + "\n")
	fmt.Fprintf(b, `<rect x="%g" y="%g" width="%g" height="%g"/>`+"\n", plotL, plotT, plotR-plotL, plotB-plotT)
	step := ymax / 5
	for i := 1; i < 5; i++ {
		fmt.Fprintf(b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#eee"/>`+"\n", plotL, py(float64(i)*step, ymax), plotR, py(float64(i)*step, ymax))
	}
	b.WriteString("</g>\n<g class=\"labels\" fill=\"#333\">\n")
	for i := 0; i <= 5; i++ {
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end">%.4g</text>`+"\n", plotL-6, py(float64(i)*step, ymax)+4, float64(i)*step)
	}
	for _, x := range xs {
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`+"\n", px(x, xs), plotB+18, esc(benchload.SizeLabel(int64(x))))
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (plotL+plotR)/2, plotB+42, esc(c.xLabel))
	fmt.Fprintf(b, `<text x="18" y="%g" text-anchor="middle" transform="rotate(-90 18 %g)">%s</text>`+"\n",
		(plotT+plotB)/2, (plotT+plotB)/2, esc(c.yLabel))
	b.WriteString("</g>\n")
}

// line draws one series as a polyline with a dot per point.
func (c chart) line(b *bytes.Buffer, s chartSeries, xs []float64, ymax float64) {
	fmt.Fprintf(b, `<g class="series" id="%s" data-series="%s" stroke="%s" fill="%s">`+"\n", seriesID(s.name), esc(s.name), s.color, s.color)
	pts := make([]string, len(s.points))
	for i, p := range s.points {
		pts[i] = fmt.Sprintf("%.1f,%.1f", px(p.x, xs), py(p.y, ymax))
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke-width="2"%s points="%s"/>`+"\n", dash(s.dashed), strings.Join(pts, " "))
	for i, p := range s.points {
		x, y, _ := strings.Cut(pts[i], ",")
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="3"><title>%s at %s: %.1f µs</title></circle>`+"\n",
			x, y, esc(s.name), esc(benchload.SizeLabel(int64(p.x))), p.y)
	}
	b.WriteString("</g>\n")
}

// legend draws series i's entry right of the plot.
func (c chart) legend(b *bytes.Buffer, i int, s chartSeries) {
	y := plotT + 10 + float64(i)*20
	fmt.Fprintf(b, `<g class="legend"><line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="2"%s/>`,
		plotR+20, y, plotR+50, y, s.color, dash(s.dashed))
	fmt.Fprintf(b, `<text x="%g" y="%g" fill="#333">%s</text></g>`+"\n", plotR+58, y+4, esc(s.name))
}

// dash returns the dashing attribute of a dashed line.
func dash(dashed bool) string {
	if dashed {
		return ` stroke-dasharray="6 4"`
	}
	return ""
}

// seriesID turns "top10 packed" into the element id "series-top10-packed":
// letters and digits kept, anything else a hyphen.
func seriesID(name string) string {
	return "series-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, name)
}

// esc escapes text for XML.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// writeSVG writes data to path, creating its directory; "-" writes nothing.
func writeSVG(path string, data []byte) error {
	if path == "-" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

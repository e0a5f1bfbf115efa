package tiebreakotel_test

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// printTree writes the spans as a tree, each under its parent, in the
// order they started: name, kind, then its attributes and its status when
// it failed. It leaves out the attributes of skip.
func printTree(w io.Writer, spans []sdktrace.ReadOnlySpan, skip ...attribute.Key) {
	spans = slices.Clone(spans)
	slices.SortStableFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	ids := make(map[trace.SpanID]bool)
	for _, s := range spans {
		ids[s.SpanContext().SpanID()] = true
	}
	var walk func(parent trace.SpanID, depth int)
	walk = func(parent trace.SpanID, depth int) {
		for _, s := range spans {
			p := s.Parent().SpanID()
			if !ids[p] {
				p = trace.SpanID{}
			}
			if p != parent {
				continue
			}
			fmt.Fprintf(w, "%s%s (%s)", strings.Repeat("    ", depth), s.Name(), s.SpanKind())
			for _, kv := range s.Attributes() {
				if slices.Contains(skip, kv.Key) {
					continue
				}
				fmt.Fprintf(w, " %s=%s", kv.Key, kv.Value.Emit())
			}
			if s.Status().Code.String() == "Error" {
				fmt.Fprintf(w, " status=Error")
			}
			fmt.Fprintln(w)
			walk(s.SpanContext().SpanID(), depth+1)
		}
	}
	walk(trace.SpanID{}, 0)
}
